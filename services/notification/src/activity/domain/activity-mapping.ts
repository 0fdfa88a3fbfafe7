import {
  Events,
  type ActionType,
  type Actor,
  type ApplicationStatusChange,
  type DomainEvent,
  type EventName,
  type EventPayload,
  type LotSnapshot,
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
const oldNew = (changes: Changes) => ({
  old_value: Object.fromEntries(Object.entries(changes).map(([field, c]) => [field, c.old])),
  new_value: Object.fromEntries(Object.entries(changes).map(([field, c]) => [field, c.new])),
});

/** Every text and number inside a value (the words the search box finds an entry by). */
export function textsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) value.forEach((v) => textsOf(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => textsOf(v, out));
  return out;
}

/** The texts of an entry's details the search box finds it by (links left out). */
export const detailTexts = (details: unknown) =>
  textsOf(details).filter((t) => !/^https?:/.test(t));

/** The words the search box matches, trimmed and lower-case, as one text. */
export const searchText = (terms: string[]) =>
  terms
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean)
    .join(' | ');

interface Mapped {
  action: ActionType;
  target: TargetType;
  targetId: number | null;
  details: Record<string, unknown>;
  /** who did it when the event names no actor (a staff member's own login) */
  self?: Actor;
  /** `details.actor` when the event names no actor, where the payload says who it was */
  actor?: 'applicant' | 'system';
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

/** Who referred the family (issue 44): the agency and its referrer, beside the family. */
const referralDetails = (
  r: EventPayload<typeof Events.ApplicationSubmitted>['referral'],
): Record<string, unknown> =>
  r
    ? {
        referral_id: r.id,
        agency_id: r.agency.id,
        agency: r.agency.name,
        referrer_id: r.referrer.id,
        referrer: r.referrer.name,
      }
    : {};

/** An entry about a user; `own`: the user's own action, which is then its actor. */
const onUser =
  (action: ActionType, own = false) =>
  ({ user, reason }: { user: Actor; reason?: string }): Mapped => {
    // a session ended by time or by a replayed refresh token, not by the user
    const ended = reason && reason !== 'logout' ? { reason: `session_${reason}` } : {};
    const details = { user_name: user.name, user_email: user.email, role: user.role, ...ended };
    return entry(action, 'user', user.id, details, own ? user : undefined);
  };

const lotFacts = (lot: LotSnapshot) => ({
  name: lot.name,
  status: lot.status,
  category_id: lot.category_id,
});

/** An application's status change: who applied for what, and how its status moved. */
const statusChange = (action: ActionType) => (p: ApplicationStatusChange) =>
  onApplication(action, p, {
    ...familyOf(p),
    old_status: p.old_status,
    new_status: p.new_status,
    reason: p.reason,
    note: p.note,
  });

/**
 * Who booked or gave back a slot when no staff member did: the family through its link, or the
 * system (a cancellation because the application ended).
 */
const byWhom = (by: 'family' | 'staff' | 'system') => (by === 'family' ? 'applicant' : 'system');

/** A handover's entry: on the family's application, or for a donor pickup on the donation. */
const onHandover = (
  action: ActionType,
  p: {
    handover_id: number;
    application_id: number | null;
    donation_id: number | null;
    kind: string;
    slot_id: number;
    starts_at: string;
    location: { name: string };
  },
  extra: Record<string, unknown> = {},
): Mapped =>
  entry(
    action,
    p.application_id !== null ? 'application' : 'donation',
    p.application_id ?? p.donation_id,
    {
      handover_id: p.handover_id,
      kind: p.kind,
      slot_id: p.slot_id,
      starts_at: p.starts_at,
      location: p.location.name,
      ...extra,
    },
  );

/** Each event's entry from its payload; null: the log leaves the event out. */
const Mappings: { [N in EventName]: ((p: EventPayload<N>) => Mapped | null) | null } = {
  [Events.UserLoggedIn]: onUser('LOGIN', true),
  [Events.UserLoggedOut]: onUser('LOGOUT', true),
  [Events.UserPasswordChanged]: onUser('PASSWORD_CHANGE', true),
  [Events.UserCreated]: onUser('CREATE'),
  [Events.UserUpdated]: ({ user, changes }) =>
    entry('UPDATE', 'user', user.id, {
      user_name: user.name,
      user_email: user.email,
      ...oldNew(changes),
    }),
  [Events.UserDeleted]: onUser('DELETE'),
  // partners (issue 44): the invitation's link never enters the log
  [Events.AgencyCreated]: ({ agency: a }) =>
    entry('CREATE', 'agency', a.id, { name: a.name, city: a.city }),
  [Events.AgencyUpdated]: ({ agency: a, changes }) =>
    entry('UPDATE', 'agency', a.id, { name: a.name, ...oldNew(changes) }),
  [Events.ReferrerInvited]: ({ agency, email, language }) =>
    entry('INVITE', 'agency', agency.id, { name: agency.name, email, language }),
  [Events.CategoryCreated]: ({ category: c }) =>
    entry('CREATE', 'category', c.id, { name: c.name, icon: c.icon }),
  [Events.CategoryUpdated]: ({ category: c, changes }) =>
    entry('UPDATE', 'category', c.id, { name: c.name, ...oldNew(changes) }),
  [Events.CategoryDeleted]: ({ category: c }) =>
    entry('DELETE', 'category', c.id, { name: c.name, icon: c.icon }),
  [Events.LotCreated]: ({ lot }) => entry('CREATE', 'lot', lot.id, lotFacts(lot)),
  [Events.LotUpdated]: ({ lot, changes }) =>
    entry('UPDATE', 'lot', lot.id, { name: lot.name, ...oldNew(changes) }),
  [Events.LotDeleted]: ({ lot }) => entry('DELETE', 'lot', lot.id, lotFacts(lot)),
  [Events.LotStatusChanged]: (p) =>
    entry('STATUS_CHANGE', 'lot', p.lot.id, {
      name: p.lot.name,
      old_status: p.old_status,
      new_status: p.new_status,
      cause: p.cause,
      application_id: p.application_id,
    }),
  // the warehouse (issue 45): a move between storage places; a code given to an earlier lot
  [Events.LotMoved]: ({ lot, from_place, to_place }) =>
    entry('LOT_MOVE', 'lot', lot.id, {
      name: lot.name,
      from_place: from_place?.name ?? null,
      to_place: to_place?.name ?? null,
      from_place_id: from_place?.id ?? null,
      to_place_id: to_place?.id ?? null,
    }),
  [Events.LotLabelled]: null,
  // echoes of changes that have their own entry (UnloggedEvents)
  [Events.LotReserved]: null,
  [Events.LotReservationFailed]: null,
  [Events.ApplicationApprovalRequested]: null,
  [Events.ApplicationApprovalWithdrawn]: null,
  [Events.ApplicationApprovalFailed]: (p) =>
    onApplication('APPROVAL_FAILED', p, {
      lot_id: p.lot_id,
      reason: p.reason,
      lot_status: p.lot_status,
    }),
  // a referred family (issue 44): who referred whom, in the referral's own entry
  [Events.ApplicationSubmitted]: (p) =>
    onApplication(p.referral ? 'REFER' : 'CREATE', p, {
      ...familyOf(p),
      new_status: p.status,
      queue_position: p.queue_position,
      ...referralDetails(p.referral),
    }),
  [Events.ApplicationApproved]: statusChange('APPROVE'),
  [Events.ApplicationRejected]: statusChange('REJECT'),
  [Events.ApplicationCompleted]: statusChange('COMPLETE'),
  [Events.ApplicationReservationCancelled]: statusChange('CANCEL_RESERVATION'),
  [Events.ApplicationReconsidered]: statusChange('RECONSIDER'),
  [Events.ApplicationPickupExtended]: (p) =>
    onApplication('PICKUP_EXTEND', p, {
      ...familyOf(p),
      old_value: { pickup_by: p.old_pickup_by },
      new_value: { pickup_by: p.pickup_by },
      note: p.note,
    }),
  [Events.ApplicationPickupReminderDue]: (p) =>
    onApplication('PICKUP_REMINDER', p, { ...familyOf(p), pickup_by: p.pickup_by }),
  [Events.ApplicationPickupOverdue]: (p) =>
    onApplication('PICKUP_OVERDUE', p, { lot_id: p.lot_id, pickup_by: p.pickup_by }),
  [Events.ApplicationNextInQueue]: (p) =>
    onApplication('NEXT_IN_QUEUE', p, {
      lot_id: p.lot_id,
      after_application_id: p.after_application_id,
      auto_approved: p.auto_approved,
    }),
  [Events.WishNotified]: (p) =>
    entry('CONTACT', 'wish', p.wish_id, { ...familyOf(p), channel: p.channel }),
  // a prepared WhatsApp/SMS message staff sent (issue 30): the family was contacted
  [Events.MessageRequested]: (p) =>
    p.application_id !== null
      ? onApplication('CONTACT', p as { application_id: number }, {
          applicant_name: p.applicant_name,
          lot_id: p.lot_id,
          lot_name: p.lot_name,
          template: p.template,
        })
      : entry('CONTACT', 'wish', p.wish_id ?? 0, {
          applicant_name: p.applicant_name,
          template: p.template,
        }),
  [Events.ApplicationNoteAdded]: (p) =>
    onApplication('NOTE_ADD', p, {
      lot_id: p.lot_id,
      note: p.note,
      // the note of a status change sent without one (it completes that change's line)
      ...(p.status_action ? { status_action: p.status_action } : {}),
    }),
  // a wish a referrer sent for a family (issue 44): who referred whom, as for an application
  [Events.WishCreated]: (p) =>
    entry(p.referral ? 'REFER' : 'CREATE', 'wish', p.wish_id, {
      applicant_name: p.applicant_name,
      furniture_category: p.furniture_category,
      new_status: p.status,
      ...referralDetails(p.referral),
    }),
  [Events.WishStatusChanged]: (p) =>
    // a notes-only change, with the notes before it (absent in events of earlier versions)
    p.old_status === p.new_status
      ? entry('UPDATE', 'wish', p.wish_id, {
          status: p.new_status,
          old_value: { admin_notes: p.old_admin_notes ?? null },
          new_value: { admin_notes: p.admin_notes },
        })
      : entry('STATUS_CHANGE', 'wish', p.wish_id, {
          old_status: p.old_status,
          new_status: p.new_status,
          note: p.admin_notes,
        }),
  // a donor's name as an applicant's: no phone, e-mail or address
  [Events.DonationSubmitted]: (p) =>
    entry('CREATE', 'donation', p.donation_id, {
      donor_name: p.donor_name,
      new_status: 'submitted',
      item_count: p.item_count,
      category_ids: p.category_ids,
      available_until: p.available_until,
    }),
  [Events.DonationStatusChanged]: (p) =>
    entry('STATUS_CHANGE', 'donation', p.donation_id, {
      donor_name: p.donor_name,
      old_status: p.old_status,
      new_status: p.new_status,
      cause: p.cause,
      reason: p.reason,
      note: p.note,
      item_count: p.item_count,
    }),
  // on the donation, beside its other entries; the lot has its own CREATE (lot.created), and the
  // lot id in the details finds this one too
  [Events.DonationItemLotCreated]: (p) =>
    entry('CREATE', 'donation', p.donation_id, {
      item_id: p.item_id,
      lot_id: p.lot_id,
      lot_name: p.lot_name,
      category_id: p.category_id,
    }),
  [Events.PersonalDataErased]: (p) => {
    // the retention job's erasures are routine: the log records the ones staff asked for
    if (p.reason === 'retention') return null;
    const donationIds = p.donation_ids ?? [];
    const [target, id]: [TargetType, number | undefined] =
      p.application_ids.length > 0
        ? ['application', p.application_ids[0]]
        : p.wish_ids.length > 0
          ? ['wish', p.wish_ids[0]]
          : ['donation', donationIds[0]];
    return entry('ERASE', target, id ?? null, {
      reason: p.reason,
      application_ids: p.application_ids,
      wish_ids: p.wish_ids,
      ...(p.donation_ids ? { donation_ids: p.donation_ids } : {}),
    });
  },
  [Events.HandoverBooked]: (p) => ({
    ...onHandover('HANDOVER_BOOK', p, {
      by: p.by,
      ...(p.moved_from_slot_id !== null ? { moved_from_slot_id: p.moved_from_slot_id } : {}),
    }),
    actor: byWhom(p.by),
  }),
  [Events.HandoverCancelled]: (p) => ({
    ...onHandover('HANDOVER_CANCEL', p, { by: p.by }),
    actor: byWhom(p.by),
  }),
  [Events.HandoverReminderDue]: null,
  [Events.HandoverClosed]: (p) =>
    onHandover(p.outcome === 'done' ? 'HANDOVER_DONE' : 'HANDOVER_ABSENT', p, {
      outcome: p.outcome,
      note: p.note,
    }),
  [Events.HandoverItemChecked]: (p) =>
    entry('HANDOVER_ITEM_CHECK', 'application', p.application_id, {
      handover_id: p.handover_id,
      lot_id: p.lot.id,
      lot_name: p.lot.name,
      code: p.code,
      scanned_lot_id: p.scanned_lot?.id ?? null,
      scanned_lot_name: p.scanned_lot?.name ?? null,
      match: p.match,
      confirmed: p.confirmed,
    }),
  [Events.PhotoUploaded]: (p) =>
    entry('PHOTO_UPLOAD', 'lot', p.lot_id, { photo_id: p.photo_id, url: p.urls.thumbnail }),
  [Events.PhotoDeleted]: (p) => entry('PHOTO_DELETE', 'lot', p.lot_id, { photo_id: p.photo_id }),
};

/** Who did it when no staff member did: the events the public sends (else the system). */
const SelfServed: Partial<Record<EventName, 'applicant' | 'donor'>> = {
  [Events.ApplicationSubmitted]: 'applicant',
  [Events.WishCreated]: 'applicant',
  [Events.DonationSubmitted]: 'donor',
};

/**
 * The log entry of a domain event, or null for the events the log leaves out. Without an actor
 * (an applicant's submission or wish, a donor's offer, or a change the system made) the user fields stay null and
 * `details.actor` says who it was.
 */
export function activityFromEvent(event: DomainEvent): NewActivity | null {
  const mapping = Mappings[event.name] as ((p: unknown) => Mapped | null) | null;
  const mapped = mapping?.(event.payload) ?? null;
  if (!mapped) return null;
  const user = event.actor ?? mapped.self ?? null;
  const details: Record<string, unknown> = { ...mapped.details };
  if (!user) details.actor = mapped.actor ?? SelfServed[event.name] ?? 'system';
  return {
    event_id: event.eventId,
    event_name: event.name,
    source: 'server',
    user,
    action_type: mapped.action,
    target_type: mapped.target,
    target_id: mapped.targetId,
    details,
    search_terms: [...(user ? [user.name, user.email] : []), ...detailTexts(mapped.details)],
    created_at: new Date(event.occurredAt),
  };
}
