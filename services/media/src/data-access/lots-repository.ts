import type { LotSnapshot, LotStatus } from '@furniture/contracts';
import { isDuplicateKeyError, withDocLock } from '@furniture/platform';
import type { LotDoc, Models } from './models';

export interface LotRecord {
  id: number;
  status: LotStatus;
  version: number;
  updated_at: string;
  deleted: boolean;
}

const toRecord = (doc: LotDoc): LotRecord => ({
  id: doc.id,
  status: doc.status,
  version: doc.version,
  updated_at: doc.updated_at.toISOString(),
  deleted: doc.deleted,
});

/**
 * The lots media needs to know about (does the lot exist?), fed by catalog's lot events and
 * rebuilt from its snapshot. Events may arrive out of order and more than once: a snapshot is
 * applied only when it is at least as new as the stored one (version, then updated_at, since
 * photo changes do not bump the version), and a deleted lot stays deleted.
 */
export class LotsRepository {
  constructor(private readonly models: Models) {}

  async find(id: number): Promise<LotRecord | null> {
    const doc = await this.models.Lot.findOne({ id }).lean<LotDoc>();
    return doc ? toRecord(doc) : null;
  }

  async isEmpty(): Promise<boolean> {
    return (await this.models.Lot.countDocuments({}, { limit: 1 })) === 0;
  }

  /** Stores the snapshot unless a newer one (or the deletion) is stored; true when applied. */
  async apply(lot: LotSnapshot): Promise<boolean> {
    const updatedAt = new Date(lot.updated_at);
    const collection = this.models.Lot.collection;
    return withDocLock(collection, lot.id, async () => {
      try {
        const res = await collection.updateOne(
          {
            id: lot.id,
            deleted: { $ne: true },
            $or: [
              { version: { $lt: lot.version } },
              { version: lot.version, updated_at: { $lte: updatedAt } },
            ],
          },
          {
            $set: { status: lot.status, version: lot.version, updated_at: updatedAt },
            $setOnInsert: { deleted: false },
          },
          { upsert: true },
        );
        return res.matchedCount + res.upsertedCount > 0;
      } catch (err) {
        // the guard did not match an existing lot, so the upsert collided with it: ours is older
        if (isDuplicateKeyError(err)) return false;
        throw err;
      }
    });
  }

  /**
   * Fills an empty read model fast: one insert per page. Lots an event stored meanwhile collide
   * with the unique id and go through `apply`, so the newer of the two stays.
   */
  async insertPage(lots: LotSnapshot[]): Promise<number> {
    if (lots.length === 0) return 0;
    const docs: LotDoc[] = lots.map((lot) => ({
      id: lot.id,
      status: lot.status,
      version: lot.version,
      updated_at: new Date(lot.updated_at),
      deleted: false,
    }));
    let collided: number[] = [];
    try {
      await this.models.Lot.collection.insertMany(docs, { ordered: false });
    } catch (err) {
      const writeErrors = (err as { writeErrors?: { index: number; code?: number }[] }).writeErrors;
      if (!writeErrors || !writeErrors.every((e) => e.code === 11000)) throw err;
      collided = writeErrors.map((e) => e.index);
    }
    for (const index of collided) await this.apply(lots[index]!);
    return lots.length;
  }

  /** Marks the lot deleted for good (also when media never heard of it). */
  async markDeleted(lot: LotSnapshot): Promise<void> {
    const collection = this.models.Lot.collection;
    await withDocLock(collection, lot.id, () =>
      collection.updateOne(
        { id: lot.id },
        {
          $set: { deleted: true },
          $setOnInsert: {
            status: lot.status,
            version: lot.version,
            updated_at: new Date(lot.updated_at),
          },
        },
        { upsert: true },
      ),
    );
  }
}
