import { z } from 'zod';
import {
  ApplicationStatuses,
  DonationStatuses,
  HandoverStatuses,
  PreparedMessages,
  SlotKinds,
  Languages,
  LotStatuses,
  Roles,
  SessionEndReasons,
  WishStatuses,
} from './enums';
import { localizedSchema as localized } from './api/common';
import { photoUrlsSchema } from './api/media';

/**
 * Integration events: past-tense facts, published on one durable topic exchange with the event
 * name as routing key. Each name maps to one zod payload schema; payloads are validated on
 * publish and on consume. Bump `EventVersions[name]` for an incompatible payload change.
 */
export const Events = {
  // auth
  UserLoggedIn: 'user.logged_in',
  UserLoggedOut: 'user.logged_out',
  UserPasswordChanged: 'user.password_changed',
  UserCreated: 'user.created',
  UserUpdated: 'user.updated',
  UserDeleted: 'user.deleted',
  /** partner agencies (issue 44): an admin created or changed (or deactivated) one */
  AgencyCreated: 'agency.created',
  AgencyUpdated: 'agency.updated',
  /** an admin invited a referrer of an agency: the invitee is mailed the personal link */
  ReferrerInvited: 'agency.referrer_invited',
  // catalog
  CategoryCreated: 'category.created',
  CategoryUpdated: 'category.updated',
  CategoryDeleted: 'category.deleted',
  LotCreated: 'lot.created',
  LotUpdated: 'lot.updated',
  LotDeleted: 'lot.deleted',
  LotStatusChanged: 'lot.status_changed',
  LotReserved: 'lot.reserved',
  LotReservationFailed: 'lot.reservation_failed',
  /** staff moved a lot to another storage place, or off every place (issue 45) */
  LotMoved: 'lot.moved',
  /** a lot of an earlier version got its label code (issue 45): read models learn the code */
  LotLabelled: 'lot.labelled',
  /** a donor offered furniture (wave 3) */
  DonationSubmitted: 'donation.submitted',
  /** staff accepted, declined, collected or cancelled a donation, or the expiry job expired it */
  DonationStatusChanged: 'donation.status_changed',
  /** staff made a lot of one of a donation's items (its photos became the lot's) */
  DonationItemLotCreated: 'donation.item_lot_created',
  // applications
  ApplicationSubmitted: 'application.submitted',
  /** staff asked to approve: tentative until the catalog has reserved the lot */
  ApplicationApprovalRequested: 'application.approval_requested',
  /** the catalog could not reserve the lot: the request ended, nothing was approved */
  ApplicationApprovalFailed: 'application.approval_failed',
  /** a reservation made for a request that had already ended: the catalog gives the lot back */
  ApplicationApprovalWithdrawn: 'application.approval_withdrawn',
  /** final: the lot is reserved for this application */
  ApplicationApproved: 'application.approved',
  ApplicationRejected: 'application.rejected',
  ApplicationCompleted: 'application.completed',
  ApplicationReservationCancelled: 'application.reservation_cancelled',
  ApplicationReconsidered: 'application.reconsidered',
  ApplicationNoteAdded: 'application.note_added',
  /** staff moved an approved application's pickup date */
  ApplicationPickupExtended: 'application.pickup_extended',
  /** the pickup date is near: the family is reminded */
  ApplicationPickupReminderDue: 'application.pickup_reminder_due',
  /** the pickup date passed without the lot being handed over */
  ApplicationPickupOverdue: 'application.pickup_overdue',
  /** a lot came free again and its queue's first family is next (or was approved at once) */
  ApplicationNextInQueue: 'application.next_in_queue',
  /** handover (wave 3): a slot booked or moved (by the family, or a donor pickup by staff) */
  HandoverBooked: 'handover.booked',
  /** a booking given back (by the family, staff, or because the application ended) */
  HandoverCancelled: 'handover.cancelled',
  /** the booked slot is tomorrow: the family is reminded in its language and channel */
  HandoverReminderDue: 'handover.reminder_due',
  /** a stop's outcome: done, absent, or missed (its slot ended without an outcome) */
  HandoverClosed: 'handover.closed',
  /** the driver scanned the item at a handover: the booked lot, or another one (issue 45) */
  HandoverItemChecked: 'handover.item_checked',
  WishCreated: 'wish.created',
  WishStatusChanged: 'wish.status_changed',
  /** staff told a wisher about a lot that matches the wish */
  WishNotified: 'wish.notified',
  /** staff asked to send a family a prepared message by WhatsApp or SMS (issue 30) */
  MessageRequested: 'message.requested',
  /**
   * a family's personal data was erased (on request, or by the retention job): every service
   * removes what it keeps of these applications and wishes; the event carries ids only
   */
  PersonalDataErased: 'privacy.personal_data_erased',
  // media
  PhotoUploaded: 'photo.uploaded',
  PhotoDeleted: 'photo.deleted',
  // activity log entries written by staff clients (POST /activity-logs) need no event
} as const;
export type EventName = (typeof Events)[keyof typeof Events];

export const actorSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(Roles),
});
export type Actor = z.infer<typeof actorSchema>;

/** A partner agency as events tell it (issue 44). */
export const agencySnapshot = z.object({
  id: z.number().int(),
  name: z.string(),
  city: z.string(),
  active: z.boolean(),
});

const categorySnapshot = z.object({
  id: z.number().int(),
  name: localized,
  description: localized,
  icon: z.string(),
  version: z.number().int(),
});
/** What other services keep of a lot in their read models. */
export const lotSnapshotSchema = z.object({
  id: z.number().int(),
  name: localized,
  status: z.enum(LotStatuses),
  category_id: z.number().int(),
  photos: z.array(z.string()),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  /** the lot's label code (issue 45; absent in earlier versions, null until it has one) */
  label_code: z.string().nullable().optional(),
});
export type LotSnapshot = z.infer<typeof lotSnapshotSchema>;

/** A storage place as events name it (issue 45). */
const storagePlaceRef = z.object({
  id: z.number().int(),
  name: z.string(),
  location_id: z.number().int(),
});

/** A lot as a scan names it: its number and its names. */
const lotRef = z.object({ id: z.number().int(), name: localized });

/** Old and new values of the fields an update changed. */
const changes = z.record(z.string(), z.object({ old: z.unknown(), new: z.unknown() }));

/** Why an application changed status without a staff decision on that very application. */
export const ApplicationChangeReasons = [
  'staff',
  /** the lot was reserved for another application of it */
  'competitor_approved',
  /** kept for events of earlier versions (an approval undone after a failed reservation) */
  'reservation_failed',
  'lot_closed',
  'lot_deleted',
  /** the reservation that had rejected it was cancelled: back in the queue at its old place */
  'reservation_cancelled',
  /** the family did not pick the lot up by its pickup date */
  'pickup_lapsed',
  /** issue 44: a referral still pending after REFERRAL_VALID_DAYS closed as expired */
  'referral_expired',
] as const;

/** Why an approval request ended without an approval. */
export const ApprovalFailureReasons = ['not_available', 'not_found'] as const;
export type ApprovalFailureReason = (typeof ApprovalFailureReasons)[number];

/** The application and its lot, in every application event. */
const applicationRef = { application_id: z.number().int(), lot_id: z.number().int() };

/**
 * Where the family's messages go (wave 3, issue 30): WhatsApp to its WhatsApp number, SMS to its
 * phone (or its WhatsApp number). E.164; absent in earlier versions (then no message is sent).
 */
const familyNumbers = {
  applicant_phone: z.string().nullable().optional(),
  applicant_whatsapp: z.string().nullable().optional(),
};

/**
 * The partner agency's referrer who applied for the family (issue 44): told by e-mail, in its
 * language, when the family's application is approved, rejected, booked or handed over.
 */
export const referrerMailSchema = z.object({
  name: z.string(),
  email: z.string(),
  language: z.enum(Languages),
  agency_name: z.string(),
  /** the agency (the impact counts per agency); absent in earlier versions */
  agency_id: z.number().int().optional(),
});

/** Who referred a family (issue 44), as the activity log and the impact counters hear it. */
const referralRef = z.object({
  id: z.number().int(),
  agency: z.object({ id: z.number().int(), name: z.string() }),
  referrer: z.object({ id: z.number().int(), name: z.string() }),
});

/** Who a mail about an application goes to, and about which lot. */
const familyMail = {
  applicant_name: z.string(),
  /** null when the family gave no address: no mail is sent */
  applicant_email: z.string().nullable(),
  language: z.enum(Languages),
  lot_name: localized,
  ...familyNumbers,
  /** issue 44: a referred family's referrer (absent otherwise and in earlier versions) */
  referrer: referrerMailSchema.optional(),
};
/** What a mail about an application needs besides the change itself. */
const familyFields = { ...applicationRef, ...familyMail };

const applicationStatusChange = z.object({
  ...applicationRef,
  old_status: z.enum(ApplicationStatuses),
  new_status: z.enum(ApplicationStatuses),
  reason: z.enum(ApplicationChangeReasons),
  note: z.string().nullable(),
  ...familyMail,
  /** an approval's pickup date (YYYY-MM-DD, the last day); absent in earlier versions */
  pickup_by: z.string().nullable().optional(),
  /** the impact counters (absent in earlier versions): the lot's category, when the family applied */
  category_id: z.number().int().optional(),
  applied_at: z.string().optional(),
  /** completed: the family's first handover (no other completed application of its phone) */
  first_handover: z.boolean().optional(),
  /**
   * approved (wave 3): the family's personal link to book its pickup or delivery slot;
   * absent in earlier versions and where handover is off
   */
  handover_url: z.string().nullable().optional(),
  /** completed (wave 3): when it was approved (the impact's days from approval to handover) */
  approved_at: z.string().nullable().optional(),
  /**
   * rejected: the application held the lot (approved, or its approval under way); only then may
   * the lot be reserved for it. Absent in earlier versions (and in the other events)
   */
  lot_held: z.boolean().optional(),
});
export type ApplicationStatusChange = z.infer<typeof applicationStatusChange>;

/** Who a mail about a donation goes to (the donor; no mail without an address). */
const donorMail = {
  donation_id: z.number().int(),
  donor_name: z.string(),
  donor_email: z.string().nullable(),
  language: z.enum(Languages),
  /** the donor's phone (E.164): WhatsApp, else SMS (issue 30); absent in earlier versions */
  donor_phone: z.string().nullable().optional(),
};

/** A handover's slot as mails and the activity log name it. */
const handoverSlot = {
  handover_id: z.number().int(),
  /** the family's application (null for a donor pickup) */
  application_id: z.number().int().nullable(),
  /** the donation of a donor pickup (null otherwise) */
  donation_id: z.number().int().nullable(),
  kind: z.enum(SlotKinds),
  slot_id: z.number().int(),
  starts_at: z.string(),
  ends_at: z.string(),
  location: z.object({ name: z.string(), address: z.string(), city: z.string() }),
};
/** Who a mail about a family's handover goes to (absent for a donor pickup). */
const handoverMail = z
  .object({
    ...familyMail,
    lot_id: z.number().int(),
    /** the family's personal link (to change or cancel) */
    handover_url: z.string(),
  })
  .nullable();

export const EventPayloads = {
  [Events.UserLoggedIn]: z.object({ user: actorSchema }),
  /**
   * session_id: the session that ended (every service refuses its tokens from then on); reason
   * (absent in earlier versions): the user logged out, the session lapsed (idle or past its
   * absolute age) or a replayed refresh token ended it
   */
  [Events.UserLoggedOut]: z.object({
    user: actorSchema,
    session_id: z.string().optional(),
    reason: z.enum(SessionEndReasons).optional(),
  }),
  [Events.UserPasswordChanged]: z.object({ user: actorSchema }),
  [Events.UserCreated]: z.object({ user: actorSchema }),
  [Events.UserUpdated]: z.object({ user: actorSchema, changes }),
  [Events.UserDeleted]: z.object({ user: actorSchema }),
  [Events.AgencyCreated]: z.object({ agency: agencySnapshot }),
  [Events.AgencyUpdated]: z.object({ agency: agencySnapshot, changes }),
  /**
   * invite_url carries the secret of a single-use link (as handover_url does a family's): only
   * the invitee's mail shows it; the activity log keeps the agency and the address
   */
  [Events.ReferrerInvited]: z.object({
    agency: z.object({ id: z.number().int(), name: z.string() }),
    email: z.string(),
    language: z.enum(Languages),
    invite_url: z.string(),
    expires_at: z.string(),
  }),

  [Events.CategoryCreated]: z.object({ category: categorySnapshot }),
  [Events.CategoryUpdated]: z.object({ category: categorySnapshot, changes }),
  [Events.CategoryDeleted]: z.object({ category: categorySnapshot }),
  [Events.LotCreated]: z.object({ lot: lotSnapshotSchema }),
  [Events.LotUpdated]: z.object({ lot: lotSnapshotSchema, changes }),
  [Events.LotDeleted]: z.object({ lot: lotSnapshotSchema }),
  [Events.LotStatusChanged]: z.object({
    lot: lotSnapshotSchema,
    old_status: z.enum(LotStatuses),
    new_status: z.enum(LotStatuses),
    /** staff: set in the lot form; otherwise the application that caused it */
    cause: z.enum(['staff', 'reservation', 'reservation_cancelled', 'completed', 'pickup_lapsed']),
    application_id: z.number().int().nullable(),
  }),
  [Events.LotReserved]: z.object({
    lot: lotSnapshotSchema,
    application_id: z.number().int(),
  }),
  [Events.LotReservationFailed]: z.object({
    lot_id: z.number().int(),
    application_id: z.number().int(),
    lot_status: z.enum(LotStatuses).nullable(),
    reason: z.enum(ApprovalFailureReasons),
  }),
  [Events.LotMoved]: z.object({
    lot: lotSnapshotSchema,
    /** the place it was recorded on (null: none) */
    from_place: storagePlaceRef.nullable(),
    /** the place it is recorded on now (null: none) */
    to_place: storagePlaceRef.nullable(),
  }),
  [Events.LotLabelled]: z.object({ lot: lotSnapshotSchema }),

  [Events.DonationSubmitted]: z.object({
    ...donorMail,
    item_count: z.number().int(),
    /** the items' categories, one per item (the impact counters) */
    category_ids: z.array(z.number().int()),
    /** the last day the donor can keep the furniture (YYYY-MM-DD) */
    available_until: z.string(),
  }),
  [Events.DonationStatusChanged]: z.object({
    ...donorMail,
    old_status: z.enum(DonationStatuses),
    new_status: z.enum(DonationStatuses),
    /** staff changed it, or the expiry job found its available-until date passed */
    cause: z.enum(['staff', 'expired']),
    /** a decline's reason (shown to the donor) */
    reason: z.string().nullable(),
    /** staff's internal note (never mailed) */
    note: z.string().nullable(),
    item_count: z.number().int(),
  }),
  [Events.DonationItemLotCreated]: z.object({
    donation_id: z.number().int(),
    item_id: z.number().int(),
    lot_id: z.number().int(),
    lot_name: localized,
    category_id: z.number().int(),
  }),

  [Events.ApplicationSubmitted]: z.object({
    ...applicationRef,
    status: z.enum(ApplicationStatuses),
    ...familyMail,
    queue_position: z.number().int(),
    /** the lot's category (the impact counters); absent in earlier versions */
    category_id: z.number().int().optional(),
    /** issue 44: the partner agency's referrer who applied for the family (who referred whom) */
    referral: referralRef.optional(),
  }),
  [Events.ApplicationApprovalRequested]: z.object({
    ...applicationRef,
    note: z.string().nullable(),
  }),
  [Events.ApplicationApprovalFailed]: z.object({
    ...applicationRef,
    reason: z.enum(ApprovalFailureReasons),
    /** the lot's status when the reservation was refused (null when the lot is gone) */
    lot_status: z.enum(LotStatuses).nullable(),
  }),
  [Events.ApplicationApprovalWithdrawn]: z.object(applicationRef),
  [Events.ApplicationApproved]: applicationStatusChange,
  [Events.ApplicationRejected]: applicationStatusChange,
  [Events.ApplicationCompleted]: applicationStatusChange,
  [Events.ApplicationReservationCancelled]: applicationStatusChange,
  [Events.ApplicationReconsidered]: applicationStatusChange,
  [Events.ApplicationNoteAdded]: z.object({
    ...applicationRef,
    note: z.string(),
    /**
     * the note completes the status change with this action (sent without a note just before,
     * by the same staff member): it became that change's comment, not a line of its own
     */
    status_action: z.string().optional(),
  }),
  [Events.ApplicationPickupExtended]: z.object({
    ...familyFields,
    old_pickup_by: z.string().nullable(),
    pickup_by: z.string(),
    note: z.string().nullable(),
  }),
  [Events.ApplicationPickupReminderDue]: z.object({ ...familyFields, pickup_by: z.string() }),
  [Events.ApplicationPickupOverdue]: z.object({
    ...applicationRef,
    pickup_by: z.string(),
  }),
  [Events.ApplicationNextInQueue]: z.object({
    ...applicationRef,
    /** the lapsed application the lot came back from */
    after_application_id: z.number().int(),
    /** the organisation approves the next family at once (PICKUP_LAPSE_AUTO_APPROVE) */
    auto_approved: z.boolean(),
  }),
  [Events.HandoverBooked]: z.object({
    ...handoverSlot,
    /** the booking moved here from another slot */
    moved_from_slot_id: z.number().int().nullable(),
    by: z.enum(['family', 'staff']),
    family: handoverMail,
  }),
  [Events.HandoverCancelled]: z.object({
    ...handoverSlot,
    by: z.enum(['family', 'staff', 'system']),
    family: handoverMail,
  }),
  [Events.HandoverReminderDue]: z.object({ ...handoverSlot, family: handoverMail }),
  [Events.HandoverClosed]: z.object({
    ...handoverSlot,
    outcome: z.enum(HandoverStatuses).extract(['done', 'absent', 'missed']),
    note: z.string().nullable(),
  }),
  [Events.HandoverItemChecked]: z.object({
    handover_id: z.number().int(),
    application_id: z.number().int(),
    /** the booked lot */
    lot: lotRef,
    /** the code as scanned or typed (normalized where it could be) */
    code: z.string(),
    /** the lot the code belongs to (null: no lot's code) */
    scanned_lot: lotRef.nullable(),
    match: z.boolean(),
    /** a mismatch the driver confirmed (the second confirmation); false for a warning */
    confirmed: z.boolean(),
  }),
  [Events.WishCreated]: z.object({
    wish_id: z.number().int(),
    applicant_name: z.string(),
    furniture_category: z.number().int().nullable(),
    status: z.enum(WishStatuses),
    /** issue 44: the referrer who sent the wish for the family; absent for the family's own */
    referral: referralRef.optional(),
  }),
  [Events.WishStatusChanged]: z.object({
    wish_id: z.number().int(),
    old_status: z.enum(WishStatuses),
    new_status: z.enum(WishStatuses),
    admin_notes: z.string().nullable(),
    /** the notes before the change (a change may touch only the notes) */
    old_admin_notes: z.string().nullable().optional(),
    /** the wish's category (the impact counters); absent in earlier versions */
    furniture_category: z.number().int().nullable().optional(),
  }),
  [Events.WishNotified]: z.object({
    wish_id: z.number().int(),
    lot_id: z.number().int(),
    lot_name: localized,
    applicant_name: z.string(),
    /** null: no address, staff used the WhatsApp link */
    applicant_email: z.string().nullable(),
    language: z.enum(Languages),
    channel: z.enum(['email', 'whatsapp']),
    /** the wish's WhatsApp number (E.164; issue 30); absent in earlier versions */
    applicant_whatsapp: z.string().nullable().optional(),
  }),
  /**
   * staff asked to send a prepared message to a family (issue 30), from an application or a
   * wish; the actor is the staff member. The notification service sends it like every message.
   */
  [Events.MessageRequested]: z.object({
    /** exactly one of application_id and wish_id is set */
    application_id: z.number().int().nullable(),
    wish_id: z.number().int().nullable(),
    lot_id: z.number().int().nullable(),
    lot_name: localized.nullable(),
    template: z.enum(PreparedMessages),
    applicant_name: z.string(),
    applicant_email: z.string().nullable(),
    language: z.enum(Languages),
    ...familyNumbers,
    /** the application's pickup date, for pickup_reminder (YYYY-MM-DD) */
    pickup_by: z.string().nullable().optional(),
  }),

  [Events.PersonalDataErased]: z.object({
    /** request: staff erased a phone number's data; retention: closed longer than the period */
    reason: z.enum(['request', 'retention']),
    application_ids: z.array(z.number().int()),
    wish_ids: z.array(z.number().int()),
    /** the donor's donations (wave 3; absent in earlier versions) */
    donation_ids: z.array(z.number().int()).optional(),
  }),

  [Events.PhotoUploaded]: z.object({
    photo_id: z.number().int(),
    lot_id: z.number().int(),
    urls: photoUrlsSchema,
  }),
  [Events.PhotoDeleted]: z.object({
    photo_id: z.number().int(),
    lot_id: z.number().int(),
    /** the deleted photo's URLs, so consumers can drop them from the lot without a lookup */
    urls: photoUrlsSchema.optional(),
  }),
} as const satisfies Record<EventName, z.ZodType>;

export type EventPayload<N extends EventName> = z.infer<(typeof EventPayloads)[N]>;

export const EventVersions: Record<EventName, number> = Object.fromEntries(
  Object.values(Events).map((name) => [name, 1]),
) as Record<EventName, number>;

/** The envelope every message carries. */
export const eventEnvelopeSchema = z.object({
  eventId: z.uuid(),
  name: z.enum(Object.values(Events) as [EventName, ...EventName[]]),
  version: z.number().int().positive(),
  occurredAt: z.iso.datetime({ offset: true }),
  /** the staff member who caused it; null for the system or an anonymous applicant */
  actor: actorSchema.nullable(),
  payload: z.unknown(),
  /** the W3C traceparent of the trace it was created in (only where tracing is on) */
  traceparent: z.string().max(128).optional(),
});

/** An envelope with the payload of its name. */
export type DomainEvent<N extends EventName = EventName> = Omit<
  z.infer<typeof eventEnvelopeSchema>,
  'name' | 'payload'
> & { name: N; payload: EventPayload<N> };

/** Every event as a union discriminated by `name`, so a switch narrows the payload. */
export type AnyDomainEvent = { [N in EventName]: DomainEvent<N> }[EventName];

/** Validates an envelope and its payload against the contract of its name. */
export function parseEvent(raw: unknown): DomainEvent {
  const envelope = eventEnvelopeSchema.parse(raw);
  const payload = EventPayloads[envelope.name].parse(envelope.payload);
  return { ...envelope, payload } as DomainEvent;
}
