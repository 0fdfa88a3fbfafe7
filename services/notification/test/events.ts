import {
  Events,
  type ApplicationChangeReasons,
  type Actor,
  type ApplicationStatus,
  type DomainEvent,
  type DonationStatus,
  type Language,
  type SlotKind,
} from '@furniture/contracts';
import { createEvent } from '@furniture/platform';
import { uniqueName } from '@furniture/platform/testing';
import { ADMIN, VOLUNTEER } from './harness';

export const adminActor: Actor = {
  id: ADMIN.id,
  name: ADMIN.name,
  email: ADMIN.email,
  role: 'admin',
};
export const volunteerActor: Actor = {
  id: VOLUNTEER.id,
  name: VOLUNTEER.name,
  email: VOLUNTEER.email,
  role: 'volunteer',
};

let nextId = 1000;
/** An id no other test of this process uses. */
export function freshId(): number {
  nextId += 1;
  return nextId;
}

/** A recipient no other test uses. */
export function freshAddress(prefix = 'family'): string {
  return `${uniqueName(prefix)}@example.org`;
}

/** The same event as if it had happened at another time. */
export function at<E extends DomainEvent>(event: E, occurredAt: string): E {
  return { ...event, occurredAt };
}

export interface Family {
  applicationId: number;
  lotId: number;
  email: string | null;
  language: Language;
  name: string;
  lotName: { de: string; uk: string };
}

export function family(overrides: Partial<Family> = {}): Family {
  return {
    applicationId: freshId(),
    lotId: freshId(),
    email: freshAddress(),
    language: 'de',
    name: 'Olena Kovalenko',
    lotName: { de: 'Ecksofa grau', uk: 'Кутовий диван сірий' },
    ...overrides,
  };
}

export function submitted(f: Family, queuePosition = 1) {
  return createEvent(Events.ApplicationSubmitted, {
    application_id: f.applicationId,
    lot_id: f.lotId,
    status: 'pending',
    applicant_name: f.name,
    applicant_email: f.email,
    language: f.language,
    lot_name: f.lotName,
    queue_position: queuePosition,
  });
}

type StatusEvent =
  | typeof Events.ApplicationApproved
  | typeof Events.ApplicationRejected
  | typeof Events.ApplicationCompleted
  | typeof Events.ApplicationReservationCancelled
  | typeof Events.ApplicationReconsidered;

const transitions: Record<StatusEvent, [ApplicationStatus, ApplicationStatus]> = {
  [Events.ApplicationApproved]: ['pending', 'approved'],
  [Events.ApplicationRejected]: ['pending', 'rejected'],
  [Events.ApplicationCompleted]: ['approved', 'completed'],
  [Events.ApplicationReservationCancelled]: ['approved', 'pending'],
  [Events.ApplicationReconsidered]: ['rejected', 'pending'],
};

export function statusChange(
  name: StatusEvent,
  f: Family,
  opts: {
    reason?: (typeof ApplicationChangeReasons)[number];
    note?: string | null;
    actor?: Actor | null;
    /** an approval's pickup date */
    pickupBy?: string;
    /** an approval's personal booking link (issue 29) */
    handoverUrl?: string;
  } = {},
) {
  const [oldStatus, newStatus] = transitions[name];
  return createEvent(
    name,
    {
      application_id: f.applicationId,
      lot_id: f.lotId,
      old_status: oldStatus,
      new_status: newStatus,
      reason: opts.reason ?? 'staff',
      note: opts.note ?? null,
      applicant_name: f.name,
      applicant_email: f.email,
      language: f.language,
      lot_name: f.lotName,
      ...(opts.pickupBy ? { pickup_by: opts.pickupBy } : {}),
      ...(opts.handoverUrl ? { handover_url: opts.handoverUrl } : {}),
    },
    opts.actor === undefined ? adminActor : opts.actor,
  );
}

/** What a mail about an application's pickup needs (the family fields of the events). */
export function familyFields(f: Family) {
  return {
    application_id: f.applicationId,
    lot_id: f.lotId,
    applicant_name: f.name,
    applicant_email: f.email,
    language: f.language,
    lot_name: f.lotName,
  };
}

export interface Donor {
  donationId: number;
  email: string | null;
  language: Language;
  name: string;
  itemCount: number;
}

/** A donor's offer no other test uses. */
export function donor(overrides: Partial<Donor> = {}): Donor {
  return {
    donationId: freshId(),
    email: freshAddress('donor'),
    language: 'de',
    name: 'Jana Weber',
    itemCount: 2,
    ...overrides,
  };
}

const donorFields = (d: Donor) => ({
  donation_id: d.donationId,
  donor_name: d.name,
  donor_email: d.email,
  language: d.language,
});

export function donationSubmitted(
  d: Donor,
  opts: { categoryIds?: number[]; availableUntil?: string } = {},
) {
  return createEvent(Events.DonationSubmitted, {
    ...donorFields(d),
    item_count: d.itemCount,
    category_ids: opts.categoryIds ?? Array.from({ length: d.itemCount }, () => 1),
    available_until: opts.availableUntil ?? '2026-12-31',
  });
}

/** Staff changed the donation's status (the expiry job when `to` is expired). */
export function donationStatusChanged(
  d: Donor,
  from: DonationStatus,
  to: DonationStatus,
  opts: { reason?: string | null; note?: string | null } = {},
) {
  const expired = to === 'expired';
  return createEvent(
    Events.DonationStatusChanged,
    {
      ...donorFields(d),
      old_status: from,
      new_status: to,
      cause: expired ? 'expired' : 'staff',
      reason: opts.reason ?? null,
      note: opts.note ?? null,
      item_count: d.itemCount,
    },
    expired ? null : adminActor,
  );
}

/** Staff made a lot of one of the donation's items. */
export function donationItemLot(d: Donor, lotId = freshId(), categoryId = 1) {
  return createEvent(
    Events.DonationItemLotCreated,
    {
      donation_id: d.donationId,
      item_id: freshId(),
      lot_id: lotId,
      lot_name: { de: 'Sofa grün', uk: 'Диван зелений' },
      category_id: categoryId,
    },
    adminActor,
  );
}

/** A handover's slot (issue 29): tomorrow 10:00–12:00 in Berlin unless given. */
export interface Slot {
  handoverId: number;
  slotId: number;
  kind: SlotKind;
  startsAt: string;
  endsAt: string;
  location: { name: string; address: string; city: string };
}

export function slot(overrides: Partial<Slot> = {}): Slot {
  return {
    handoverId: freshId(),
    slotId: freshId(),
    kind: 'pickup',
    // Tuesday, 1 December 2026, 10:00–12:00 in Berlin (UTC+1)
    startsAt: '2026-12-01T09:00:00.000Z',
    endsAt: '2026-12-01T11:00:00.000Z',
    location: { name: 'Lager Nord', address: 'Hafenweg 3', city: '13353 Berlin' },
    ...overrides,
  };
}

/** The family's personal link of an application. */
export const handoverUrl = (f: Family) => `https://moebel.example/handover/tok-${f.applicationId}`;

/** The slot fields of a handover event; `f` null: a donor pickup of donation `donationId`. */
function slotFields(s: Slot, f: Family | null, donationId: number | null = null) {
  return {
    handover_id: s.handoverId,
    application_id: f ? f.applicationId : null,
    donation_id: f ? null : donationId,
    kind: s.kind,
    slot_id: s.slotId,
    starts_at: s.startsAt,
    ends_at: s.endsAt,
    location: s.location,
  };
}

/** Who a handover mail goes to (the events' `family`). */
const handoverFamily = (f: Family) => ({
  applicant_name: f.name,
  applicant_email: f.email,
  language: f.language,
  lot_name: f.lotName,
  lot_id: f.lotId,
  handover_url: handoverUrl(f),
});

/** A family booked (or moved to) a slot; `f` null: staff booked a donor pickup. */
export function handoverBooked(
  s: Slot,
  f: Family | null,
  opts: { movedFrom?: number; by?: 'family' | 'staff'; donationId?: number } = {},
) {
  const by = opts.by ?? (f ? 'family' : 'staff');
  return createEvent(
    Events.HandoverBooked,
    {
      ...slotFields(s, f, opts.donationId ?? null),
      moved_from_slot_id: opts.movedFrom ?? null,
      by,
      family: f ? handoverFamily(f) : null,
    },
    by === 'staff' ? adminActor : null,
  );
}

export function handoverCancelled(s: Slot, f: Family, by: 'family' | 'staff' | 'system') {
  return createEvent(
    Events.HandoverCancelled,
    { ...slotFields(s, f), by, family: handoverFamily(f) },
    by === 'staff' ? adminActor : null,
  );
}

export function handoverReminderDue(s: Slot, f: Family) {
  return createEvent(Events.HandoverReminderDue, {
    ...slotFields(s, f),
    family: handoverFamily(f),
  });
}

/** A driver's outcome (`missed`: the slot ended without one, the system's). */
export function handoverClosed(
  s: Slot,
  f: Family | null,
  outcome: 'done' | 'absent' | 'missed',
  opts: { note?: string | null; donationId?: number } = {},
) {
  return createEvent(
    Events.HandoverClosed,
    {
      ...slotFields(s, f, opts.donationId ?? null),
      outcome,
      note: opts.note ?? null,
    },
    outcome === 'missed' ? null : volunteerActor,
  );
}
