import type { LotSnapshot, LotStatus } from '@furniture/contracts';
import { withDocLock } from '@furniture/platform';
import type { Collection } from 'mongodb';
import { keyOf, type LotDoc, type Models } from './models';

/** What this service knows of a lot (its read model). */
export interface LotView {
  id: number;
  name: { de: string; uk: string };
  status: LotStatus;
  category_id: number;
  photo: string | null;
  version: number;
  updated_at: string;
  deleted: boolean;
}

function toView(doc: LotDoc): LotView {
  return {
    id: doc.id,
    name: { de: doc.name?.de ?? '', uk: doc.name?.uk ?? '' },
    status: doc.status,
    category_id: doc.category_id,
    photo: doc.photo ?? null,
    version: doc.version,
    updated_at: doc.updated_at.toISOString(),
    deleted: doc.deleted ?? false,
  };
}

/** true when the stored state is newer than the incoming one (version, then updated_at). */
function isNewer(stored: LotDoc, incoming: LotSnapshot): boolean {
  if (stored.version !== incoming.version) return stored.version > incoming.version;
  return stored.updated_at.getTime() > Date.parse(incoming.updated_at);
}

/**
 * The read model of the catalog's lots: id, names, status, first photo. Events may arrive twice
 * or out of order, so a snapshot is applied only if it is not older than what is stored
 * (version first; photo changes keep the version, so updated_at decides between equals), and a
 * deleted lot stays deleted.
 */
export class LotsRepository {
  constructor(private readonly models: Models) {}

  private get collection() {
    return this.models.Lot.collection as unknown as Collection<LotDoc>;
  }

  /** Applies a lot snapshot; returns false when it was older than the stored state. */
  async apply(lot: LotSnapshot, opts: { deleted?: boolean } = {}): Promise<boolean> {
    return withDocLock(this.collection, lot.id, async () => {
      const stored = await this.models.Lot.findOne({ _id: keyOf(lot.id) }).lean<LotDoc>();
      if (!opts.deleted && stored && (stored.deleted || isNewer(stored, lot))) return false;
      const set: Omit<LotDoc, '_id'> = {
        id: lot.id,
        name: { de: lot.name.de, uk: lot.name.uk },
        status: lot.status,
        category_id: lot.category_id,
        photo: lot.photos[0] ?? null,
        version: lot.version,
        updated_at: new Date(lot.updated_at),
        deleted: opts.deleted ?? false,
      };
      // a deletion keeps the newest known names (an older snapshot may come with it)
      if (opts.deleted && stored && isNewer(stored, lot)) {
        await this.collection.updateOne({ _id: keyOf(lot.id) }, { $set: { deleted: true } });
      } else {
        await this.collection.updateOne({ _id: keyOf(lot.id) }, { $set: set }, { upsert: true });
      }
      return true;
    });
  }

  async get(id: number): Promise<LotView | null> {
    const doc = await this.models.Lot.findOne({ _id: keyOf(id) }).lean<LotDoc>();
    return doc ? toView(doc) : null;
  }

  async getMany(ids: number[]): Promise<Map<number, LotView>> {
    const out = new Map<number, LotView>();
    if (ids.length === 0) return out;
    // one primary-key read per lot is faster on FerretDB than one scan for all (see keyOf)
    const docs = await Promise.all(
      ids.map((id) => this.models.Lot.findOne({ _id: keyOf(id) }).lean<LotDoc>()),
    );
    for (const d of docs) if (d) out.set(d.id, toView(d));
    return out;
  }

  async isEmpty(): Promise<boolean> {
    return (await this.models.Lot.countDocuments({}, { limit: 1 })) === 0;
  }
}
