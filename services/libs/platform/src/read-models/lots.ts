import type { Collection } from 'mongodb';
import { z } from 'zod';
import {
  LOT_SNAPSHOT_PATH,
  lotSnapshotSchema,
  type LotSnapshot,
  type LotStatus,
} from '@furniture/contracts';
import type { InternalClient } from '../internal-calls';
import type { LotLookup, LotSnapshotSource, LotView } from './lot-view';
import { docKey } from '../store/collection';
import { withDocLock } from '../store/locks';
import { sleep } from '../time';
import type { Logger } from '../logger';
import { insertedUnlessTaken, insertManyKeepingExisting, type Connection } from '../mongo';

interface LotDoc {
  /** docKey(id) */
  _id: string;
  id: number;
  name?: { de?: string; uk?: string };
  status: LotStatus;
  category_id?: number;
  photo?: string | null;
  version: number;
  updated_at: Date;
  deleted: boolean;
  label_code?: string | null;
}

function docOf(lot: LotSnapshot): LotDoc {
  return {
    _id: docKey(lot.id),
    id: lot.id,
    name: { de: lot.name.de, uk: lot.name.uk },
    status: lot.status,
    category_id: lot.category_id,
    photo: lot.photos[0] ?? null,
    version: lot.version,
    updated_at: new Date(lot.updated_at),
    deleted: false,
    // a snapshot of an earlier version says nothing of the code: what is stored stays
    ...(lot.label_code !== undefined ? { label_code: lot.label_code } : {}),
  };
}

function toView(doc: LotDoc): LotView {
  return {
    id: doc.id,
    name: { de: doc.name?.de ?? '', uk: doc.name?.uk ?? '' },
    status: doc.status,
    category_id: doc.category_id ?? 0,
    photo: doc.photo ?? null,
    version: doc.version,
    updated_at: doc.updated_at.toISOString(),
    deleted: doc.deleted ?? false,
    label_code: doc.label_code ?? null,
  };
}

/** (version, then updated_at: photo changes keep the version) of `lot` is older than stored. */
const isOlder = (lot: LotSnapshot, stored: LotDoc): boolean =>
  lot.version < stored.version ||
  (lot.version === stored.version && new Date(lot.updated_at) < stored.updated_at);

/**
 * The read model of the catalog's lots that the applications and media services keep, fed by
 * lot events and rebuilt from the catalog's snapshot. Events arrive more than once and out of
 * order, and replicas apply them at the same time, so:
 * - a snapshot is applied only when it is at least as new as the stored one, and the update's
 *   filter carries the version it was compared with (another replica's newer write in between
 *   makes it match nothing, and it is compared again);
 * - a deleted lot stays deleted.
 */
export class LotReadModel implements LotLookup {
  private readonly collection: Collection<LotDoc>;

  constructor(conn: Connection, collectionName = 'lots') {
    this.collection = conn.collection<LotDoc>(collectionName) as unknown as Collection<LotDoc>;
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ id: 1 }, { unique: true });
    // the lots matching a wish: available lots of a category
    await this.collection.createIndex({ category_id: 1, status: 1, id: 1 });
    // the item scanned at a handover (issue 45)
    await this.collection.createIndex({ label_code: 1 });
  }

  /** Stores the snapshot unless a newer one (or the deletion) is stored; true when applied. */
  async apply(lot: LotSnapshot): Promise<boolean> {
    const doc = docOf(lot);
    return withDocLock(this.collection, doc._id, async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const stored = await this.collection.findOne({ _id: doc._id });
        if (stored && (stored.deleted || isOlder(lot, stored))) return false;
        if (!stored) {
          if (await insertedUnlessTaken(() => this.collection.insertOne(doc))) return true;
          continue; // another replica stored it meanwhile
        }
        const { _id, ...set } = doc;
        const res = await this.collection.updateOne(
          { _id, version: stored.version, updated_at: stored.updated_at, deleted: false },
          { $set: set },
        );
        if (res.matchedCount === 1) return true;
      }
      return false;
    });
  }

  /** Marks the lot deleted for good, keeping the newest names known (also for unknown lots). */
  async markDeleted(lot: LotSnapshot): Promise<void> {
    const { _id, ...fields } = docOf(lot);
    await withDocLock(this.collection, _id, async () => {
      const stored = await this.collection.findOne({ _id });
      const set = stored && isOlder(lot, stored) ? { deleted: true } : { ...fields, deleted: true };
      await this.collection.updateOne({ _id }, { $set: set }, { upsert: true });
    });
  }

  /**
   * Fills an empty read model fast: one insert per page. Lots an event stored meanwhile collide
   * with the key and go through `apply`, so the newer of the two stays.
   */
  async insertPage(lots: LotSnapshot[]): Promise<number> {
    if (lots.length === 0) return 0;
    const collided = await insertManyKeepingExisting(this.collection, lots.map(docOf));
    for (const index of collided) await this.apply(lots[index]!);
    return lots.length;
  }

  async get(id: number): Promise<LotView | null> {
    const doc = await this.collection.findOne({ _id: docKey(id) });
    return doc ? toView(doc) : null;
  }

  async getMany(ids: number[]): Promise<Map<number, LotView>> {
    const out = new Map<number, LotView>();
    // one primary-key read per lot is faster on FerretDB than one scan for all
    const docs = await Promise.all(ids.map((id) => this.collection.findOne({ _id: docKey(id) })));
    for (const d of docs) if (d) out.set(d.id, toView(d));
    return out;
  }

  async availableByCategory(
    categoryIds: number[],
    perCategory: number,
  ): Promise<Map<number, LotView[]>> {
    const out = new Map<number, LotView[]>();
    await Promise.all(
      [...new Set(categoryIds)].map(async (categoryId) => {
        const docs = await this.collection
          .find({ category_id: categoryId, status: 'available', deleted: false })
          .sort({ id: 1 })
          .limit(perCategory)
          .toArray();
        out.set(categoryId, docs.map(toView));
      }),
    );
    return out;
  }

  async byLabelCode(code: string): Promise<LotView | null> {
    const doc = await this.collection.findOne({ label_code: code, deleted: false });
    return doc ? toView(doc) : null;
  }

  async isEmpty(): Promise<boolean> {
    return (await this.collection.countDocuments({}, { limit: 1 })) === 0;
  }
}

const pageSchema = z.object({
  lots: z.array(lotSnapshotSchema),
  next_after_id: z.number().int().nullable(),
});

/** The catalog's internal snapshot endpoint (contracts api/internal.ts). */
export function catalogSnapshotSource(catalog: InternalClient): LotSnapshotSource {
  return {
    lotSnapshotPage: (afterId, limit) =>
      catalog.call('GET', LOT_SNAPSHOT_PATH, {
        query: { after_id: String(afterId), limit: String(limit) },
        answer: pageSchema,
      }),
  };
}

/**
 * Loads an empty (or, with 'always', any) read model from the catalog's snapshot at start,
 * retrying with backoff while the catalog is unreachable; the service answers meanwhile from the
 * events that arrive.
 */
export class LotReadModelSync {
  private readonly stopped = new AbortController();
  private running?: Promise<void>;

  constructor(
    private readonly deps: {
      lots: LotReadModel;
      source: LotSnapshotSource;
      logger: Logger;
      pageSize: number;
      /** first wait after the catalog did not answer; doubles up to 30 s */
      firstRetryMs?: number;
    },
  ) {}

  /** One full pass over the snapshot; returns the number of lots read. */
  async syncAll(mode: 'insert' | 'apply' = 'apply'): Promise<number> {
    let afterId = 0;
    let read = 0;
    for (;;) {
      const page = await this.deps.source.lotSnapshotPage(afterId, this.deps.pageSize);
      if (mode === 'insert') await this.deps.lots.insertPage(page.lots);
      else for (const lot of page.lots) await this.deps.lots.apply(lot);
      read += page.lots.length;
      if (page.next_after_id === null || page.lots.length === 0 || this.stopped.signal.aborted)
        return read;
      afterId = page.next_after_id;
    }
  }

  /** Starts the load in the background; `done()` resolves when it ended (tests). */
  start(mode: 'empty' | 'always' | 'never'): void {
    this.running = this.run(mode);
  }

  done(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async run(mode: 'empty' | 'always' | 'never'): Promise<void> {
    if (mode === 'never') return;
    let delay = this.deps.firstRetryMs ?? 1000;
    while (!this.stopped.signal.aborted) {
      try {
        const empty = await this.deps.lots.isEmpty();
        if (mode === 'empty' && !empty) return;
        const read = await this.syncAll(empty ? 'insert' : 'apply');
        this.deps.logger.info({ lots: read }, 'lot read model loaded from the catalog snapshot');
        return;
      } catch (err) {
        this.deps.logger.warn(
          { err: (err as Error).message, retryInMs: delay },
          'lot snapshot not available yet',
        );
        await sleep(delay, this.stopped.signal);
        delay = Math.min(delay * 2, 30000);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped.abort();
    await this.running;
  }
}
