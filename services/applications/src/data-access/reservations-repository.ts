import type { Collection } from 'mongodb';
import { isDuplicateKeyError, withDocLock } from '@furniture/platform';
import { keyOf, type Models, type ReservationDoc } from './models';

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

  private get collection() {
    return this.models.Reservation.collection as unknown as Collection<ReservationDoc>;
  }

  /** true when this application now holds the lot's slot; false when another one does. */
  async claim(lotId: number, applicationId: number): Promise<boolean> {
    try {
      await this.collection.insertOne({
        _id: keyOf(lotId),
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
    const doc = await this.models.Reservation.findOne({ _id: keyOf(lotId) }).lean<ReservationDoc>();
    return doc
      ? { lot_id: doc.lot_id, application_id: doc.application_id, created_at: doc.created_at }
      : null;
  }

  /** Frees the slot if (and only if) this application holds it. */
  async release(lotId: number, applicationId: number): Promise<boolean> {
    const res = await withDocLock(this.collection, lotId, () =>
      this.collection.deleteOne({
        _id: keyOf(lotId),
        application_id: applicationId,
      }),
    );
    return res.deletedCount === 1;
  }
}
