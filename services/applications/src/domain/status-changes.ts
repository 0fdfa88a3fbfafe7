import {
  Events,
  type Actor,
  type ApplicationChangeReasons,
  type ApplicationStatus,
  type DomainEvent,
} from '@furniture/contracts';
import { createEvent } from '@furniture/platform/domain';
import type { ApplicationsRepository } from '../data-access/applications-repository';
import {
  holdsLot,
  type ApplicationRecord,
  type ReferralRecord,
  type TransitionExtras,
} from './records';
import type { LotLookup, LotView } from '@furniture/platform/domain';
import type { HandoverLinks } from './handover-links';
import { noteLine, statusLabelDe, SYSTEM_AUTHOR, type NoteAuthor } from './notes';

export type ChangeReason = (typeof ApplicationChangeReasons)[number];

/**
 * The action behind each allowed transition (back-office §4) and its note/log action. Staff
 * approval is not a direct transition: it is requested, and the application becomes approved
 * when the catalog has reserved the lot (Moderation.requestApproval, LotReactions.lotReserved).
 */
export const Transitions = [
  { from: 'pending', to: 'approved', action: 'APPROVE', event: Events.ApplicationApproved },
  { from: 'pending', to: 'rejected', action: 'REJECT', event: Events.ApplicationRejected },
  { from: 'approved', to: 'completed', action: 'COMPLETE', event: Events.ApplicationCompleted },
  {
    from: 'approved',
    to: 'pending',
    action: 'CANCEL_RESERVATION',
    event: Events.ApplicationReservationCancelled,
  },
  { from: 'rejected', to: 'pending', action: 'RECONSIDER', event: Events.ApplicationReconsidered },
  // only automatically, when the lot is archived or deleted while an application is approved
  { from: 'approved', to: 'rejected', action: 'REJECT', event: Events.ApplicationRejected },
] as const;
export type Transition = (typeof Transitions)[number];

/** The transitions staff may choose in PATCH /applications/{id}/status. */
export function staffTransition(from: ApplicationStatus, to: ApplicationStatus) {
  if (from === 'approved' && to === 'rejected') return undefined;
  return Transitions.find((t) => t.from === from && t.to === to);
}

function transitionOf(from: ApplicationStatus, to: ApplicationStatus): Transition {
  const t = Transitions.find((x) => x.from === from && x.to === to);
  if (!t) throw new Error(`no transition ${from} → ${to}`);
  return t;
}

/** The lot's current name from the read model, else the name it had when the family applied. */
export function lotName(
  lot: { name: { de: string; uk: string } } | null,
  app: Pick<ApplicationRecord, 'lot_name'>,
): { de: string; uk: string } {
  return lot && (lot.name.de || lot.name.uk) ? lot.name : app.lot_name;
}

/** Where the family's WhatsApp and SMS messages go (issue 30; E.164). */
export function familyNumbers(
  app: Pick<ApplicationRecord, 'applicant_phone' | 'applicant_whatsapp'>,
) {
  return { applicant_phone: app.applicant_phone, applicant_whatsapp: app.applicant_whatsapp };
}

/** What a mail to the family needs: the application, its family and the lot's name. */
export function familyFields(
  app: ApplicationRecord,
  lot: { name: { de: string; uk: string } } | null,
) {
  return {
    application_id: app.id,
    lot_id: app.lot_id,
    applicant_name: app.applicant_name,
    applicant_email: app.applicant_email,
    language: app.language,
    lot_name: lotName(lot, app),
    ...familyNumbers(app),
    ...referrerOf(app),
  };
}

/** A referred family's referrer, who is told of its application's news too (issue 44). */
export function referrerOf(app: Pick<ApplicationRecord, 'referral'>) {
  const r = app.referral;
  return r
    ? {
        referrer: {
          name: r.referrer_name,
          email: r.referrer_email,
          language: r.referrer_language,
          agency_name: r.agency_name,
          agency_id: r.agency_id,
        },
      }
    : {};
}

/** Who referred a family, as the events tell it (the activity log, the impact counts). */
export function referralOf(r: ReferralRecord) {
  return {
    id: r.id,
    agency: { id: r.agency_id, name: r.agency_name },
    referrer: { id: r.referrer_id, name: r.referrer_name },
  };
}

export type ChangeOptions = {
  reason: ChangeReason;
  /** the staff member's note, or the automatic explanation */
  note: string | null;
  author: NoteAuthor;
  actor: Actor | null;
} & TransitionExtras;

export interface StatusChangeDeps {
  applications: ApplicationsRepository;
  lots: LotLookup;
  /** the booking link of an approval, the booking given back when it ends (issue 29) */
  handoverLinks?: HandoverLinks;
}

/**
 * Moves one application to a new status with its note line and its event (old and new status,
 * reason, note, who acted, and what notification needs for the family's mail), in one guarded
 * write. null when the application was no longer in the status the change was decided on.
 */
export async function changeStatus(
  deps: StatusChangeDeps,
  app: ApplicationRecord,
  to: ApplicationStatus,
  opts: ChangeOptions,
): Promise<ApplicationRecord | null> {
  const t = transitionOf(app.status, to);
  const lot = await deps.lots.get(app.lot_id);
  const links = deps.handoverLinks;
  const link = to === 'approved' && links ? links.issue() : null;
  const comment = opts.note ?? `Status: ${statusLabelDe[app.status]} → ${statusLabelDe[to]}`;
  const event: DomainEvent = createEvent(
    t.event,
    {
      ...familyFields(app, lot),
      old_status: app.status,
      new_status: to,
      reason: opts.reason,
      note: opts.note,
      ...(to === 'approved'
        ? {
            pickup_by: opts.pickupBy ?? null,
            handover_url: link?.url ?? null,
          }
        : {}),
      ...(to === 'completed' ? { approved_at: app.approved_at } : {}),
      // only then may the catalog have reserved the lot for it
      ...(to === 'rejected' ? { lot_held: holdsLot(app) } : {}),
      ...(lot ? { category_id: lot.category_id } : {}),
      applied_at: app.created_at,
      ...(to === 'completed'
        ? { first_handover: !(await deps.applications.hasCompleted(app.applicant_phone, app.id)) }
        : {}),
    },
    opts.actor,
  );
  const at = new Date();
  const line = noteLine(opts.author, t.action, comment, at);
  // a staff change without a note: the note the spec's client sends next belongs to it
  const noteOpen =
    opts.note === null && opts.actor
      ? { action: t.action, line, ...opts.author, at: at.toISOString() }
      : null;
  const updated = await deps.applications.transition(app.id, app.status, to, line, [event], {
    ...opts,
    handover: link && { seed: link.seed, tokenHash: link.tokenHash },
    noteOpen,
  });
  // its booked slot is given back (the handover job catches up after a crash in between)
  if (updated && app.status === 'approved' && links) await links.applicationLeft(app.id);
  return updated;
}

/**
 * An application stored while its lot stopped being available: the family's check and insert
 * raced the lot's reservation (or closing), whose handler had already closed the lot's other
 * applications. It is closed the same way: rejected for the application the lot is reserved
 * for, or because the lot is closed or gone. A lot staff merely hold aside (reserved without an
 * approved application) keeps it waiting, like the others.
 */
export async function closeLateApplication(
  deps: StatusChangeDeps,
  app: ApplicationRecord,
  lot: LotView,
): Promise<void> {
  const reserved = !lot.deleted && lot.status === 'reserved';
  const holder = reserved ? await deps.applications.reservationHolder(lot.id, app.id) : null;
  if ((!lot.deleted && lot.status === 'available') || (reserved && holder === null)) return;
  const [reason, note]: [ChangeReason, string] = lot.deleted
    ? ['lot_deleted', 'Automatisch abgelehnt: Das Lot wurde gelöscht.']
    : reserved
      ? [
          'competitor_approved',
          `Automatisch abgelehnt: Das Lot wurde für Bewerbung #${holder} reserviert.`,
        ]
      : ['lot_closed', 'Automatisch abgelehnt: Das Lot ist nicht mehr verfügbar.'];
  const system = { author: SYSTEM_AUTHOR, actor: null };
  await changeStatus(deps, app, 'rejected', { reason, note, ...system, rejectedFor: holder });
}
