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
