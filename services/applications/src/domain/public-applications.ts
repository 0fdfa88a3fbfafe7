import {
  Events,
  type ApplicationCreated,
  type ApplicationStatusItem,
  type CannotApplyReason,
  type QueueInfo,
} from '@furniture/contracts';
import { AppError, createEvent, type LotLookup, type LotView } from '@furniture/platform/domain';
import type { ApplicationsRepository } from '../data-access/applications-repository';
import type { ErasureMarks } from '../data-access/erasure-marks';
import { isOpen, type ApplicantFields, type ReferralRecord } from './records';
import { closeLateApplication, familyNumbers, lotName, referralOf } from './status-changes';

export interface PublicApplicationsDeps {
  /** erasures on request under way, asked after the submission's write (issue 42) */
  erasures?: Pick<ErasureMarks, 'ranSince'>;
  /** erases an application stored while its phone's erasure ran */
  eraseLate?: (id: number) => Promise<unknown>;
  applications: ApplicationsRepository;
  lots: LotLookup;
  /** open applications one phone may hold across all lots */
  maxOpenPerPhone: number;
  statusCheckMax: number;
}

/** A phone as E.164 (the applicant's key) and as typed. */
export interface PhoneValue {
  e164: string;
  raw: string;
}

export interface Submission extends Omit<
  ApplicantFields,
  'applicant_phone' | 'applicant_phone_raw'
> {
  lot_id: number;
  phone: PhoneValue;
  /** the hidden honeypot field was filled: a bot */
  honeypot: boolean;
  /** the browser's Idempotency-Key of this submission (null without one) */
  request_key: string | null;
  /** issue 44: a partner agency's referrer applies for the family */
  referral?: ReferralRecord | null;
  /**
   * counts the submission against the public write limits (throws 429 when one is spent); not
   * called for a resend of a submission already stored, which costs nothing
   */
  admit?: () => Promise<void>;
}

export interface Eligibility {
  can_apply: boolean;
  reason_code: CannotApplyReason | null;
  /** the reason's parameters (the open-applications count) */
  reason_params: Record<string, number>;
  total_applications: number;
  max_open_applications: number;
}

const isOpenForApplications = (lot: LotView) => !lot.deleted && lot.status === 'available';

/** The error that refuses a submission, by the reason eligibility gives. */
export const refusals = {
  lot_not_available: 'LOT_NOT_AVAILABLE',
  already_applied: 'ALREADY_APPLIED',
  too_many_open_applications: 'TOO_MANY_OPEN_APPLICATIONS',
} as const;

/**
 * What families do without an account: apply for a lot, check whether they can, see their place
 * in the lot's queue, and look up their applications by phone number.
 *
 * The queue is first come, first served: an application's place is its rank among the lot's open
 * (pending or approved) applications by id, and ids are drawn in arrival order.
 */
export class PublicApplications {
  constructor(private readonly deps: PublicApplicationsDeps) {}

  async submit(input: Submission): Promise<ApplicationCreated> {
    const { applications } = this.deps;
    const lot = await this.requireLot(input.lot_id);
    // the same submission sent again (its answer was lost): the first answer, not a refusal
    const repeated = input.honeypot ? null : await this.repeatedSubmission(input);
    if (repeated) return repeated;
    await input.admit?.();
    if (input.honeypot) return this.decoy(lot);
    // one phone at a time, then one lot at a time, in this process: the checks see each other's
    // results and the unique keys seldom have to decide; between processes they decide
    // (applications-keys.ts: the queue ticket and the phone's open places)
    return applications.inTurnOfPhone(input.phone.e164, async () => {
      const verdict = await this.judge(lot, input.phone.e164);
      if (verdict.reason_code)
        throw new AppError(refusals[verdict.reason_code], { params: verdict.reason_params });
      return applications.inTurnOfLot(lot.id, async () => {
        const { phone, honeypot: _bot, admit: _admit, ...fields } = input;
        const begun = new Date();
        const stored = await applications.insert(
          {
            ...fields,
            status: 'pending',
            applicant_phone: phone.e164,
            applicant_phone_raw: phone.raw,
            lot_name: lot.name,
            notes: [],
          },
          this.deps.maxOpenPerPhone,
          (app, position) => [
            createEvent(Events.ApplicationSubmitted, {
              application_id: app.id,
              lot_id: app.lot_id,
              status: 'pending',
              applicant_name: app.applicant_name,
              applicant_email: app.applicant_email,
              language: app.language,
              lot_name: lot.name,
              ...familyNumbers(app),
              queue_position: position,
              category_id: lot.category_id,
              ...(app.referral ? { referral: referralOf(app.referral) } : {}),
            }),
          ],
        );
        if ('refused' in stored) {
          // another process stored this phone's application for the lot, or its last open
          // place, first
          const again = await this.repeatedSubmission(input);
          if (again) return again;
          if (stored.refused === 'already_applied') throw new AppError('ALREADY_APPLIED');
          throw new AppError(refusals.too_many_open_applications, {
            params: { count: stored.open },
          });
        }
        const { record: created, position } = stored;
        // an erasure of this phone under way: it may have read the phone's applications before
        // this one was stored (data-access/erasure-marks.ts); what was sent goes with it
        if (await this.deps.erasures?.ranSince(created.applicant_phone, begun)) {
          await this.deps.eraseLate?.(created.id);
          throw new AppError('ERASURE_RUNNING');
        }
        // the lot may have been reserved or closed between the check above and the insert; the
        // handler that closed its other applications may have missed this one (see docs)
        const now = await this.deps.lots.get(lot.id);
        if (now && (now.deleted || now.status !== 'available')) {
          await closeLateApplication(this.deps, created, now);
        }
        return {
          id: created.id,
          status: 'pending' as const,
          created_at: created.created_at,
          queue_position: position,
        };
      });
    });
  }

  /**
   * The answer to a submission this browser already made (same phone, lot and Idempotency-Key),
   * with the application's current place in the queue; null for anything else.
   */
  private async repeatedSubmission(input: Submission): Promise<ApplicationCreated | null> {
    if (!input.request_key) return null;
    const existing = await this.deps.applications.findByLotAndPhone(input.lot_id, input.phone.e164);
    if (!existing || existing.request_key !== input.request_key) return null;
    return {
      id: existing.id,
      status: existing.status,
      created_at: existing.created_at,
      queue_position: await this.deps.applications.placeOf(existing),
    };
  }

  /** GET /lots/{id}/can-apply: the lot first, then this phone's application and its limit. */
  async eligibility(lotId: number, phone?: string): Promise<Eligibility> {
    const lot = await this.requireLot(lotId);
    return this.judge(lot, phone);
  }

  /** GET /lots/{id}/applications-info: the lot's queue as this phone sees it. */
  async queueInfo(lotId: number, phone?: string): Promise<QueueInfo> {
    const { applications } = this.deps;
    const lot = await this.requireLot(lotId);
    const [count, mine, eligibility] = await Promise.all([
      applications.countOpenOfLot(lot.id),
      phone ? applications.findByLotAndPhone(lot.id, phone) : Promise.resolve(null),
      this.judge(lot, phone),
    ]);
    return {
      applications_count: count,
      lot_status: lot.status,
      user_has_application: mine !== null,
      can_apply: eligibility.can_apply,
      queue_position: mine && (await applications.placeOf(mine)),
      user_application_status: mine?.status ?? null,
    };
  }

  /** GET /applications/public/check-status/{phone}: this phone's applications, newest first. */
  async statusCheck(phone: string): Promise<{ applications: ApplicationStatusItem[] }> {
    const { applications } = await this.deps.applications.list({
      phone,
      limit: this.deps.statusCheckMax,
      skip: 0,
    });
    const lots = await this.deps.lots.getMany([...new Set(applications.map((a) => a.lot_id))]);
    return {
      applications: applications.map((a) => ({
        id: a.id,
        status: a.status,
        lot_id: a.lot_id,
        created_at: a.created_at,
        lot_name: lotName(lots.get(a.lot_id) ?? null, a),
      })),
    };
  }

  private async judge(lot: LotView, phone?: string): Promise<Eligibility> {
    const { applications, maxOpenPerPhone } = this.deps;
    const held = phone ? await applications.ofPhone(phone) : [];
    const open = held.filter(isOpen).length;
    const mine = held.some((a) => a.lot_id === lot.id);
    const result = (reason: CannotApplyReason | null, params: Record<string, number> = {}) => ({
      can_apply: reason === null,
      reason_code: reason,
      reason_params: params,
      total_applications: open,
      max_open_applications: maxOpenPerPhone,
    });
    if (!isOpenForApplications(lot)) return result('lot_not_available');
    if (mine) return result('already_applied');
    if (open >= maxOpenPerPhone) return result('too_many_open_applications', { count: open });
    return result(null);
  }

  private async requireLot(lotId: number): Promise<LotView> {
    const lot = await this.deps.lots.get(lotId);
    if (!lot || lot.deleted) throw new AppError('LOT_NOT_FOUND');
    return lot;
  }

  /**
   * The answer a bot gets for a filled honeypot: shaped like a success, with a real id from the
   * counter so that it looks like any other, but nothing is stored and no event goes out.
   */
  private async decoy(lot: LotView): Promise<ApplicationCreated> {
    const [id, open] = await Promise.all([
      this.deps.applications.drawId(),
      this.deps.applications.countOpenOfLot(lot.id),
    ]);
    return {
      id,
      status: 'pending',
      created_at: new Date().toISOString(),
      queue_position: open + 1,
    };
  }
}
