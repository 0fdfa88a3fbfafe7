import {
  Events,
  type Actor,
  type Application,
  type ApplicationNoteInput,
  type ApplicationStats,
  type ApplicationStatusUpdate,
  type ApplicationsPage,
  type ApplicationsQuery,
  type LapseInput,
  type PickupUpdate,
} from '@furniture/contracts';
import { AppError, createEvent } from '@furniture/platform/domain';
import type { LotLookup, LotView } from '@furniture/platform/domain';
import type { ApplicationsRepository } from '../data-access/applications-repository';
import { isOpen, type ApplicationRecord } from './records';
import { actorOf, requestApproval } from './approvals';
import type { HandoverLinks } from './handover-links';
import type { Pickups } from './pickups';
import { authorOf, noteLine, parseNotes } from './notes';
import { changeStatus, lotName, staffTransition } from './status-changes';

export interface ModerationDeps {
  applications: ApplicationsRepository;
  lots: LotLookup;
  pickups: Pickups;
  /** the booking link of an approval, the booking given back when it ends (issue 29) */
  handoverLinks?: HandoverLinks;
}

/** How long after a status change without a note its author's next note still completes it. */
export const NOTE_ATTACH_WINDOW_MS = 2 * 60_000;

/** The staff view of an application: its notes parsed, its place in the queue, its lot. */
export function toApplication(
  app: ApplicationRecord,
  lot: LotView | null,
  position: number | null,
  overdue = false,
  holder: { id: number; applicant_name: string } | null = null,
  handoverUrl?: (token: string) => string,
): Application {
  const {
    notes,
    lot_name: _name,
    approval,
    rejected_for: _rejectedFor,
    request_key: _key,
    pickup_overdue_at: _overdueAt,
    handover_seed: seed,
    approved_at: _approvedAt,
    note_open: _noteOpen,
    referral,
    ...fields
  } = app;
  return {
    ...fields,
    referral: referral
      ? {
          id: referral.id,
          agency: { id: referral.agency_id, name: referral.agency_name },
          referrer: { name: referral.referrer_name },
          expires_at: referral.expires_at,
          expired_at: referral.expired_at ?? null,
        }
      : null,
    handover_url: app.status === 'approved' && seed && handoverUrl ? handoverUrl(seed) : null,
    approval: approval
      ? { ...approval, requested_by: approval.requested_by && actorOf(approval.requested_by) }
      : null,
    pickup_overdue: overdue,
    internal_notes: notes.join('\n'),
    notes: parseNotes(notes),
    queue_position: position,
    lot: lot
      ? {
          id: lot.id,
          name: lotName(lot, app),
          photo: lot.photo,
          status: lot.status,
          deleted: lot.deleted,
          held_by: holder,
        }
      : null,
  };
}

/**
 * Staff moderation: the list, stats and lookups, status changes along back-office §4, and notes.
 *
 * Approval is explicit (ARCHITECTURE.md "Events"): staff request it, the application stays
 * pending while the catalog reserves the lot, and becomes approved only when lot.reserved arrives
 * (LotReactions). Of two requests for one lot at the same moment the catalog reserves for one;
 * the other ends with the reason.
 */
export class Moderation {
  constructor(private readonly deps: ModerationDeps) {}

  /** The staff list, or (`phone`) the applications of one phone number. */
  async list(
    q: ApplicationsQuery | { phone: string; limit: number; skip: number },
  ): Promise<ApplicationsPage> {
    const page = await this.deps.applications.list(q);
    return { applications: await this.present(page.applications), total: page.total };
  }

  /** The families a partner agency referred (every agency's without one), newest first. */
  async referred(agencyId?: number): Promise<Application[]> {
    return this.present(await this.deps.applications.referred(agencyId));
  }

  /** The application of a referral (issue 44), as staff see it; null when there is none. */
  async ofReferral(referralId: number): Promise<Application | null> {
    const app = await this.deps.applications.findByReferral(referralId);
    return app ? (await this.present([app]))[0]! : null;
  }

  async get(id: number): Promise<Application> {
    const [app] = await this.present([await this.require(id)]);
    return app!;
  }

  async stats(lotIds: number[]): Promise<ApplicationStats> {
    const [counts, byLot] = await Promise.all([
      this.deps.applications.countsByStatus(),
      this.deps.applications.countsByLot(lotIds),
    ]);
    const sum = (c: Partial<Record<string, number>>) =>
      Object.values(c).reduce<number>((a, b) => a + (b ?? 0), 0);
    return {
      total: sum(counts),
      ...counts,
      lots: lotIds.map((lotId) => {
        const c = byLot.get(lotId) ?? {};
        return { lot_id: lotId, total: sum(c), pending: c.pending ?? 0, approved: c.approved ?? 0 };
      }),
    };
  }

  /**
   * PATCH /applications/{id}/status. Answers the application and whether the change is final:
   * an approval is only requested here ('accepted') and becomes final when the lot is reserved.
   */
  async changeStatus(
    actor: Actor,
    id: number,
    input: ApplicationStatusUpdate,
  ): Promise<{ application: Application; accepted: boolean }> {
    const app = await this.require(id);
    if (app.status === 'completed') throw new AppError('APPLICATION_COMPLETED');
    if (app.approval?.state === 'requested') {
      // asking again is harmless; anything else waits for the catalog's answer
      if (input.status === 'approved') return { application: await this.get(id), accepted: true };
      throw new AppError('APPROVAL_IN_PROGRESS');
    }
    const transition = staffTransition(app.status, input.status);
    if (!transition) {
      throw new AppError('APPLICATION_TRANSITION_NOT_ALLOWED', {
        params: { from: app.status, to: input.status },
      });
    }
    if (transition.to === 'approved') {
      const pickupBy = input.pickup_by
        ? this.deps.pickups.checkDate(input.pickup_by)
        : this.deps.pickups.defaultPickupBy();
      await requestApproval(this.deps, app, { requestedBy: actor, note: input.note, pickupBy });
      return { application: await this.get(id), accepted: true };
    }
    const updated = await changeStatus(this.deps, app, input.status, {
      reason: 'staff',
      note: input.note,
      author: authorOf(actor),
      actor,
    });
    if (!updated) {
      const now = await this.require(id);
      throw new AppError('APPLICATION_CHANGED', { params: { status: now.status } });
    }
    return { application: await this.get(id), accepted: false };
  }

  /** PATCH /applications/{id}/pickup: a new pickup date for an approved application. */
  async changePickup(actor: Actor, id: number, input: PickupUpdate): Promise<Application> {
    await this.deps.pickups.extend(actor, await this.require(id), input);
    return this.get(id);
  }

  /** POST /applications/{id}/lapse: the family did not pick the lot up. */
  async lapse(actor: Actor, id: number, input: LapseInput): Promise<Application> {
    await this.deps.pickups.lapse(actor, await this.require(id), input);
    return this.get(id);
  }

  /**
   * PATCH /applications/{id}/notes. The note that follows a status change sent without one (the
   * specification's client: status first, note in a second call) becomes that change's comment
   * instead of a line of its own, when it comes from the same staff member within
   * NOTE_ATTACH_WINDOW_MS and nothing else changed the application meanwhile. The change's event
   * (and the family's mail) went out with the change; the note adds application.note_added
   * naming the change it completes, as for any note.
   */
  async addNote(actor: Actor, id: number, input: ApplicationNoteInput): Promise<Application> {
    const app = await this.require(id);
    const open = app.note_open;
    if (
      open &&
      input.action === 'NOTE_ADD' &&
      open.email === actor.email &&
      open.role === actor.role &&
      Date.now() - Date.parse(open.at) <= NOTE_ATTACH_WINDOW_MS
    ) {
      const line = noteLine(authorOf(actor), open.action, input.comment, new Date(open.at));
      const event = createEvent(
        Events.ApplicationNoteAdded,
        { application_id: id, lot_id: app.lot_id, note: input.comment, status_action: open.action },
        actor,
      );
      if (await this.deps.applications.attachNote(app, line, [event])) return this.get(id);
    }
    const updated = await this.deps.applications.addNote(
      id,
      noteLine(authorOf(actor), input.action, input.comment),
      [
        createEvent(
          Events.ApplicationNoteAdded,
          { application_id: id, lot_id: app.lot_id, note: input.comment },
          actor,
        ),
      ],
    );
    if (!updated) throw new AppError('APPLICATION_NOT_FOUND');
    return this.get(id);
  }

  private async require(id: number): Promise<ApplicationRecord> {
    const app = await this.deps.applications.findById(id);
    if (!app) throw new AppError('APPLICATION_NOT_FOUND');
    return app;
  }

  /** Adds lots, queue places and each lot's holder to a page of applications. */
  private async present(apps: ApplicationRecord[]): Promise<Application[]> {
    const lotIds = [...new Set(apps.map((a) => a.lot_id))];
    const openLots = new Set(apps.filter(isOpen).map((a) => a.lot_id));
    const [lots, queues] = await Promise.all([
      this.deps.lots.getMany(lotIds),
      this.deps.applications.queuesOf(apps.filter((a) => openLots.has(a.lot_id))),
    ]);
    return apps.map((a) => {
      const queue = queues.get(a.lot_id);
      const index = queue?.open.indexOf(a.id) ?? -1;
      return toApplication(
        a,
        lots.get(a.lot_id) ?? null,
        index >= 0 ? index + 1 : null,
        this.deps.pickups.isOverdue(a),
        queue?.holder ?? null,
        this.deps.handoverLinks && ((seed: string) => this.deps.handoverLinks!.urlOf(seed)),
      );
    });
  }
}
