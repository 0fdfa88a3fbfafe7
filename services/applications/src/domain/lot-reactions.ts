import {
  Events,
  type Actor,
  type ApplicationStatus,
  type EventPayload,
} from '@furniture/contracts';
import { createEvent, type LotLookup } from '@furniture/platform/domain';
import type { ApplicationsRepository } from '../data-access/applications-repository';
import type { ApplicationRecord } from './records';
import type { HandoverLinks } from './handover-links';
import type { Pickups } from './pickups';
import { authorOf, noteLine, SYSTEM_AUTHOR } from './notes';
import { changeStatus, type ChangeOptions } from './status-changes';

export interface LotReactionsDeps {
  /** the booking link of an approval, the booking given back when it ends (issue 29) */
  handoverLinks?: HandoverLinks;
  applications: ApplicationsRepository;
  lots: LotLookup;
  pickups: Pickups;
}

const lotStatusDe: Record<string, string> = {
  available: 'verfügbar',
  reserved: 'reserviert',
  transferred: 'übertragen',
  taken: 'übernommen',
  archived: 'archiviert',
};

/**
 * The applications side of the approval saga (ARCHITECTURE.md "Events", docs/event-flows.md),
 * driven by the catalog's lot events. Every handler is safe to run twice and in any order: each
 * change is a guarded transition of one application, and an application that has moved on
 * meanwhile is left alone.
 */
export class LotReactions {
  constructor(private readonly deps: LotReactionsDeps) {}

  /** lot.created / lot.updated: the read model only. */
  async lotChanged(p: EventPayload<typeof Events.LotCreated>): Promise<void> {
    await this.deps.lots.apply(p.lot);
  }

  /**
   * lot.reserved: the catalog reserved the lot for an application whose approval was requested.
   * The lot's other pending applications are rejected (each remembers for whom, so that a later
   * cancellation brings them back), then the application becomes approved: application.approved
   * is final. A reservation for a request that ended meanwhile is given back.
   */
  async lotReserved(p: EventPayload<typeof Events.LotReserved>): Promise<void> {
    await this.deps.lots.apply(p.lot);
    const winner = await this.deps.applications.findById(p.application_id);
    if (!winner || winner.lot_id !== p.lot.id) return;
    const awaiting = winner.status === 'pending' && winner.approval?.state === 'requested';
    if (winner.status !== 'approved' && !awaiting) {
      await this.deps.applications.addEvents(winner.id, [
        createEvent(Events.ApplicationApprovalWithdrawn, {
          application_id: winner.id,
          lot_id: winner.lot_id,
        }),
      ]);
      return;
    }
    const approval = winner.approval;
    const requester = approval?.requested_by ?? null;
    const others = (await this.deps.applications.ofLot(p.lot.id, ['pending'])).filter(
      (a) => a.id !== winner.id,
    );
    await this.moveAll(others, 'rejected', {
      reason: 'competitor_approved',
      note: `Automatisch abgelehnt: Das Lot wurde für Bewerbung #${winner.id} reserviert.`,
      actor: requester,
      rejectedFor: winner.id,
    });
    if (awaiting && approval) {
      await changeStatus(this.deps, winner, 'approved', {
        reason: 'staff',
        note: approval.note,
        author: requester ? authorOf(requester) : SYSTEM_AUTHOR,
        actor: requester,
        requireApprovalRequested: true,
        pickupBy: approval.pickup_by ?? this.deps.pickups.defaultPickupBy(),
      });
    }
  }

  /**
   * lot.reservation_failed: the catalog could not reserve the lot, so the approval request ends
   * without an approval. The application stays pending and shows why; when the lot is gone it is
   * rejected (there is nothing left to wait for).
   */
  async reservationFailed(p: EventPayload<typeof Events.LotReservationFailed>): Promise<void> {
    const app = await this.deps.applications.findById(p.application_id);
    if (!app || app.lot_id !== p.lot_id) return;
    if (app.status === 'approved') {
      // an approval of an earlier version of this service (approved before reserving)
      await this.moveAll([app], 'pending', {
        reason: 'reservation_failed',
        note: 'Genehmigung zurückgenommen: Das Lot konnte nicht reserviert werden.',
        actor: null,
      });
      return;
    }
    if (app.status !== 'pending' || app.approval?.state !== 'requested') return;
    const requester = app.approval.requested_by;
    if (p.reason === 'not_found') {
      await this.moveAll([app], 'rejected', {
        reason: 'lot_deleted',
        note: 'Automatisch abgelehnt: Das Lot existiert nicht mehr.',
        actor: requester,
        requireApprovalRequested: true,
      });
      return;
    }
    const label = lotStatusDe[p.lot_status ?? ''] ?? p.lot_status ?? 'nicht verfügbar';
    await this.deps.applications.failApproval(
      app.id,
      { reason: p.reason, lot_status: p.lot_status },
      noteLine(
        SYSTEM_AUTHOR,
        'APPROVE',
        `Genehmigung nicht möglich: Das Lot ist ${label}. Die Bewerbung bleibt ausstehend.`,
      ),
      [
        createEvent(
          Events.ApplicationApprovalFailed,
          {
            application_id: app.id,
            lot_id: app.lot_id,
            reason: p.reason,
            lot_status: p.lot_status,
          },
          requester,
        ),
      ],
    );
  }

  /** lot.deleted: the lot's open applications are closed (approval requests included). */
  async lotDeleted(p: EventPayload<typeof Events.LotDeleted>, actor: Actor | null): Promise<void> {
    await this.deps.lots.markDeleted(p.lot);
    const open = await this.deps.applications.ofLot(p.lot.id, ['pending', 'approved']);
    await this.moveAll(open, 'rejected', {
      reason: 'lot_deleted',
      note: 'Automatisch abgelehnt: Das Lot wurde gelöscht.',
      actor,
    });
  }

  /**
   * lot.status_changed. A reservation given back (staff cancelled it) brings back, in their old
   * queue order, the applications that were rejected because of it. Other changes the saga
   * itself caused only update the read model. A staff change in the lot form (if it is still the
   * lot's status):
   * - archived: open applications are rejected (the lot is withdrawn);
   * - taken / transferred: the approved application is completed (the family got it), pending
   *   ones are rejected;
   * - available while an application is approved: that reservation is cancelled (back to the
   *   queue) and its rivals come back, so the lot and the applications agree again;
   * - reserved: nothing (staff may hold a lot aside; the queue waits).
   */
  async lotStatusChanged(
    p: EventPayload<typeof Events.LotStatusChanged>,
    actor: Actor | null,
  ): Promise<void> {
    await this.deps.lots.apply(p.lot);
    const lotId = p.lot.id;
    // events are handled concurrently: act on the lot as it is now, so that a change staff made
    // afterwards (reopening an archived lot) wins over this one
    const current = await this.deps.lots.get(lotId);
    if (!current || current.deleted || current.status !== p.new_status) return;
    if (p.cause === 'reservation_cancelled' && p.application_id !== null) {
      await this.bringBackRivals(lotId, p.application_id, actor);
      return;
    }
    if (p.cause === 'pickup_lapsed' && p.application_id !== null) {
      await this.bringBackRivals(lotId, p.application_id, actor);
      await this.deps.pickups.offerNext(lotId, p.application_id);
      return;
    }
    if (p.cause !== 'staff') return;
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
        for (const app of approved) await this.bringBackRivals(lotId, app.id, actor);
        return;
      }
      default:
        return;
    }
  }

  /**
   * The applications rejected because the lot was reserved for `holderId` return to pending;
   * their ids keep their old places in the queue. Staff's own rejections stay.
   */
  private async bringBackRivals(
    lotId: number,
    holderId: number,
    actor: Actor | null,
  ): Promise<void> {
    const rivals = await this.deps.applications.rejectedFor(lotId, holderId);
    await this.moveAll(rivals, 'pending', {
      reason: 'reservation_cancelled',
      note: `Wieder in der Warteschlange: Die Reservierung für Bewerbung #${holderId} wurde aufgehoben.`,
      actor,
    });
  }

  private async moveAll(
    apps: ApplicationRecord[],
    to: ApplicationStatus,
    opts: Omit<ChangeOptions, 'author'>,
  ): Promise<void> {
    // each its own document and lock: side by side, so that a lot's last rival is not kept
    // waiting behind the others (the family's place and mail do not depend on the order)
    await Promise.all(
      apps.map((app) => changeStatus(this.deps, app, to, { ...opts, author: SYSTEM_AUTHOR })),
    );
  }
}
