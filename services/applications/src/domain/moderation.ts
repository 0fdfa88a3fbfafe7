import {
  Events,
  type Actor,
  type Application,
  type ApplicationNoteInput,
  type ApplicationStats,
  type ApplicationStatusUpdate,
  type ApplicationsPage,
  type ApplicationsQuery,
} from '@furniture/contracts';
import { AppError, createEvent } from '@furniture/platform';
import type {
  ApplicationRecord,
  ApplicationsRepository,
} from '../data-access/applications-repository';
import type { LotView, LotsRepository } from '../data-access/lots-repository';
import type { ReservationsRepository } from '../data-access/reservations-repository';
import type { QueueCounts } from './queue-counts';
import { noteLine, parseNotes, type NoteAuthor } from './notes';
import { changeStatus, lotName, staffTransition } from './status-changes';

export interface ModerationDeps {
  applications: ApplicationsRepository;
  lots: LotsRepository;
  reservations: ReservationsRepository;
  queueCounts: QueueCounts;
  /** a slot whose holder never became approved is given up after this long */
  staleClaimMs: number;
  onEvents: () => void;
}

const authorOf = (actor: Actor): NoteAuthor => ({ role: actor.role, email: actor.email });

/** The staff view of an application: its notes parsed, its place in the queue, its lot. */
export function toApplication(
  app: ApplicationRecord,
  lot: LotView | null,
  position: number | null,
): Application {
  const { notes, lot_name: _name, ...fields } = app;
  return {
    ...fields,
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
        }
      : null,
  };
}

/**
 * Staff moderation: the list, stats and lookups, status changes along back-office §4, and notes.
 *
 * Approving claims the lot's single reservation slot first (a unique index), so of two approvals
 * of one lot at the same moment exactly one wins; the catalog then reserves the lot and the
 * lot's other applications are rejected when its lot.reserved arrives (see LotReactions).
 */
export class Moderation {
  constructor(private readonly deps: ModerationDeps) {}

  async list(q: ApplicationsQuery): Promise<ApplicationsPage> {
    const page = await this.deps.applications.list(q);
    return { applications: await this.present(page.applications), total: page.total };
  }

  async byPhone(phone: string, limit: number, skip: number): Promise<ApplicationsPage> {
    const page = await this.deps.applications.list({ phone, limit, skip });
    return { applications: await this.present(page.applications), total: page.total };
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

  async changeStatus(
    actor: Actor,
    id: number,
    input: ApplicationStatusUpdate,
  ): Promise<Application> {
    const app = await this.require(id);
    if (app.status === 'completed') throw new AppError('APPLICATION_COMPLETED');
    const transition = staffTransition(app.status, input.status);
    if (!transition) {
      throw new AppError('APPLICATION_TRANSITION_NOT_ALLOWED', {
        params: { from: app.status, to: input.status },
      });
    }
    if (transition.to === 'approved') await this.claimReservation(app);
    const updated = await changeStatus(this.deps, app, input.status, {
      reason: 'staff',
      note: input.note,
      author: authorOf(actor),
      actor,
    });
    if (!updated) {
      if (transition.to === 'approved') await this.deps.reservations.release(app.lot_id, app.id);
      const now = await this.require(id);
      throw new AppError('APPLICATION_CHANGED', { params: { status: now.status } });
    }
    this.deps.onEvents();
    return this.get(id);
  }

  async addNote(actor: Actor, id: number, input: ApplicationNoteInput): Promise<Application> {
    const app = await this.require(id);
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
    this.deps.onEvents();
    return this.get(id);
  }

  /**
   * Takes the lot's reservation slot for this application, or refuses: the lot must be available
   * in the read model and no other application of it may be approved.
   */
  private async claimReservation(app: ApplicationRecord): Promise<void> {
    const { applications, lots, reservations } = this.deps;
    const [lot, approved, slot] = await Promise.all([
      lots.get(app.lot_id),
      applications.countByLotAndStatus(app.lot_id, 'approved'),
      reservations.find(app.lot_id),
    ]);
    if (approved > 0 || (slot && slot.application_id !== app.id && !this.isStale(slot))) {
      throw new AppError('LOT_ALREADY_RESERVED');
    }
    if (!lot || lot.deleted || lot.status !== 'available') throw new AppError('LOT_NOT_AVAILABLE');
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await reservations.claim(app.lot_id, app.id)) return;
      const holder = await reservations.find(app.lot_id);
      if (!holder) continue; // released in between: try again
      if (holder.application_id === app.id) return; // left over from an earlier attempt of ours
      const holderApp = await applications.findById(holder.application_id);
      // a slot whose application never became approved (a crash between claim and save)
      if (holderApp?.status !== 'approved' && this.isStale(holder)) {
        await reservations.release(holder.lot_id, holder.application_id);
        continue;
      }
      throw new AppError('LOT_ALREADY_RESERVED');
    }
    throw new AppError('LOT_ALREADY_RESERVED');
  }

  private isStale(slot: { created_at: Date }): boolean {
    return Date.now() - slot.created_at.getTime() > this.deps.staleClaimMs;
  }

  private async require(id: number): Promise<ApplicationRecord> {
    const app = await this.deps.applications.findById(id);
    if (!app) throw new AppError('APPLICATION_NOT_FOUND');
    return app;
  }

  /** Adds lots and queue places to a page of applications (two queries for the whole page). */
  private async present(apps: ApplicationRecord[]): Promise<Application[]> {
    const lotIds = [...new Set(apps.map((a) => a.lot_id))];
    const openLots = [
      ...new Set(
        apps.filter((a) => a.status === 'pending' || a.status === 'approved').map((a) => a.lot_id),
      ),
    ];
    const [lots, queues] = await Promise.all([
      this.deps.lots.getMany(lotIds),
      this.deps.applications.openIdsByLot(openLots),
    ]);
    return apps.map((a) => {
      const index = queues.get(a.lot_id)?.indexOf(a.id) ?? -1;
      return toApplication(a, lots.get(a.lot_id) ?? null, index >= 0 ? index + 1 : null);
    });
  }
}
