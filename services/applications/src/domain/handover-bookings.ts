import {
  Events,
  type Actor,
  type DomainEvent,
  type EventPayload,
  type FamilyBooking,
} from '@furniture/contracts';
import { AppError, createEvent, type LotLookup, type Logger } from '@furniture/platform/domain';
import type { ApplicationsRepository } from '../data-access/applications-repository';
import type { HandoversRepository } from '../data-access/handovers-repository';
import type { Calendar } from './calendar';
import type { HandoverLinks } from './handover-links';
import { LinkSecrets, secretDigest } from './link-secrets';
import type { HandoverRecord, LocationRecord, SlotRecord } from './handover-records';
import type { ApplicationRecord } from './records';
import { familyNumbers, lotName, referrerOf } from './status-changes';

export interface HandoverBookingsDeps {
  handovers: HandoversRepository;
  applications: ApplicationsRepository;
  lots: LotLookup;
  calendar: Calendar;
  logger: Logger;
  /** the public site, without a trailing slash */
  publicBaseUrl: string;
  /** the handover's bearer secrets (booking links, feed keys), derived from LINK_SECRET */
  links: LinkSecrets;
  /** a booking may be changed or cancelled up to this many hours before its slot */
  changeHours: number;
}

const HOUR_MS = 3600_000;

/** A location as families and mails see it (a deleted one as blanks). */
export const placeOf = (l: LocationRecord | null) => ({
  name: l?.name ?? '',
  address: l?.address ?? '',
  city: l?.city ?? '',
});

type WithSlot = Pick<
  HandoverRecord,
  'id' | 'application_id' | 'donation_id' | 'kind' | 'slot_id' | 'starts_at' | 'ends_at'
>;

/** The slot part of every handover event. */
export function slotPayload(h: WithSlot, location: LocationRecord | null) {
  return {
    handover_id: h.id,
    application_id: h.application_id,
    donation_id: h.donation_id,
    kind: h.kind,
    slot_id: h.slot_id,
    starts_at: h.starts_at.toISOString(),
    ends_at: h.ends_at.toISOString(),
    location: placeOf(location),
  };
}

/**
 * The family's bookings (issue 29): a booked slot is one place of its slot, taken and given back
 * by the booking's own writes (issue 42, data-access/handover-seats.ts). Here what the status changes need (the link
 * of an approval, the booking given back when an application leaves `approved`), the shared
 * pieces of the events, and the family's view of its booking. The family's own calls and the
 * staff's are in Handovers.
 */
export class HandoverBookings implements HandoverLinks {
  constructor(readonly deps: HandoverBookingsDeps) {}

  url(token: string): string {
    return `${this.deps.publicBaseUrl}/handover/${token}`;
  }

  issue(): { seed: string; tokenHash: string; url: string } {
    const seed = LinkSecrets.newSeed();
    const token = this.deps.links.handoverToken(seed);
    return { seed, tokenHash: secretDigest(token), url: this.url(token) };
  }

  urlOf(seed: string): string {
    return this.url(this.deps.links.handoverToken(seed));
  }

  now(): Date {
    return this.deps.calendar.now();
  }

  /** The last moment a booking of this slot may be changed or cancelled online. */
  changeableUntil(startsAt: Date): Date {
    return new Date(startsAt.getTime() - this.deps.changeHours * HOUR_MS);
  }

  /** Refuses a change of a booking whose slot is nearer than the change window. */
  checkChangeable(h: Pick<HandoverRecord, 'starts_at'>): void {
    if (this.now() > this.changeableUntil(h.starts_at))
      throw new AppError('HANDOVER_CHANGE_CLOSED', { params: { hours: this.deps.changeHours } });
  }

  /** The family of a handover's mails: name, address, language, lot and its link. */
  async familyOf(
    app: ApplicationRecord | null,
  ): Promise<EventPayload<typeof Events.HandoverBooked>['family']> {
    if (!app) return null;
    const lot = await this.deps.lots.get(app.lot_id);
    return {
      applicant_name: app.applicant_name,
      applicant_email: app.applicant_email,
      language: app.language,
      lot_name: lotName(lot, app),
      lot_id: app.lot_id,
      handover_url: app.handover_seed ? this.urlOf(app.handover_seed) : '',
      ...familyNumbers(app),
      ...referrerOf(app),
    };
  }

  /** The family's view of its booking. */
  async bookingOf(h: HandoverRecord | null): Promise<FamilyBooking | null> {
    if (!h) return null;
    const location = await this.deps.handovers.findLocation(h.location_id);
    return {
      slot_id: h.slot_id,
      kind: h.kind,
      starts_at: h.starts_at.toISOString(),
      ends_at: h.ends_at.toISOString(),
      location: placeOf(location),
      changeable_until: this.changeableUntil(h.starts_at).toISOString(),
    };
  }

  /** The slot an application holds now, as its referrer sees it (issue 44); null: none. */
  async referrerBookingOf(applicationId: number): Promise<{
    starts_at: string;
    ends_at: string;
    kind: HandoverRecord['kind'];
    location: string;
  } | null> {
    const h = await this.deps.handovers.bookedOf({ application_id: applicationId });
    if (!h) return null;
    const location = await this.deps.handovers.findLocation(h.location_id);
    return {
      starts_at: h.starts_at.toISOString(),
      ends_at: h.ends_at.toISOString(),
      kind: h.kind,
      location: placeOf(location).name,
    };
  }

  /**
   * Ends a booking as cancelled (by the family, staff or the system) and gives its place back.
   * false when it was no longer booked (someone else ended it first).
   */
  async cancel(
    h: HandoverRecord,
    app: ApplicationRecord | null,
    by: 'family' | 'staff' | 'system',
    actor: Actor | null,
  ): Promise<boolean> {
    const [location, family] = await Promise.all([
      this.deps.handovers.findLocation(h.location_id),
      this.familyOf(app),
    ]);
    const ended = await this.deps.handovers.endHandover(h, 'cancelled', {}, (after) => [
      createEvent(
        Events.HandoverCancelled,
        { ...slotPayload(after, location), by, family },
        actor,
      ) as DomainEvent,
    ]);
    // its place of the slot was given back by the same write (handover-seats.ts)
    return ended !== null;
  }

  /** The application left `approved`: its booking, if any, is cancelled by the system. */
  async applicationLeft(applicationId: number): Promise<void> {
    const booked = await this.deps.handovers.bookedOf({ application_id: applicationId });
    if (!booked) return;
    const app = await this.deps.applications.findById(applicationId);
    await this.cancel(booked, app, 'system', null);
  }

  /** A slot's answer for staff. */
  static slotAnswer(s: SlotRecord) {
    return {
      id: s.id,
      location_id: s.location_id,
      kind: s.kind,
      starts_at: s.starts_at.toISOString(),
      ends_at: s.ends_at.toISOString(),
      capacity: s.capacity,
      booked: s.booked,
    };
  }
}
