import {
  Events,
  type ApplicationChangeReasons,
  type Actor,
  type ApplicationStatus,
  type DomainEvent,
  type Language,
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
