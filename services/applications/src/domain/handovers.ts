import { timingSafeEqual } from 'node:crypto';
import {
  DonationStatusLabels,
  Events,
  HandoverStatusLabels,
  Limits,
  normalizeLabelCode,
  type Actor,
  type DayPlanStop,
  type DomainEvent,
  type DonationContacts,
  type FamilyBooking,
  type HandoverFamilyAnswer,
  type HandoverOutcomeInput,
  type HandoverScan,
  type HandoverScanAnswer,
  type LocationAnswer,
  type LocationCreate,
  type LocationPatch,
  type SlotAnswer,
  type SlotCreate,
  type SlotKind,
  type SlotPattern,
} from '@furniture/contracts';
import {
  AppError,
  createEvent,
  DependencyUnavailableError,
  localDay,
  localInstant,
  rangeEnd,
  rangeStart,
} from '@furniture/platform/domain';
import { addDays, today } from './calendar';
import { HandoverBookings, placeOf, slotPayload } from './handover-bookings';
import type { HandoverFollowUp, HandoverRecord, LocationRecord } from './handover-records';
import { calendar, type CalendarEvent } from './ical';
import { LinkSecrets, secretDigest } from './link-secrets';
import { authorOf, SYSTEM_AUTHOR } from './notes';
import type { Pickups } from './pickups';
import type { ApplicationRecord } from './records';
import { changeStatus, lotName } from './status-changes';

/** What the day plan and a donor pickup need of donations (the catalog, at request time). */
export interface DonationContactsSource {
  contacts(ids: number[]): Promise<DonationContacts['donations']>;
}

export interface HandoversDeps {
  bookings: HandoverBookings;
  pickups: Pickups;
  donations: DonationContactsSource;
  /** a booked slot without an outcome this long after its end is missed */
  missedGraceMinutes: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 3600_000;
/** a follow-up younger than this may still be running in the call that wrote it */
const FOLLOW_UP_AFTER_MS = 60_000;
/** the staff slot list's default range */
const SLOT_LIST_DAYS = 14;

const germanTime = (d: Date, timeZone: string) =>
  new Intl.DateTimeFormat('de-DE', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(d);

const kindDe: Record<SlotKind, string> = {
  pickup: 'Abholung',
  delivery: 'Lieferung',
  donor_pickup: 'Spendenabholung',
};
const kindUk: Record<SlotKind, string> = {
  pickup: 'Самовивіз',
  delivery: 'Доставка',
  donor_pickup: 'Вивезення пожертви',
};

/** Equal secrets, in constant time. */
function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The handover (issue 29): staff keep locations and slots; an approved family books, moves or
 * gives back its slot through its personal link; staff book donor pickups; the day plan; the
 * outcome of a stop closes the loop: done completes the application (the catalog marks the lot
 * taken) or collects the donation (the catalog, on handover.closed), absent lets the pickup
 * lapse (the lot goes to the next family); a slot that passed without an outcome is missed and
 * marks the pickup overdue. What an outcome does to the application is recorded with the outcome
 * (`follow_up`) and retried by the job until done, so a crash in between loses nothing.
 */
export class Handovers {
  constructor(private readonly deps: HandoversDeps) {}

  private get b() {
    return this.deps.bookings;
  }
  private get repo() {
    return this.deps.bookings.deps.handovers;
  }
  private get apps() {
    return this.deps.bookings.deps.applications;
  }
  private get tz() {
    return this.deps.bookings.deps.calendar.timeZone;
  }

  // ---- locations (staff) --------------------------------------------------------------------

  private feedUrl(l: LocationRecord): string {
    const key = this.b.deps.links.feedKey(l.feed_seed);
    return `${this.b.deps.publicBaseUrl}/api/v1/locations/${l.id}/calendar.ics?key=${key}`;
  }

  private locationAnswer(l: LocationRecord): LocationAnswer {
    return {
      id: l.id,
      name: l.name,
      address: l.address,
      city: l.city,
      notes: l.notes,
      active: l.active,
      calendar_url: this.feedUrl(l),
      created_at: l.created_at.toISOString(),
    };
  }

  async createLocation(input: LocationCreate): Promise<LocationAnswer> {
    const feedSeed = LinkSecrets.newSeed();
    const created = await this.repo.insertLocation({
      ...input,
      active: true,
      feed_seed: feedSeed,
      feed_key_hashes: [secretDigest(this.b.deps.links.feedKey(feedSeed))],
    });
    return this.locationAnswer(created);
  }

  async listLocations(): Promise<{ locations: LocationAnswer[] }> {
    return { locations: (await this.repo.listLocations()).map((l) => this.locationAnswer(l)) };
  }

  async patchLocation(id: number, input: LocationPatch): Promise<LocationAnswer> {
    const set = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    const updated = await this.repo.updateLocation(id, set);
    if (!updated) throw new AppError('LOCATION_NOT_FOUND');
    return this.locationAnswer(updated);
  }

  /**
   * Bearer secrets stored in clear before issue 43 become digests, once at start: a family's
   * booking link keeps working (it cannot be shown again); a location's feed gets a new key
   * (shown to staff) and keeps accepting the old one, so subscribed calendars go on.
   */
  async hashClearSecrets(): Promise<{ links: number; feeds: number }> {
    const links = await this.apps.hashClearHandoverTokens(secretDigest);
    const feeds = await this.repo.clearFeedKeys();
    for (const { id, key } of feeds) {
      const seed = LinkSecrets.newSeed();
      const hashes = [secretDigest(this.b.deps.links.feedKey(seed)), secretDigest(key)];
      await this.repo.replaceClearFeedKey(id, key, seed, hashes);
    }
    return { links, feeds: feeds.length };
  }

  private async requireLocation(id: number): Promise<LocationRecord> {
    const location = await this.repo.findLocation(id);
    if (!location) throw new AppError('LOCATION_NOT_FOUND');
    return location;
  }

  /**
   * GET /locations/{id}/calendar.ics?key=: the location's stops from a week back on, for staff
   * calendars. No family is named: the kind, the lot and the application or donation number.
   */
  async locationFeed(id: number, key: string): Promise<string> {
    const location = await this.repo.findLocation(id);
    // a wrong key says no more than an unknown location
    const digest = secretDigest(key);
    // every accepted digest is compared, in constant time
    const known = (location?.feed_key_hashes ?? []).reduce(
      (found, h) => sameSecret(h, digest) || found,
      false,
    );
    if (!location || !known) throw new AppError('LOCATION_NOT_FOUND');
    const from = new Date(this.b.now().getTime() - 7 * DAY_MS);
    const stops = await this.repo.ofLocationFrom(id, from);
    const appIds = stops.flatMap((h) => (h.application_id !== null ? [h.application_id] : []));
    const apps = new Map((await this.apps.findMany(appIds)).map((a) => [a.id, a]));
    const lots = await this.b.deps.lots.getMany([
      ...new Set([...apps.values()].map((a) => a.lot_id)),
    ]);
    const events: CalendarEvent[] = stops.map((h) => {
      const app = h.application_id !== null ? apps.get(h.application_id) : undefined;
      const lot = app
        ? `${lotName(lots.get(app.lot_id) ?? null, app).de} (Lot #${app.lot_id})`
        : '';
      const who =
        h.application_id !== null
          ? `Familie/Bewerbung #${h.application_id}`
          : `Spende #${h.donation_id}`;
      return {
        uid: `handover-${h.id}@moebelbruecke`,
        start: h.starts_at,
        end: h.ends_at,
        summary: [kindDe[h.kind], who, lot].filter(Boolean).join(' · '),
        location: [location.name, location.address, location.city].join(', '),
        description: `Status: ${HandoverStatusLabels[h.status].de}`,
        cancelled: h.status === 'cancelled',
        sequence: Math.floor(h.updated_at.getTime() / 1000),
      };
    });
    return calendar({ name: `Möbelbrücke: ${location.name}`, events, now: this.b.now() });
  }

  // ---- slots (staff) ------------------------------------------------------------------------

  async createSlot(input: SlotCreate): Promise<SlotAnswer> {
    await this.requireLocation(input.location_id);
    const starts = new Date(input.starts_at);
    const slot = await this.repo.insertSlot({
      location_id: input.location_id,
      kind: input.kind,
      starts_at: starts,
      ends_at: new Date(input.ends_at),
      day: localDay(starts, this.tz),
      capacity: input.capacity,
    });
    return HandoverBookings.slotAnswer(slot);
  }

  /** POST /slots/pattern: a slot on each chosen weekday of the range, local times. */
  async createPattern(input: SlotPattern): Promise<{ slots: SlotAnswer[] }> {
    await this.requireLocation(input.location_id);
    const days: string[] = [];
    for (let day = input.from; day <= input.to; day = addDays(day, 1)) {
      // 1 = Monday … 7 = Sunday (getUTCDay of the day's date: 0 = Sunday)
      const weekday = new Date(`${day}T12:00:00Z`).getUTCDay() || 7;
      if (input.weekdays.includes(weekday)) days.push(day);
      if (days.length > Limits.slotPatternMax) break;
    }
    if (days.length > Limits.slotPatternMax) {
      let count = 0;
      for (let day = input.from; day <= input.to; day = addDays(day, 1))
        if (input.weekdays.includes(new Date(`${day}T12:00:00Z`).getUTCDay() || 7)) count++;
      throw new AppError('SLOT_PATTERN_TOO_MANY', {
        params: { count, max: Limits.slotPatternMax },
      });
    }
    const slots: SlotAnswer[] = [];
    for (const day of days) {
      const slot = await this.repo.insertSlot({
        location_id: input.location_id,
        kind: input.kind,
        starts_at: localInstant(day, input.start_time, this.tz),
        ends_at: localInstant(day, input.end_time, this.tz),
        day,
        capacity: input.capacity,
      });
      slots.push(HandoverBookings.slotAnswer(slot));
    }
    return { slots };
  }

  async listSlots(q: {
    from?: string;
    to?: string;
    location_id?: number;
    kind?: SlotKind;
  }): Promise<{ slots: SlotAnswer[] }> {
    const from = q.from
      ? rangeStart(q.from, this.tz)
      : rangeStart(today(this.b.deps.calendar), this.tz);
    const to = q.to ? rangeEnd(q.to, this.tz) : new Date(from.getTime() + SLOT_LIST_DAYS * DAY_MS);
    const slots = await this.repo.listSlots({
      from,
      to,
      location_id: q.location_id,
      kinds: q.kind ? [q.kind] : undefined,
    });
    return { slots: slots.map(HandoverBookings.slotAnswer) };
  }

  async deleteSlot(id: number): Promise<void> {
    if (await this.repo.removeSlot(id)) return;
    const slot = await this.repo.findSlot(id);
    if (!slot) throw new AppError('SLOT_NOT_FOUND');
    throw new AppError('SLOT_BOOKED', { params: { booked: slot.booked } });
  }

  // ---- the family, by its token ---------------------------------------------------------------

  /** The approved application of a token; anything else is 404 and says nothing more. */
  private async approvedOf(token: string): Promise<ApplicationRecord> {
    const app = await this.apps.findByHandoverTokenHash(secretDigest(token));
    if (!app || app.status !== 'approved') throw new AppError('HANDOVER_NOT_FOUND');
    return app;
  }

  /** The kinds a family may book: pickup, and delivery when it asked for delivery help. */
  private kindsFor(app: ApplicationRecord): SlotKind[] {
    return app.needs_delivery_help ? ['pickup', 'delivery'] : ['pickup'];
  }

  /** The end of the family's pickup date (its slots start before it). */
  private lastMoment(app: ApplicationRecord): Date {
    return app.pickup_by
      ? rangeEnd(app.pickup_by, this.tz)
      : new Date(this.b.now().getTime() + 30 * DAY_MS);
  }

  /** The earliest start a family may still book (the change window from now). */
  private firstMoment(): Date {
    return new Date(this.b.now().getTime() + this.b.deps.changeHours * 3600_000);
  }

  async familyView(token: string): Promise<HandoverFamilyAnswer> {
    const app = await this.approvedOf(token);
    const [booked, lot, slots, locations] = await Promise.all([
      this.repo.bookedOf({ application_id: app.id }),
      this.b.deps.lots.get(app.lot_id),
      this.repo.listSlots({
        from: this.firstMoment(),
        to: this.lastMoment(app),
        kinds: this.kindsFor(app),
        freeOnly: true,
      }),
      this.repo.listLocations(),
    ]);
    const active = new Map(locations.filter((l) => l.active).map((l) => [l.id, l]));
    return {
      application_id: app.id,
      lot: { id: app.lot_id, name: lotName(lot, app) },
      pickup_by: app.pickup_by,
      booking: await this.b.bookingOf(booked),
      slots: slots
        .filter((s) => active.has(s.location_id) && s.id !== booked?.slot_id)
        .map((s) => ({
          id: s.id,
          kind: s.kind,
          starts_at: s.starts_at.toISOString(),
          ends_at: s.ends_at.toISOString(),
          location: placeOf(active.get(s.location_id)!),
          free: s.free,
        })),
      language: app.language,
    };
  }

  /**
   * POST /handovers/{token}/booking: books the slot, or moves the booking there. The new place
   * is claimed first (a guarded decrement: never more bookings than places), then the booking
   * written; only after that the old place is given back. Any failure in between gives the new
   * place back.
   */
  async book(token: string, slotId: number): Promise<FamilyBooking> {
    const app = await this.approvedOf(token);
    const slot = await this.repo.findSlot(slotId);
    if (!slot) throw new AppError('SLOT_NOT_FOUND');
    const current = await this.repo.bookedOf({ application_id: app.id });
    if (current?.slot_id === slot.id) return (await this.b.bookingOf(current))!;
    // a booking inside the change window stays as it is, whatever was asked for
    if (current) this.b.checkChangeable(current);
    const location = await this.repo.findLocation(slot.location_id);
    const offered =
      this.kindsFor(app).includes(slot.kind) &&
      slot.starts_at >= this.firstMoment() &&
      slot.starts_at < this.lastMoment(app) &&
      location?.active === true;
    if (!offered) throw new AppError('SLOT_NOT_OFFERED');

    // the place is taken by the booking's own write (handover-seats.ts)
    const family = await this.b.familyOf(app);
    const events = (h: HandoverRecord): DomainEvent[] => [
      createEvent(Events.HandoverBooked, {
        ...slotPayload(h, location),
        moved_from_slot_id: current ? current.slot_id : null,
        by: 'family',
        family,
      }),
    ];
    const booked = current
      ? await this.repo.moveHandover(current, slot, 'family', events)
      : await this.repo.insertHandover(
          { application_id: app.id, donation_id: null, by: 'family', position: null, slot },
          events,
        );
    if (booked === 'full') throw new AppError('SLOT_FULL');
    // the family's own other request changed its booking at the same moment
    if (!booked) throw new AppError('CONFLICT');
    return (await this.b.bookingOf(booked))!;
  }

  /** DELETE /handovers/{token}/booking: the family gives its slot back (nothing booked: done). */
  async cancelBooking(token: string): Promise<void> {
    const app = await this.approvedOf(token);
    const current = await this.repo.bookedOf({ application_id: app.id });
    if (!current) return;
    this.b.checkChangeable(current);
    await this.b.cancel(current, app, 'family', null);
  }

  /** GET /handovers/{token}/calendar.ics: the family's booking as an event, in its language. */
  async familyCalendar(token: string): Promise<string> {
    const app = await this.approvedOf(token);
    const current = await this.repo.bookedOf({ application_id: app.id });
    if (!current) throw new AppError('HANDOVER_NOT_FOUND');
    const [location, lot] = await Promise.all([
      this.repo.findLocation(current.location_id),
      this.b.deps.lots.get(app.lot_id),
    ]);
    const name = lotName(lot, app)[app.language] || lotName(lot, app).de;
    const kind = (app.language === 'uk' ? kindUk : kindDe)[current.kind];
    const place = placeOf(location);
    const where =
      current.kind === 'delivery'
        ? `${app.applicant_address}, ${app.applicant_city}`
        : [place.name, place.address, place.city].filter(Boolean).join(', ');
    return calendar({
      name: 'Möbelbrücke',
      now: this.b.now(),
      events: [
        {
          uid: `handover-${current.id}@moebelbruecke`,
          start: current.starts_at,
          end: current.ends_at,
          summary: `Möbelbrücke: ${kind} – ${name}`,
          location: where,
          description: this.b.url(token),
          url: this.b.url(token),
          sequence: Math.floor(current.updated_at.getTime() / 1000),
        },
      ],
    });
  }

  // ---- staff: donor pickups, the day plan, outcomes -----------------------------------------

  /** One donation's contacts from the catalog (503 while it cannot be asked). */
  private async donation(id: number) {
    const [found] = await this.deps.donations.contacts([id]);
    if (!found) throw new AppError('DONATION_NOT_FOUND');
    return found;
  }

  /** POST /handovers/: a donor pickup on a donor_pickup slot for an accepted donation. */
  async donorPickup(actor: Actor, input: { donation_id: number; slot_id: number }) {
    const slot = await this.repo.findSlot(input.slot_id);
    if (!slot) throw new AppError('SLOT_NOT_FOUND');
    if (slot.kind !== 'donor_pickup' || slot.ends_at <= this.b.now())
      throw new AppError('SLOT_NOT_OFFERED');
    const donation = await this.donation(input.donation_id);
    const refuse = () =>
      new AppError('DONATION_PICKUP_NOT_ALLOWED', {
        params: { status: DonationStatusLabels[donation.status] },
      });
    if (donation.status !== 'accepted') throw refuse();
    if (await this.repo.bookedOf({ donation_id: donation.id })) throw refuse();
    const location = await this.repo.findLocation(slot.location_id);
    const booked = await this.repo.insertHandover(
      { application_id: null, donation_id: donation.id, by: 'staff', position: null, slot },
      (h) => [
        createEvent(
          Events.HandoverBooked,
          {
            ...slotPayload(h, location),
            moved_from_slot_id: null,
            by: 'staff',
            family: null,
          },
          actor,
        ),
      ],
    );
    if (booked === 'full') throw new AppError('SLOT_FULL');
    if (!booked) throw refuse();
    return (await this.present([booked]))[0]!;
  }

  /** GET /handovers/?date=: the day's stops in the team's order. */
  async dayPlan(day: string): Promise<{ handovers: DayPlanStop[] }> {
    return { handovers: await this.present(await this.repo.ofDay(day)) };
  }

  /** PUT /handovers/order: the day's stops in this order (stops left out follow by time). */
  async order(day: string, ids: number[]): Promise<{ handovers: DayPlanStop[] }> {
    await this.repo.setPositions(day, [...new Set(ids)]);
    return this.dayPlan(day);
  }

  /**
   * The stops as the day plan shows them: the family's name, phone and (for a delivery) address
   * read from its application now, a donor's from the catalog now (a catalog that does not
   * answer leaves them blank: the plan still works); nothing of either is stored here.
   */
  private async present(stops: HandoverRecord[]): Promise<DayPlanStop[]> {
    const appIds = stops.flatMap((h) => (h.application_id !== null ? [h.application_id] : []));
    const donationIds = stops.flatMap((h) => (h.donation_id !== null ? [h.donation_id] : []));
    const [apps, donations, locations] = await Promise.all([
      this.apps.findMany(appIds),
      donationIds.length > 0
        ? this.deps.donations.contacts([...new Set(donationIds)]).catch((err: unknown) => {
            if (!(err instanceof DependencyUnavailableError)) throw err;
            this.b.deps.logger.warn({ err: err.message }, 'day plan without the donors');
            return [];
          })
        : [],
      this.repo.listLocations(),
    ]);
    const appById = new Map(apps.map((a) => [a.id, a]));
    const donationById = new Map(donations.map((d) => [d.id, d]));
    const locationById = new Map(locations.map((l) => [l.id, l]));
    const lots = await this.b.deps.lots.getMany([...new Set(apps.map((a) => a.lot_id))]);
    const sorted = [...stops].sort(
      (x, y) =>
        (x.position ?? Number.MAX_SAFE_INTEGER) - (y.position ?? Number.MAX_SAFE_INTEGER) ||
        x.starts_at.getTime() - y.starts_at.getTime() ||
        x.id - y.id,
    );
    return sorted.map((h, i) => {
      const app = h.application_id !== null ? appById.get(h.application_id) : undefined;
      const donation = h.donation_id !== null ? donationById.get(h.donation_id) : undefined;
      const location = locationById.get(h.location_id) ?? null;
      const goes = h.kind !== 'pickup';
      const family = app
        ? {
            name: app.applicant_name,
            phone: app.applicant_phone,
            address: goes ? app.applicant_address : null,
            city: goes ? app.applicant_city : null,
          }
        : donation
          ? {
              name: donation.donor_name,
              phone: donation.donor_phone,
              address: donation.address,
              city: donation.city,
            }
          : { name: '', phone: '', address: null, city: null };
      return {
        id: h.id,
        application_id: h.application_id,
        donation_id: h.donation_id,
        lot: app ? { id: app.lot_id, name: lotName(lots.get(app.lot_id) ?? null, app) } : null,
        kind: h.kind,
        slot_id: h.slot_id,
        starts_at: h.starts_at.toISOString(),
        ends_at: h.ends_at.toISOString(),
        location: { id: h.location_id, ...placeOf(location) },
        family,
        status: h.status,
        position: i + 1,
        note: h.note,
        item_check: h.item_check && {
          code: h.item_check.code,
          scanned_lot_id: h.item_check.scanned_lot_id,
          match: h.item_check.match,
          confirmed: h.item_check.confirmed,
        },
      };
    });
  }

  /**
   * PATCH /handovers/{id}: done or absent. The stop is closed first (with handover.closed and
   * what it still has to do to the application), then that is done: done completes the
   * application through the status change (the catalog marks the lot taken; a donor pickup's
   * donation is collected by the catalog on handover.closed), absent lets the pickup lapse.
   */
  async outcome(actor: Actor, id: number, input: HandoverOutcomeInput): Promise<DayPlanStop> {
    const h = await this.repo.findHandover(id);
    if (!h) throw new AppError('HANDOVER_STOP_NOT_FOUND');
    const closed = await this.close(h, input.outcome, input.note, actor);
    if (!closed) {
      const now = (await this.repo.findHandover(id)) ?? h;
      throw new AppError('HANDOVER_CLOSED', {
        params: { status: HandoverStatusLabels[now.status] },
      });
    }
    await this.followUp(closed);
    return (await this.present([(await this.repo.findHandover(id)) ?? closed]))[0]!;
  }

  /**
   * The item about to be handed over, scanned or typed (issue 45): the booked lot's code is
   * what the lot read model learnt from the catalog's events (docs/decisions.md "The
   * warehouse"). Every scan is recorded on the stop and in the activity log; another lot's code
   * answers WRONG_ITEM (naming both lots), no lot's UNKNOWN_ITEM, until the driver confirms it.
   */
  async scanItem(actor: Actor, id: number, input: HandoverScan): Promise<HandoverScanAnswer> {
    const h = await this.repo.findHandover(id);
    if (!h) throw new AppError('HANDOVER_STOP_NOT_FOUND');
    if (h.application_id === null) throw new AppError('HANDOVER_NO_LOT');
    const closed = () =>
      new AppError('HANDOVER_CLOSED', { params: { status: HandoverStatusLabels[h.status] } });
    if (h.status !== 'booked') throw closed();
    const app = await this.apps.findById(h.application_id);
    if (!app) throw new AppError('HANDOVER_STOP_NOT_FOUND');
    const normalized = normalizeLabelCode(input.code);
    const code = normalized ?? input.code.trim().slice(0, 40);
    const [booked, scanned] = await Promise.all([
      this.b.deps.lots.get(app.lot_id),
      normalized ? this.b.deps.lots.byLabelCode(normalized) : null,
    ]);
    const lot = { id: app.lot_id, name: lotName(booked, app) };
    const match =
      scanned?.id === app.lot_id || (normalized !== null && booked?.label_code === normalized);
    const confirmed = !match && input.confirm === true;
    const scannedLot = scanned && !match ? { id: scanned.id, name: scanned.name } : null;
    const recorded = await this.repo.recordItemCheck(
      h,
      {
        code,
        scanned_lot_id: match ? app.lot_id : (scanned?.id ?? null),
        match,
        confirmed,
        at: new Date(),
        by_user_id: actor.id,
      },
      [
        createEvent(
          Events.HandoverItemChecked,
          {
            handover_id: h.id,
            application_id: h.application_id,
            lot,
            code,
            scanned_lot: match ? lot : scannedLot,
            match,
            confirmed,
          },
          actor,
        ),
      ],
    );
    if (!recorded) throw closed();
    if (match || confirmed) return { match, lot, confirmed };
    const bookedParams = { booked_id: lot.id, booked_name: lot.name.de };
    const extra = { booked_lot: lot, scanned_lot: scannedLot, scanned_code: code };
    throw scannedLot
      ? new AppError('WRONG_ITEM', {
          params: { ...bookedParams, scanned_id: scannedLot.id, scanned_name: scannedLot.name.de },
          extra,
        })
      : new AppError('UNKNOWN_ITEM', { params: { ...bookedParams, code }, extra });
  }

  /** Closes a booked stop with its outcome and event, and gives its place back. */
  private async close(
    h: HandoverRecord,
    outcome: 'done' | 'absent' | 'missed',
    note: string | null,
    actor: Actor | null,
  ): Promise<HandoverRecord | null> {
    if (h.status !== 'booked') return null;
    const followUp: HandoverFollowUp | null =
      h.application_id === null
        ? null
        : outcome === 'done'
          ? 'complete'
          : outcome === 'absent'
            ? 'lapse'
            : 'overdue';
    const location = await this.repo.findLocation(h.location_id);
    const closed = await this.repo.endHandover(
      h,
      outcome,
      { note, follow_up: followUp, closed_by: actor },
      (after) => [
        createEvent(
          Events.HandoverClosed,
          { ...slotPayload(after, location), outcome, note },
          actor,
        ),
      ],
    );
    return closed;
  }

  /** What a closed stop does to its application; cleared once done or no longer possible. */
  private async followUp(h: HandoverRecord): Promise<void> {
    if (!h.follow_up || h.application_id === null) return;
    const app = await this.apps.findById(h.application_id);
    if (app?.status === 'approved') {
      const actor = h.closed_by;
      const when = germanTime(h.starts_at, this.tz);
      const deps = {
        applications: this.apps,
        lots: this.b.deps.lots,
        handoverLinks: this.b,
      };
      if (h.follow_up === 'complete') {
        await changeStatus(deps, app, 'completed', {
          reason: 'staff',
          note: `Übergabe erledigt (Termin ${when})${h.note ? `: ${h.note}` : ''}`,
          author: actor ? authorOf(actor) : SYSTEM_AUTHOR,
          actor,
        });
      } else if (h.follow_up === 'lapse') {
        await this.deps.pickups
          .lapse(actor, app, {
            note: `Nicht angetroffen (Termin ${when})${h.note ? `: ${h.note}` : ''}. Das Lot geht an die nächste Familie.`,
          })
          .catch((err: unknown) => {
            // the application moved on meanwhile: nothing left to do
            if (!(err instanceof AppError)) throw err;
          });
      } else {
        await this.deps.pickups.markOverdue(app);
      }
    }
    await this.repo.clearFollowUp(h.id, h.follow_up);
  }

  // ---- the job ------------------------------------------------------------------------------

  /**
   * The scheduled look (one replica at a time): a reminder the day before each booked slot
   * (once: a guarded mark), booked slots that ended more than the grace ago without an outcome
   * become missed, bookings of applications that are no longer approved are given back (a crash
   * between the status change and its cancellation), and unfinished follow-ups are done.
   */
  /** One pass of the handovers job; `held` is its lease, asked before each write. */
  async check(held: () => boolean = () => true): Promise<{
    reminded: number;
    missed: number;
    cancelled: number;
    followed: number;
  }> {
    const now = this.b.now();
    const calendarDeps = this.b.deps.calendar;
    let reminded = 0;
    let missed = 0;
    let cancelled = 0;
    let followed = 0;

    const tomorrowEnds = rangeEnd(addDays(today(calendarDeps), 1), this.tz);
    for (const h of await this.repo.bookedBefore('starts_at', tomorrowEnds)) {
      if (h.reminded_at || h.starts_at <= now) continue;
      if (!held()) return { reminded, missed, cancelled, followed };
      const app = h.application_id !== null ? await this.apps.findById(h.application_id) : null;
      const [location, family] = await Promise.all([
        this.repo.findLocation(h.location_id),
        this.b.familyOf(app),
      ]);
      const event = createEvent(Events.HandoverReminderDue, {
        ...slotPayload(h, location),
        family,
      });
      if (await this.repo.markReminded(h, [event])) reminded++;
    }

    const cutoff = new Date(now.getTime() - this.deps.missedGraceMinutes * MINUTE_MS);
    for (const h of await this.repo.bookedBefore('ends_at', cutoff)) {
      if (!held()) return { reminded, missed, cancelled, followed };
      const closed = await this.close(h, 'missed', null, null);
      if (!closed) continue;
      missed++;
      await this.followUp(closed);
    }

    const booked = await this.repo.bookedOfApplications();
    const apps = new Map(
      (await this.apps.findMany(booked.map((h) => h.application_id!))).map((a) => [a.id, a]),
    );
    for (const h of booked) {
      const app = apps.get(h.application_id!);
      if (app?.status === 'approved') continue;
      if (!held()) return { reminded, missed, cancelled, followed };
      if (await this.b.cancel(h, app ?? null, 'system', null)) cancelled++;
    }

    // by the process's clock: the age of a write, not a business time
    const stale = new Date(Date.now() - FOLLOW_UP_AFTER_MS);
    for (const h of await this.repo.pendingFollowUps(stale)) {
      if (!held()) return { reminded, missed, cancelled, followed };
      await this.followUp(h);
      followed++;
    }
    return { reminded, missed, cancelled, followed };
  }

  // ---- data protection ----------------------------------------------------------------------

  /** The handovers of these applications as stored (the privacy lookup). */
  storedOf(applicationIds: number[]): Promise<Record<string, unknown>[]> {
    return this.repo.storedOfApplications(applicationIds);
  }

  /** An erased application's outcome notes go with it. */
  eraseOf(applicationId: number): Promise<void> {
    return this.repo.clearNotesOf(applicationId);
  }

  /** Outcome notes of stops closed before `before` are cleared (the retention job). */
  async applyRetention(before: Date): Promise<number> {
    let cleared = 0;
    for (;;) {
      const n = await this.repo.clearNotesClosedBefore(before);
      cleared += n;
      if (n < 500) return cleared;
    }
  }
}
