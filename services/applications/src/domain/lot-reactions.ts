import type { Actor, ApplicationStatus, EventPayload, Events } from '@furniture/contracts';
import type {
  ApplicationRecord,
  ApplicationsRepository,
} from '../data-access/applications-repository';
import type { LotsRepository } from '../data-access/lots-repository';
import type { ReservationsRepository } from '../data-access/reservations-repository';
import type { QueueCounts } from './queue-counts';
import { SYSTEM_AUTHOR } from './notes';
import { changeStatus, type ChangeReason } from './status-changes';

export interface LotReactionsDeps {
  applications: ApplicationsRepository;
  lots: LotsRepository;
  reservations: ReservationsRepository;
  queueCounts: QueueCounts;
  onEvents: () => void;
}

type Payload<N extends (typeof Events)[keyof typeof Events]> = EventPayload<N>;

const lotStatusDe: Record<string, string> = {
  available: 'verfügbar',
  reserved: 'reserviert',
  transferred: 'übertragen',
  taken: 'übernommen',
  archived: 'archiviert',
};

/**
 * The applications side of the approval flow (ARCHITECTURE.md "Events"), driven by the catalog's
 * lot events. Every handler is safe to run twice: each change is a guarded transition of one
 * application, and an application that has moved on meanwhile is left alone.
 */
export class LotReactions {
  constructor(private readonly deps: LotReactionsDeps) {}

  /** lot.created / lot.updated: the read model only. */
  async lotChanged(p: Payload<typeof Events.LotCreated>): Promise<void> {
    await this.deps.lots.apply(p.lot);
  }

  /**
   * lot.reserved: the catalog reserved the lot for one approved application; the lot's other
   * pending applications are rejected with a note saying why. Skipped when that application is
   * no longer approved (its reservation was cancelled meanwhile; the catalog frees the lot).
   */
  async lotReserved(p: Payload<typeof Events.LotReserved>, actor: Actor | null): Promise<void> {
    await this.deps.lots.apply(p.lot);
    const winner = await this.deps.applications.findById(p.application_id);
    if (winner?.status !== 'approved' || winner.lot_id !== p.lot.id) return;
    const others = (await this.deps.applications.ofLot(p.lot.id, ['pending'])).filter(
      (a) => a.id !== winner.id,
    );
    await this.moveAll(others, 'rejected', {
      reason: 'competitor_approved',
      note: `Automatisch abgelehnt: Das Lot wurde für Bewerbung #${winner.id} reserviert.`,
      actor,
    });
  }

  /** lot.reservation_failed: the catalog could not reserve the lot; the approval is undone. */
  async reservationFailed(p: Payload<typeof Events.LotReservationFailed>): Promise<void> {
    const app = await this.deps.applications.findById(p.application_id);
    if (app?.status === 'approved' && app.lot_id === p.lot_id) {
      const why =
        p.reason === 'not_found'
          ? 'das Lot existiert nicht mehr'
          : `das Lot ist ${lotStatusDe[p.lot_status ?? ''] ?? p.lot_status ?? 'nicht verfügbar'}`;
      await this.moveAll([app], 'pending', {
        reason: 'reservation_failed',
        note: `Genehmigung zurückgenommen: Das Lot konnte nicht reserviert werden (${why}).`,
        actor: null,
      });
    }
    // whatever the application's status now, a slot it still holds is of no use any more
    if (app?.status !== 'approved') {
      await this.deps.reservations.release(p.lot_id, p.application_id);
    }
  }

  /** lot.deleted: the lot's open applications are closed. */
  async lotDeleted(p: Payload<typeof Events.LotDeleted>, actor: Actor | null): Promise<void> {
    await this.deps.lots.apply(p.lot, { deleted: true });
    const open = await this.deps.applications.ofLot(p.lot.id, ['pending', 'approved']);
    await this.moveAll(open, 'rejected', {
      reason: 'lot_deleted',
      note: 'Automatisch abgelehnt: Das Lot wurde gelöscht.',
      actor,
    });
  }

  /**
   * lot.status_changed. Changes the approval flow itself caused only update the read model.
   * A staff change in the lot form (if it is still the lot's status):
   * - archived: open applications are rejected (the lot is withdrawn);
   * - taken / transferred: the approved application is completed (the family got it), pending
   *   ones are rejected;
   * - available while an application is approved: that reservation is cancelled (back to the
   *   queue), so the lot and the applications agree again;
   * - reserved: nothing (staff may hold a lot aside; the queue waits).
   */
  async lotStatusChanged(
    p: Payload<typeof Events.LotStatusChanged>,
    actor: Actor | null,
  ): Promise<void> {
    await this.deps.lots.apply(p.lot);
    if (p.cause !== 'staff') return;
    // events are handled concurrently: act on the lot as it is now, so that a change staff made
    // afterwards (reopening an archived lot) wins over this one
    const lotId = p.lot.id;
    const current = await this.deps.lots.get(lotId);
    if (!current || current.deleted || current.status !== p.new_status) return;
    const by = actor ? ` von ${actor.email}` : '';
    switch (p.new_status) {
      case 'archived': {
        const open = await this.deps.applications.ofLot(lotId, ['pending', 'approved']);
        await this.moveAll(open, 'rejected', {
          reason: 'lot_closed',
          note: `Automatisch abgelehnt: Das Lot wurde${by} archiviert.`,
          actor,
        });
        return;
      }
      case 'taken':
      case 'transferred': {
        const label = lotStatusDe[p.new_status];
        const approved = await this.deps.applications.ofLot(lotId, ['approved']);
        await this.moveAll(approved, 'completed', {
          reason: 'lot_closed',
          note: `Automatisch abgeschlossen: Das Lot wurde${by} als ${label} markiert.`,
          actor,
        });
        const pending = await this.deps.applications.ofLot(lotId, ['pending']);
        await this.moveAll(pending, 'rejected', {
          reason: 'lot_closed',
          note: `Automatisch abgelehnt: Das Lot wurde${by} als ${label} markiert.`,
          actor,
        });
        return;
      }
      case 'available': {
        const approved = await this.deps.applications.ofLot(lotId, ['approved']);
        await this.moveAll(approved, 'pending', {
          reason: 'staff',
          note: `Reservierung aufgehoben: Das Lot wurde${by} wieder auf verfügbar gesetzt.`,
          actor,
        });
        return;
      }
      default:
        return;
    }
  }

  private async moveAll(
    apps: ApplicationRecord[],
    to: ApplicationStatus,
    opts: { reason: ChangeReason; note: string; actor: Actor | null },
  ): Promise<void> {
    let changed = 0;
    for (const app of apps) {
      const updated = await changeStatus(this.deps, app, to, { ...opts, author: SYSTEM_AUTHOR });
      if (updated) changed++;
    }
    if (changed > 0) this.deps.onEvents();
  }
}
