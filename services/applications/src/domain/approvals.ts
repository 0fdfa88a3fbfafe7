import { Events, type Actor } from '@furniture/contracts';
import { AppError, createEvent, type LotLookup } from '@furniture/platform/domain';
import type { ApplicationsRepository } from '../data-access/applications-repository';
import type { ApplicationRecord } from './records';

/** Only the actor's fields (a token's actor carries its session too). */
export const actorOf = (a: Actor): Actor => ({
  id: a.id,
  name: a.name,
  email: a.email,
  role: a.role,
});

/**
 * Asks the catalog to reserve the lot for an application (application.approval_requested); the
 * application becomes approved when lot.reserved arrives (LotReactions). Refused at once when the
 * read model already shows the lot unavailable or another application of it approved or
 * awaiting approval; the catalog's conditional reservation decides between requests that pass
 * together. `requestedBy` null: the system (a lapsed lot offered to the next family).
 */
export async function requestApproval(
  deps: { applications: ApplicationsRepository; lots: LotLookup },
  app: ApplicationRecord,
  request: { requestedBy: Actor | null; note: string | null; pickupBy: string },
): Promise<void> {
  const [lot, holder] = await Promise.all([
    deps.lots.get(app.lot_id),
    deps.applications.reservationHolder(app.lot_id, app.id),
  ]);
  if (holder !== null) throw new AppError('LOT_ALREADY_RESERVED');
  if (!lot || lot.deleted || lot.status !== 'available') throw new AppError('LOT_NOT_AVAILABLE');
  const requestedBy = request.requestedBy ? actorOf(request.requestedBy) : null;
  const updated = await deps.applications.requestApproval(
    app.id,
    { requested_by: requestedBy, note: request.note, pickup_by: request.pickupBy },
    [
      createEvent(
        Events.ApplicationApprovalRequested,
        { application_id: app.id, lot_id: app.lot_id, note: request.note },
        requestedBy,
      ),
    ],
  );
  if (!updated) {
    const now = await deps.applications.findById(app.id);
    throw new AppError('APPLICATION_CHANGED', { params: { status: now?.status ?? 'unknown' } });
  }
}
