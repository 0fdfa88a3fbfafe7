import type {
  Application,
  Referral,
  Wish,
  ReferralCreate,
  ReferralCreated,
  ReferralsAnswer,
} from '@furniture/contracts';
import { AppError, localDay, rangeEnd, type AuthenticatedActor } from '@furniture/platform/domain';
import type { Moderation } from './moderation';
import type { PhoneValue, PublicApplications } from './public-applications';
import { SYSTEM_AUTHOR } from './notes';
import type { ReferralRecord } from './records';
import type { WishesService } from './wishes-service';
import type { WishesRepository } from '../data-access/wishes-repository';
import { changeStatus, type StatusChangeDeps } from './status-changes';

const DAY_MS = 24 * 3600 * 1000;

/** The booked slot of a referred family, as its referrer sees it (null: none booked). */
export type ReferralBooking = Referral['booking'];

/** The numbered places of a referrer's day (data-access/referral-quota-repository.ts). */
export interface ReferralQuota {
  take(share: string, size: number): Promise<boolean>;
}

/** The family's numbers as the route parsed them (E.164 and as typed). */
export interface ReferralPhones {
  phone: PhoneValue;
  whatsapp: PhoneValue | null;
}

/**
 * Referrals (issue 44): a partner agency's referrer applies for a family it supports. The
 * application goes through the family's own path (PublicApplications.submit: the same lot check,
 * duplicate and per-phone rules, queue and messages) with the referral stored on it in the same
 * write. A referrer sees its own agency's referrals only (another's is 404, as if none); staff
 * see every agency's.
 */
export class Referrals {
  constructor(
    private readonly deps: {
      publicApplications: PublicApplications;
      moderation: Moderation;
      /** the next referral number (counter `referrals`) */
      drawId: () => Promise<number>;
      validDays: number;
      /** the status changes' own dependencies (the expiry rejects like staff or a lapse do) */
      changes: StatusChangeDeps;
      /** a referral as a wish: the family's own wish path */
      wishes: WishesService;
      wishesRepo: WishesRepository;
      /** the slot an approved family booked (HandoverBookings) */
      bookingOf: (applicationId: number) => Promise<ReferralBooking>;
      /** the referrals one referrer may make per office day, and where they are counted */
      perReferrerPerDay: number;
      quota: ReferralQuota;
      timeZone: string;
    },
  ) {}

  /**
   * Closes the referrals still pending at their end (a scheduled job): each application is
   * rejected with the reason `referral_expired` through the same guarded status change as any
   * rejection (one event: the family and the referrer are told, the queue behind it moves up).
   * On several replicas two jobs may pick the same one: the change is guarded by the status it
   * was decided on, so it happens once. Answers how many closed.
   */
  /** One pass of the expiry job; `held` is its lease, asked before each rejection. */
  async expire(now = new Date(), held: () => boolean = () => true): Promise<number> {
    const { applications } = this.deps.changes;
    let closed = 0;
    for (const app of await applications.referralsExpiredBy(now)) {
      if (!held()) break;
      const done = await changeStatus(this.deps.changes, app, 'rejected', {
        reason: 'referral_expired',
        note: `Vermittlung abgelaufen: nach ${this.deps.validDays} Tagen ohne Entscheidung`,
        author: SYSTEM_AUTHOR,
        actor: null,
      });
      if (!done) continue;
      await applications.markReferralExpired(app.id, now);
      closed++;
    }
    return closed;
  }

  async create(
    actor: AuthenticatedActor,
    input: ReferralCreate,
    phones: ReferralPhones,
  ): Promise<ReferralCreated> {
    const agencyId = actor.agencyId;
    if (actor.role !== 'referrer' || agencyId === undefined) throw new AppError('FORBIDDEN');
    await this.takeDailyPlace(actor);
    const f = input.family;
    const referral: ReferralRecord = {
      id: await this.deps.drawId(),
      agency_id: agencyId,
      agency_name: actor.agencyName ?? '',
      referrer_id: actor.id,
      referrer_name: actor.name,
      referrer_email: actor.email,
      referrer_language: actor.language ?? 'de',
      household_size: f.household_size,
      note: input.note?.trim() || null,
      expires_at: new Date(Date.now() + this.deps.validDays * DAY_MS).toISOString(),
    };
    const agency = { id: agencyId, name: referral.agency_name };
    if (input.wish) {
      const wish = await this.deps.wishes.create({
        applicant_name: f.name,
        whatsapp: phones.whatsapp!,
        applicant_email: f.email,
        furniture_category: input.wish.category_id,
        furniture_description: input.wish.description,
        language: f.language,
        honeypot: false,
        referral,
      });
      return {
        id: referral.id,
        application_id: null,
        wish_id: wish.id,
        status: wish.status,
        queue_position: null,
        expires_at: referral.expires_at,
        agency,
      };
    }
    const created = await this.deps.publicApplications.submit({
      lot_id: input.lot_id!,
      applicant_name: f.name,
      phone: phones.phone,
      applicant_whatsapp: phones.whatsapp?.e164 ?? null,
      applicant_email: f.email,
      applicant_city: f.city,
      applicant_address: f.address,
      needs_delivery_help: f.needs_delivery_help,
      language: f.language,
      honeypot: false,
      request_key: null,
      referral,
    });
    return {
      id: referral.id,
      application_id: created.id,
      wish_id: null,
      status: created.status,
      queue_position: created.queue_position,
      expires_at: referral.expires_at,
      agency,
    };
  }

  /**
   * Takes one of the referrer's places of the office day, or refuses with 429 until midnight:
   * each referral makes the platform send messages to numbers the referrer typed, so a stolen
   * referrer account can make it send at most this many families' messages a day.
   */
  private async takeDailyPlace(actor: AuthenticatedActor): Promise<void> {
    const { perReferrerPerDay: limit, timeZone } = this.deps;
    const now = new Date();
    const day = localDay(now, timeZone);
    if (await this.deps.quota.take(`${actor.id}:${day}`, limit)) return;
    const retryAfter = Math.max(
      1,
      Math.ceil((rangeEnd(day, timeZone).getTime() - now.getTime()) / 1000),
    );
    throw new AppError('REFERRAL_DAILY_LIMIT', {
      params: { limit },
      extra: { retry_after: retryAfter },
    });
  }

  /** A referrer's agency's referrals; staff: every agency's, or one's (`agencyId`). */
  async list(actor: AuthenticatedActor, agencyId?: number): Promise<ReferralsAnswer> {
    const scope = actor.role === 'referrer' ? this.ownAgency(actor) : agencyId;
    const [apps, wishes] = await Promise.all([
      this.deps.moderation.referred(scope),
      this.deps.wishesRepo.referred({ agencyId: scope }),
    ]);
    const referred = await Promise.all(apps.map((app) => this.withBooking(app)));
    const all = [...referred, ...wishes.map((w) => wishReferral(w.wish, w.referral))];
    return { referrals: all.sort((a, b) => b.created_at.localeCompare(a.created_at)) };
  }

  /** The referral of an application, with the slot it booked while approved (issue 44). */
  private async withBooking(app: Application): Promise<Referral> {
    const booking = app.status === 'approved' ? await this.deps.bookingOf(app.id) : null;
    return toReferral(app, booking);
  }

  async get(actor: AuthenticatedActor, id: number): Promise<Referral> {
    const app = await this.deps.moderation.ofReferral(id);
    const [wish] = app ? [] : await this.deps.wishesRepo.referred({ referralId: id }, 1);
    const found = app?.referral
      ? await this.withBooking(app)
      : wish
        ? wishReferral(wish.wish, wish.referral)
        : null;
    if (!found) throw new AppError('REFERRAL_NOT_FOUND');
    // another agency's family: as if there were none (nothing about it is said)
    if (actor.role === 'referrer' && found.agency.id !== this.ownAgency(actor))
      throw new AppError('REFERRAL_NOT_FOUND');
    return found;
  }

  private ownAgency(actor: AuthenticatedActor): number {
    if (actor.agencyId === undefined) throw new AppError('FORBIDDEN');
    return actor.agencyId;
  }
}

/** A referred family's application as its referrer sees it: where it stands, nothing internal. */
export function toReferral(app: Application, booking: ReferralBooking = null): Referral {
  const r = app.referral!;
  return {
    id: r.id,
    application_id: app.id,
    wish_id: null,
    agency: r.agency,
    family: { name: app.applicant_name, phone: app.applicant_phone },
    lot: app.lot ? { id: app.lot.id, name: app.lot.name } : null,
    status: r.expired_at ? 'expired' : app.status,
    queue_position: app.queue_position,
    pickup_by: app.pickup_by,
    handover_url: app.handover_url ?? null,
    booking,
    created_at: app.created_at,
    expires_at: r.expires_at,
  };
}

/** A referred wish as its referrer sees it: no lot, no queue, its status. */
export function wishReferral(wish: Wish, r: ReferralRecord): Referral {
  return {
    id: r.id,
    application_id: null,
    wish_id: wish.id,
    agency: { id: r.agency_id, name: r.agency_name },
    family: { name: wish.applicant_name, phone: wish.applicant_whatsapp },
    lot: null,
    status: wish.status,
    queue_position: null,
    pickup_by: null,
    handover_url: null,
    booking: null,
    created_at: wish.created_at,
    expires_at: r.expires_at,
  };
}
