import { isDuplicateKeyError, withDocLock } from '@furniture/platform';
import type { Models, ReservationDoc } from './models';

export interface Reservation {
  lot_id: number;
  application_id: number;
  created_at: Date;
}

/**
 * One reservation slot per lot (unique index on lot_id): the approved application holds it.
 * Claiming is an insert, so two approvals of one lot at the same moment cannot both win, in one
 * process or across replicas, on MongoDB and on FerretDB alike.
 */
export class ReservationsRepository {
  constructor(private readonly models: Models) {}

  /** true when this application now holds the lot's slot; false when another one does. */
  async claim(lotId: number, applicationId: number): Promise<boolean> {
    try {
      await this.models.Reservation.collection.insertOne({
        lot_id: lotId,
        application_id: applicationId,
        created_at: new Date(),
      });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  async find(lotId: number): Promise<Reservation | null> {
    const doc = await this.models.Reservation.findOne(
      { lot_id: lotId },
      { _id: 0, lot_id: 1, application_id: 1, created_at: 1 },
    ).lean<ReservationDoc>();
    return doc
      ? { lot_id: doc.lot_id, application_id: doc.application_id, created_at: doc.created_at }
      : null;
  }

  /** Frees the slot if (and only if) this application holds it. */
  async release(lotId: number, applicationId: number): Promise<boolean> {
    const res = await withDocLock(this.models.Reservation.collection, lotId, () =>
      this.models.Reservation.collection.deleteOne({
        lot_id: lotId,
        application_id: applicationId,
      }),
    );
    return res.deletedCount === 1;
  }
}
