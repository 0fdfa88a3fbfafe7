import { Events, type EventName } from './events';

/**
 * Who consumes which event: the one declaration of the broker's topology. Every service declares
 * all of it at start (exchange, each service's queue with its retry and dead-letter queues, the
 * bindings below) before it publishes anything, so an event published before its consumer first
 * started waits in that consumer's queue instead of being dropped.
 */
export const ServiceNames = ['auth', 'catalog', 'applications', 'media', 'notification'] as const;
export type ServiceName = (typeof ServiceNames)[number];

/** Events the activity log leaves out: echoes of changes that already have their entry. */
export const UnloggedEvents: readonly EventName[] = [
  Events.LotReserved,
  Events.LotReservationFailed,
  // the approval itself has its entry when it is final (or when it failed)
  Events.ApplicationApprovalRequested,
  Events.ApplicationApprovalWithdrawn,
  // a code given to a lot of an earlier version: no one did anything (issue 45)
  Events.LotLabelled,
];

const lotEvents = [
  Events.LotCreated,
  Events.LotUpdated,
  Events.LotStatusChanged,
  Events.LotReserved,
  Events.LotDeleted,
] as const;

export const Subscriptions: Record<ServiceName, readonly EventName[]> = {
  auth: [],
  catalog: [
    Events.ApplicationApprovalRequested,
    Events.ApplicationApprovalWithdrawn,
    Events.ApplicationReservationCancelled,
    Events.ApplicationCompleted,
    // a lapsed pickup rejects the approved application: the lot comes free again
    Events.ApplicationRejected,
    Events.PhotoUploaded,
    Events.PhotoDeleted,
    // a donor pickup marked done: the donation is collected (issue 29)
    Events.HandoverClosed,
  ],
  // lot.labelled: the label code of a lot of an earlier version, for the handover scan (issue 45)
  applications: [...lotEvents, Events.LotReservationFailed, Events.LotLabelled],
  // lots (read model, photos of deleted lots); erased donations (their donors' photos)
  media: [...lotEvents, Events.PersonalDataErased],
  // the activity log and the families' mails
  notification: (Object.values(Events) as EventName[]).filter((e) => !UnloggedEvents.includes(e)),
};

export interface QueueNames {
  queue: string;
  /** messages waiting for their next attempt (per-message TTL, then back to `queue`) */
  retry: string;
  /** messages that broke their contract or failed for good: listed and replayed by `npm run dlq` */
  dead: string;
}

/** The queues of one service on an exchange: `<exchange>.<service>` and its two companions. */
export function queueNames(exchange: string, service: string): QueueNames {
  const queue = `${exchange}.${service}`;
  return { queue, retry: `${queue}.retry`, dead: `${queue}.dead` };
}

/**
 * What each service owns: the records only it writes, in its own database (and, for media, the
 * photo files in S3). Another service learns of them by event or asks by an internal call.
 * docs/architecture.md is generated from this, `Publishers`, `Subscriptions` and
 * `InternalCallers` (npm run docs:topology).
 */
export const Ownership: Record<ServiceName, readonly string[]> = {
  auth: ['staff users', 'sessions and refresh tokens', 'partner agencies', 'referrer invitations'],
  catalog: ['categories', 'lots', 'storage places and label codes', 'donations'],
  applications: [
    'applications and each lot’s queue',
    'wishes',
    'handovers (pickup slots)',
    'referral quotas',
    'erasure marks',
  ],
  media: ['photos of lots and donations (WebP sizes in S3)', 'photo places'],
  notification: ['outgoing mails', 'WhatsApp and SMS messages', 'the activity log'],
};

/**
 * The events each service publishes (from its outbox, with the state change). An event may have
 * more than one publisher: each service erases the personal data it owns and says so.
 */
export const Publishers: Record<ServiceName, readonly EventName[]> = {
  auth: [
    Events.UserLoggedIn,
    Events.UserLoggedOut,
    Events.UserPasswordChanged,
    Events.UserCreated,
    Events.UserUpdated,
    Events.UserDeleted,
    Events.AgencyCreated,
    Events.AgencyUpdated,
    Events.ReferrerInvited,
  ],
  catalog: [
    Events.CategoryCreated,
    Events.CategoryUpdated,
    Events.CategoryDeleted,
    Events.LotCreated,
    Events.LotUpdated,
    Events.LotDeleted,
    Events.LotStatusChanged,
    Events.LotReserved,
    Events.LotReservationFailed,
    Events.LotMoved,
    Events.LotLabelled,
    Events.DonationSubmitted,
    Events.DonationStatusChanged,
    Events.DonationItemLotCreated,
    Events.PersonalDataErased,
  ],
  applications: [
    Events.ApplicationSubmitted,
    Events.ApplicationApprovalRequested,
    Events.ApplicationApprovalFailed,
    Events.ApplicationApprovalWithdrawn,
    Events.ApplicationApproved,
    Events.ApplicationRejected,
    Events.ApplicationCompleted,
    Events.ApplicationReservationCancelled,
    Events.ApplicationReconsidered,
    Events.ApplicationNoteAdded,
    Events.ApplicationPickupExtended,
    Events.ApplicationPickupReminderDue,
    Events.ApplicationPickupOverdue,
    Events.ApplicationNextInQueue,
    Events.HandoverBooked,
    Events.HandoverCancelled,
    Events.HandoverReminderDue,
    Events.HandoverClosed,
    Events.HandoverItemChecked,
    Events.WishCreated,
    Events.WishStatusChanged,
    Events.WishNotified,
    Events.MessageRequested,
    Events.PersonalDataErased,
  ],
  media: [Events.PhotoUploaded, Events.PhotoDeleted],
  notification: [],
};
