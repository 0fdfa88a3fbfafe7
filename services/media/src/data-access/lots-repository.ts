import type { LotSnapshot, LotStatus } from '@furniture/contracts';
import { isDuplicateKeyError, withDocLock } from '@furniture/platform';
import { lotKey, type LotDoc, type Models } from './models';

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

const docOf = (lot: LotSnapshot): LotDoc => ({
  _id: lotKey(lot.id),
  id: lot.id,
  status: lot.status,
  version: lot.version,
  updated_at: new Date(lot.updated_at),
  deleted: false,
});

/** (version, updated_at) of `lot` is older than what is stored. */
const isOlder = (lot: LotSnapshot, stored: LotDoc): boolean =>
  lot.version < stored.version ||
  (lot.version === stored.version && new Date(lot.updated_at) < stored.updated_at);

/**
 * The lots media needs to know about (does the lot exist?), fed by catalog's lot events and
 * rebuilt from its snapshot. Events may arrive out of order and more than once: a snapshot is
 * applied only when it is at least as new as the stored one (version, then updated_at, since
 * photo changes do not bump the version), and a deleted lot stays deleted.
 */
export class LotsRepository {
  constructor(private readonly models: Models) {}

  private get collection() {
    return this.models.Lot.collection;
  }

  private async findDoc(id: number): Promise<LotDoc | null> {
    return (await this.collection.findOne({ _id: lotKey(id) } as never)) as LotDoc | null;
  }

  async find(id: number): Promise<LotRecord | null> {
    const doc = await this.findDoc(id);
    return doc ? toRecord(doc) : null;
  }

  async isEmpty(): Promise<boolean> {
    return (await this.collection.countDocuments({}, { limit: 1 })) === 0;
  }

  /** Stores the snapshot unless a newer one (or the deletion) is stored; true when applied. */
  async apply(lot: LotSnapshot): Promise<boolean> {
    return withDocLock(this.collection, lotKey(lot.id), async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const stored = await this.findDoc(lot.id);
        if (stored && (stored.deleted || isOlder(lot, stored))) return false;
        const doc = docOf(lot);
        if (!stored) {
          try {
            await this.collection.insertOne(doc as never);
            return true;
          } catch (err) {
            if (isDuplicateKeyError(err)) continue; // another replica stored it meanwhile
            throw err;
          }
        }
        // guarded by what was read, so that across replicas (MongoDB) an older snapshot
        // cannot overwrite a newer one stored in between
        const res = await this.collection.updateOne(
          {
            _id: doc._id,
            version: stored.version,
            updated_at: stored.updated_at,
            deleted: false,
          } as never,
          { $set: { status: doc.status, version: doc.version, updated_at: doc.updated_at } },
        );
        if (res.matchedCount === 1) return true;
      }
      return false;
    });
  }

  /**
   * Fills an empty read model fast: one insert per page. Lots an event stored meanwhile collide
   * with the key and go through `apply`, so the newer of the two stays.
   */
  async insertPage(lots: LotSnapshot[]): Promise<number> {
    if (lots.length === 0) return 0;
    let collided: number[] = [];
    try {
      await this.collection.insertMany(lots.map(docOf) as never[], { ordered: false });
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
    const { _id, ...insert } = docOf(lot);
    await withDocLock(this.collection, _id, () =>
      this.collection.updateOne(
        { _id } as never,
        {
          $set: { deleted: true },
          $setOnInsert: {
            id: insert.id,
            status: insert.status,
            version: insert.version,
            updated_at: insert.updated_at,
          },
        },
        { upsert: true },
      ),
    );
  }
}
