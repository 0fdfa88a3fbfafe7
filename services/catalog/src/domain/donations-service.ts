import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  DonationStatusLabels,
  DonationStatuses,
  DonationTransitions,
  Events,
  Limits,
  ValidationMessages,
  type Actor,
  type DomainEvent,
  type Donation,
  type DonationCreate,
  type DonationContacts,
  type DonationCreated,
  type DonationLookup,
  type DonationsPage,
  type DonationsQuery,
  type DonationStatus,
  type DonationStatusUpdate,
  type FieldError,
  type Language,
} from '@furniture/contracts';
import { AppError, createEvent, localDay } from '@furniture/platform/domain';
import type { CategoriesRepository } from '../data-access/categories-repository';
import type { DonationsRepository } from '../data-access/donations-repository';
import { TIME_ZONE } from './dates';
import { OPEN_DONATION_STATUSES, toDonation, type DonationData } from './donation-records';

/** Donations the expiry job reads at a time. */
const EXPIRY_BATCH = 200;

/** A donor's offer as the public route hands it over (the phone already in E.164). */
export interface DonationSubmission extends Omit<DonationCreate, 'donor_phone' | 'language'> {
  phone: { e164: string; raw: string };
  language: Language;
  /** the request's language, for the field errors */
  lang: Language;
  /** counts the offer against the public write limits (throws 429 when one is spent) */
  admit?: () => Promise<void>;
}

export interface DonationsDeps {
  donations: DonationsRepository;
  categories: CategoriesRepository;
  /** the clock (tests set it) */
  now: () => Date;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** The people an event names: the donor, for the mails. */
export function donorOf(d: DonationData) {
  return {
    donation_id: d.id,
    donor_name: d.donor_name,
    donor_email: d.donor_email,
    language: d.language,
    donor_phone: d.donor_phone,
  };
}

/** Only what staff are: no token expiry or session of theirs in a stored history. */
export const staffRef = (a: Actor): Actor => ({
  id: a.id,
  name: a.name,
  email: a.email,
  role: a.role,
});

/**
 * Donations (issue 28): donors offer furniture on the public site and look their offers up by
 * phone; staff list, read and decide them. A donation and its items are one document, so an item
 * never exists without its donation; each change carries its event in the same write (outbox).
 */
export class DonationsService {
  constructor(private readonly deps: DonationsDeps) {}

  private today(): string {
    return localDay(this.deps.now(), TIME_ZONE);
  }

  /** POST /donations/: stores the offer and answers the upload token for its photos. */
  async submit(input: DonationSubmission): Promise<DonationCreated> {
    const errors: FieldError[] = [];
    const field = (loc: (string | number)[], key: keyof typeof ValidationMessages) =>
      errors.push({ loc: ['body', ...loc], msg: ValidationMessages[key][input.lang], type: key });
    if (input.available_until < this.today()) field(['available_until'], 'date_in_past');
    const categories = await Promise.all(
      input.items.map((i) => this.deps.categories.findById(i.category_id)),
    );
    categories.forEach((c, n) => c || field(['items', n, 'category_id'], 'unknown_category'));
    if (errors.length > 0) throw new AppError('VALIDATION_FAILED', { fieldErrors: errors });
    await input.admit?.();

    const now = this.deps.now();
    const token = randomBytes(24).toString('base64url');
    const donation: DonationData = {
      id: await this.deps.donations.nextId(),
      status: 'submitted',
      donor_name: input.donor_name,
      donor_phone: input.phone.e164,
      donor_phone_raw: input.phone.raw,
      donor_email: input.donor_email,
      donor_name_public: input.donor_name_public,
      language: input.language,
      city: input.city,
      address: input.address,
      floor: input.floor ?? null,
      has_elevator: input.has_elevator ?? null,
      available_until: input.available_until,
      items: input.items.map((i, n) => ({
        id: n + 1,
        category_id: i.category_id,
        description: i.description,
        dimensions: i.dimensions,
        condition: i.condition ?? null,
        can_disassemble: i.can_disassemble ?? null,
        photos: [],
        lot_id: null,
      })),
      history: [
        {
          at: now,
          from: null,
          to: 'submitted',
          cause: 'donor',
          by: null,
          note: null,
          reason: null,
        },
      ],
      photo_claims: [],
      upload_token_hash: sha256(token).toString('hex'),
      upload_token_expires_at: new Date(now.getTime() + Limits.donationUploadTokenSeconds * 1000),
      created_at: now,
      updated_at: now,
      status_changed_at: now,
      erased_at: null,
      rev: 1,
    };
    await this.deps.donations.insert(donation, [
      createEvent(Events.DonationSubmitted, {
        ...donorOf(donation),
        item_count: donation.items.length,
        category_ids: donation.items.map((i) => i.category_id),
        available_until: donation.available_until,
      }),
    ]);
    return {
      id: donation.id,
      status: 'submitted',
      created_at: now.toISOString(),
      items: donation.items.map((i) => ({ id: i.id })),
      upload_token: token,
    };
  }

  /**
   * Whether `token` is the donation's upload token and still valid: sent within its hour, while
   * the donation waits for staff (a decided one takes no more photos).
   */
  tokenValid(d: DonationData, token: string): boolean {
    if (d.status !== 'submitted' || !d.upload_token_hash || !d.upload_token_expires_at)
      return false;
    if (d.upload_token_expires_at.getTime() <= this.deps.now().getTime()) return false;
    return timingSafeEqual(sha256(token), Buffer.from(d.upload_token_hash, 'hex'));
  }

  /** POST /donations/lookup: what a donor sees of their offers (no personal data). */
  async lookup(e164: string): Promise<DonationLookup> {
    const found = await this.deps.donations.ofPhone(e164);
    return {
      donations: found.map((d) => ({
        id: d.id,
        status: d.status,
        created_at: d.created_at.toISOString(),
        available_until: d.available_until,
        items: d.items.map((i) => ({
          id: i.id,
          description: i.description,
          photos: i.photos.map((p) => p.urls),
        })),
      })),
    };
  }

  async list(q: DonationsQuery): Promise<DonationsPage> {
    const { donations, total, counts } = await this.deps.donations.page(
      { status: q.status, search: q.search },
      { skip: q.skip, limit: q.limit },
    );
    return {
      donations: donations.map(toDonation),
      total,
      counts: Object.fromEntries(
        DonationStatuses.map((s) => [s, counts.get(s) ?? 0]),
      ) as DonationsPage['counts'],
    };
  }

  async get(id: number): Promise<Donation> {
    const found = await this.deps.donations.findById(id);
    if (!found) throw new AppError('DONATION_NOT_FOUND');
    return toDonation(found);
  }

  /**
   * PATCH /donations/{id}/status: a transition of DonationTransitions, with its history entry
   * and donation.status_changed (the donor is mailed) in the same write.
   */
  async changeStatus(actor: Actor, id: number, input: DonationStatusUpdate): Promise<Donation> {
    const result = await this.deps.donations.mutate(id, (d) => {
      if (!DonationTransitions[d.status].includes(input.status)) {
        throw new AppError('DONATION_TRANSITION_NOT_ALLOWED', {
          params: { from: DonationStatusLabels[d.status], to: DonationStatusLabels[input.status] },
          extra: { status: d.status, allowed: DonationTransitions[d.status] },
        });
      }
      return this.move(d, input.status, {
        cause: 'staff',
        by: staffRef(actor),
        note: input.note,
        reason: input.reason,
      });
    });
    if (!result) throw new AppError('DONATION_NOT_FOUND');
    return toDonation(result.after);
  }

  /**
   * What a driver needs of some donations (issue 29: the applications service's day plan and
   * donor pickups), read now; unknown ids are left out.
   */
  async contacts(ids: number[]): Promise<DonationContacts> {
    const found = await Promise.all(
      [...new Set(ids)].map((id) => this.deps.donations.findById(id)),
    );
    return {
      donations: found
        .filter((d): d is DonationData => d !== null)
        .map((d) => ({
          id: d.id,
          status: d.status,
          donor_name: d.donor_name,
          donor_phone: d.donor_phone,
          address: d.address,
          city: d.city,
          floor: d.floor,
          has_elevator: d.has_elevator,
          items: d.items.map((i) => i.description),
        })),
    };
  }

  /**
   * handover.closed (issue 29): a donor pickup marked done collects its donation (accepted →
   * collected, as staff would, in the name of who marked it). A redelivery, or a donation that
   * moved on meanwhile, changes nothing.
   */
  async handoverClosed(event: DomainEvent<typeof Events.HandoverClosed>): Promise<void> {
    const p = event.payload;
    if (p.donation_id === null || p.outcome !== 'done') return;
    await this.deps.donations.mutate(p.donation_id, (d) =>
      d.status === 'accepted'
        ? this.move(d, 'collected', {
            cause: 'staff',
            by: event.actor,
            note: `Abgeholt (Termin #${p.handover_id})${p.note ? `: ${p.note}` : ''}`,
            reason: null,
          })
        : null,
    );
  }

  /**
   * The scheduled job: submitted and accepted donations whose available-until day has passed
   * (the donor can no longer keep the furniture for us) become expired, each with its
   * donation.status_changed (cause `expired`, no actor). Each move is guarded by the state it was
   * decided on, so a second pass (another replica) changes nothing. Answers how many.
   */
  async expireOverdue(held: () => boolean = () => true): Promise<number> {
    const today = this.today();
    let expired = 0;
    for (;;) {
      const batch = await this.deps.donations.pastAvailability(today, EXPIRY_BATCH);
      let moved = 0;
      for (const found of batch) {
        // a pass of one replica: once its lease is lost, the next holder goes on
        if (!held()) return expired + moved;
        const result = await this.deps.donations.mutate(found.id, (d) =>
          OPEN_DONATION_STATUSES.includes(d.status) && d.available_until < today
            ? this.move(d, 'expired', { cause: 'expired', by: null, note: null, reason: null })
            : null,
        );
        if (result?.changed) moved++;
      }
      expired += moved;
      if (batch.length < EXPIRY_BATCH || moved === 0) return expired;
    }
  }

  /** A status move with its history entry and donation.status_changed (staff or the expiry job). */
  move(
    d: DonationData,
    to: DonationStatus,
    how: {
      cause: 'staff' | 'expired';
      by: Actor | null;
      note: string | null;
      reason: string | null;
    },
  ) {
    const now = this.deps.now();
    return {
      set: {
        status: to,
        updated_at: now,
        status_changed_at: now,
        history: [...d.history, { at: now, from: d.status, to, ...how }],
      },
      events: (after: DonationData): DomainEvent[] => [
        createEvent(
          Events.DonationStatusChanged,
          {
            ...donorOf(after),
            old_status: d.status,
            new_status: to,
            cause: how.cause,
            reason: how.reason,
            note: how.note,
            item_count: after.items.length,
          },
          how.by,
        ),
      ],
    };
  }
}
