import {
  Events,
  type ActionType,
  type Actor,
  type AnyDomainEvent as AnyEvent,
  type DomainEvent,
  type TargetType,
} from '@furniture/contracts';

/** An entry to write, before it gets its id. */
export interface NewActivity {
  event_id: string;
  event_name: string | null;
  source: 'server' | 'client';
  user: Actor | null;
  action_type: ActionType;
  target_type: TargetType;
  target_id: number | null;
  details: Record<string, unknown> | string | null;
  /** texts the search box finds the entry by */
  search_terms: string[];
  created_at: Date;
}

type Changes = Record<string, { old: unknown; new: unknown }>;

/** Changes as the spec's old_value / new_value pair (field → value). */
function oldNew(changes: Changes): {
  old_value: Record<string, unknown>;
  new_value: Record<string, unknown>;
} {
  const old_value: Record<string, unknown> = {};
  const new_value: Record<string, unknown> = {};
  for (const [field, change] of Object.entries(changes)) {
    old_value[field] = change.old;
    new_value[field] = change.new;
  }
  return { old_value, new_value };
}

/** Every text and number inside a value (the words the search box finds an entry by). */
export function textsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) value.forEach((v) => textsOf(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => textsOf(v, out));
  return out;
}

interface Mapped {
  action: ActionType;
  target: TargetType;
  targetId: number | null;
  details: Record<string, unknown>;
  /** who did it when the event names no actor (a staff member's own login) */
  self?: Actor;
}

/** One entry: what was done to which target, and what the log tells about it. */
const entry = (
  action: ActionType,
  target: TargetType,
  targetId: number | null,
  details: Record<string, unknown>,
  self?: Actor,
): Mapped => ({ action, target, targetId, details, self });

/** An entry about an application. */
const onApplication = (
  action: ActionType,
  p: { application_id: number },
  details: Record<string, unknown>,
): Mapped => entry(action, 'application', p.application_id, details);

/** Who applied for what: the details most application entries start with. */
const familyOf = (p: { applicant_name: string; lot_id: number; lot_name: unknown }) => ({
  applicant_name: p.applicant_name,
  lot_id: p.lot_id,
  lot_name: p.lot_name,
});

function map(event: AnyEvent): Mapped | null {
  switch (event.name) {
    case Events.UserLoggedIn:
    case Events.UserLoggedOut:
    case Events.UserPasswordChanged:
    case Events.UserCreated:
    case Events.UserDeleted: {
      const { user } = event.payload;
      const action: Record<typeof event.name, ActionType> = {
        [Events.UserLoggedIn]: 'LOGIN',
        [Events.UserLoggedOut]: 'LOGOUT',
        [Events.UserPasswordChanged]: 'PASSWORD_CHANGE',
        [Events.UserCreated]: 'CREATE',
        [Events.UserDeleted]: 'DELETE',
      };
      const own =
        event.name === Events.UserLoggedIn ||
        event.name === Events.UserLoggedOut ||
        event.name === Events.UserPasswordChanged;
      const details = {
        user_name: user.name,
        user_email: user.email,
        role: user.role,
        // a session ended by time or by a replayed refresh token, not by the user
        ...(event.name === Events.UserLoggedOut &&
        event.payload.reason &&
        event.payload.reason !== 'logout'
          ? { reason: `session_${event.payload.reason}` }
          : {}),
      };
      return entry(action[event.name], 'user', user.id, details, own ? user : undefined);
    }
    case Events.UserUpdated: {
      const { user, changes } = event.payload;
      const details = { user_name: user.name, user_email: user.email, ...oldNew(changes) };
      return entry('UPDATE', 'user', user.id, details);
    }
    case Events.CategoryCreated:
    case Events.CategoryDeleted: {
      const { category: c } = event.payload;
      const action = event.name === Events.CategoryCreated ? 'CREATE' : 'DELETE';
      return entry(action, 'category', c.id, { name: c.name, icon: c.icon });
    }
    case Events.CategoryUpdated: {
      const { category: c, changes } = event.payload;
      return entry('UPDATE', 'category', c.id, { name: c.name, ...oldNew(changes) });
    }
    case Events.LotCreated:
    case Events.LotDeleted: {
      const { lot } = event.payload;
      const action = event.name === Events.LotCreated ? 'CREATE' : 'DELETE';
      const details = { name: lot.name, status: lot.status, category_id: lot.category_id };
      return entry(action, 'lot', lot.id, details);
    }
    case Events.LotUpdated: {
      const { lot, changes } = event.payload;
      return entry('UPDATE', 'lot', lot.id, { name: lot.name, ...oldNew(changes) });
    }
    case Events.LotStatusChanged: {
      const p = event.payload;
      return entry('STATUS_CHANGE', 'lot', p.lot.id, {
        name: p.lot.name,
        old_status: p.old_status,
        new_status: p.new_status,
        cause: p.cause,
        application_id: p.application_id,
      });
    }
    case Events.LotReserved:
    case Events.LotReservationFailed:
    case Events.ApplicationApprovalRequested:
    case Events.ApplicationApprovalWithdrawn:
      return null;
    case Events.ApplicationApprovalFailed: {
      const p = event.payload;
      return onApplication('APPROVAL_FAILED', p, {
        lot_id: p.lot_id,
        reason: p.reason,
        lot_status: p.lot_status,
      });
    }
    case Events.ApplicationSubmitted: {
      const p = event.payload;
      return onApplication('CREATE', p, {
        ...familyOf(p),
        new_status: p.status,
        queue_position: p.queue_position,
      });
    }
    case Events.ApplicationApproved:
    case Events.ApplicationRejected:
    case Events.ApplicationCompleted:
    case Events.ApplicationReservationCancelled:
    case Events.ApplicationReconsidered: {
      const p = event.payload;
      const action: Record<typeof event.name, ActionType> = {
        [Events.ApplicationApproved]: 'APPROVE',
        [Events.ApplicationRejected]: 'REJECT',
        [Events.ApplicationCompleted]: 'COMPLETE',
        [Events.ApplicationReservationCancelled]: 'CANCEL_RESERVATION',
        [Events.ApplicationReconsidered]: 'RECONSIDER',
      };
      return onApplication(action[event.name], p, {
        ...familyOf(p),
        old_status: p.old_status,
        new_status: p.new_status,
        reason: p.reason,
        note: p.note,
      });
    }
    case Events.ApplicationPickupExtended: {
      const p = event.payload;
      return onApplication('PICKUP_EXTEND', p, {
        ...familyOf(p),
        old_value: { pickup_by: p.old_pickup_by },
        new_value: { pickup_by: p.pickup_by },
        note: p.note,
      });
    }
    case Events.ApplicationPickupReminderDue: {
      const p = event.payload;
      return onApplication('PICKUP_REMINDER', p, { ...familyOf(p), pickup_by: p.pickup_by });
    }
    case Events.ApplicationPickupOverdue: {
      const p = event.payload;
      return onApplication('PICKUP_OVERDUE', p, { lot_id: p.lot_id, pickup_by: p.pickup_by });
    }
    case Events.ApplicationNextInQueue: {
      const p = event.payload;
      return onApplication('NEXT_IN_QUEUE', p, {
        lot_id: p.lot_id,
        after_application_id: p.after_application_id,
        auto_approved: p.auto_approved,
      });
    }
    case Events.WishNotified: {
      const p = event.payload;
      return entry('CONTACT', 'wish', p.wish_id, { ...familyOf(p), channel: p.channel });
    }
    case Events.ApplicationNoteAdded: {
      const p = event.payload;
      return onApplication('NOTE_ADD', p, { lot_id: p.lot_id, note: p.note });
    }
    case Events.WishCreated: {
      const p = event.payload;
      return entry('CREATE', 'wish', p.wish_id, {
        applicant_name: p.applicant_name,
        furniture_category: p.furniture_category,
        new_status: p.status,
      });
    }
    case Events.WishStatusChanged: {
      const p = event.payload;
      // a later contract version tells the notes before the change (a notes-only change)
      const oldNotes = (p as { old_admin_notes?: string | null }).old_admin_notes;
      if (p.old_status === p.new_status) {
        return entry('UPDATE', 'wish', p.wish_id, {
          status: p.new_status,
          old_value: { admin_notes: oldNotes ?? null },
          new_value: { admin_notes: p.admin_notes },
        });
      }
      return entry('STATUS_CHANGE', 'wish', p.wish_id, {
        old_status: p.old_status,
        new_status: p.new_status,
        note: p.admin_notes,
      });
    }
    case Events.PersonalDataErased: {
      const p = event.payload;
      // the retention job's erasures are routine: the log records the ones staff asked for
      if (p.reason === 'retention') return null;
      const wish = p.application_ids.length === 0;
      return entry(
        'ERASE',
        wish ? 'wish' : 'application',
        (wish ? p.wish_ids[0] : p.application_ids[0]) ?? null,
        { reason: p.reason, application_ids: p.application_ids, wish_ids: p.wish_ids },
      );
    }
    case Events.PhotoUploaded: {
      const p = event.payload;
      const details = { photo_id: p.photo_id, url: p.urls.thumbnail };
      return entry('PHOTO_UPLOAD', 'lot', p.lot_id, details);
    }
    case Events.PhotoDeleted:
      return entry('PHOTO_DELETE', 'lot', event.payload.lot_id, {
        photo_id: event.payload.photo_id,
      });
  }
}

/**
 * The log entry of a domain event, or null for the events the log leaves out. Without an actor
 * (an applicant's submission or wish, or a change the system made) the user fields stay null and
 * `details.actor` says who it was.
 */
export function activityFromEvent(event: DomainEvent): NewActivity | null {
  const e = event as AnyEvent;
  const mapped = map(e);
  if (!mapped) return null;
  const user = event.actor ?? mapped.self ?? null;
  const details: Record<string, unknown> = { ...mapped.details };
  if (!user) {
    details.actor =
      event.name === Events.ApplicationSubmitted || event.name === Events.WishCreated
        ? 'applicant'
        : 'system';
  }
  return {
    event_id: event.eventId,
    event_name: event.name,
    source: 'server',
    user,
    action_type: mapped.action,
    target_type: mapped.target,
    target_id: mapped.targetId,
    details,
    search_terms: [
      ...(user ? [user.name, user.email] : []),
      ...textsOf(mapped.details).filter((t) => !/^https?:/.test(t)),
    ],
    created_at: new Date(event.occurredAt),
  };
}
