import type { DomainEvent, LotStatus } from '@furniture/contracts';
import {
  KeptCounts,
  countsWithPrefix,
  docWithEvents,
  escapeRegex,
  nextId,
  pageOfBuckets,
  partOf,
  placeNewestParts,
  readBlockNewestFirst,
  rebuildPlacedCounts,
  type KeptCountsDoc,
  tombstoneUpdate,
  withDocLock,
  withEvents,
  NOT_DELETED,
  type Connection,
} from '@furniture/platform';
import type { Document, UpdateFilter } from 'mongodb';
import type { QueryFilter } from 'mongoose';
import type { LotChange, LotData } from '../domain/records';
import { docKey, type LotDoc, type Models } from './models';

/** What a lot list may be narrowed by (built by the domain, translated to a query here). */
export interface LotFilter {
  categoryId?: number;
  status?: LotStatus;
  /** only these statuses (anonymous callers never see archived lots) */
  visibleStatuses?: readonly LotStatus[];
  /** names and short descriptions in both languages, case-insensitive; a number also matches the id */
  search?: string;
  createdFrom?: Date;
  createdBefore?: Date;
}

/** A page of a lot list: `skip` lots left out, or (with skip 0) the lots after `beforeId`. */
export interface LotPage {
  skip: number;
  limit: number;
  /** only lots with a smaller id (the id of the last lot the previous page showed) */
  beforeId?: number;
}

export interface MutateResult {
  before: LotData;
  after: LotData;
  changed: boolean;
}

/** Lots per block: the lists read the one or two blocks a page lies in. */
export const BLOCK_SIZE = 100;
export const blockOf = (id: number): number => Math.floor(id / BLOCK_SIZE);
/**
 * The layout of the stored lots the counts are built for (KeptCounts): 2 = lots carry their
 * `part` (a quarter of a block, read alone when the block holds many of a list's lots).
 */
const LAYOUT = 2;

/**
 * The counts kept with every write (KeptCounts), of live lots: `block:<category>:<status>:<block>`.
 * A list without search or date filter and the lot counts per category read them instead of
 * counting every lot (FerretDB cannot push `status: {$in: …}` or a sort down to PostgreSQL).
 */
const COUNTS = 'lot_counts';
const countKey = (lot: Pick<LotData, 'id' | 'category_id' | 'status'>) =>
  `block:${lot.category_id}:${lot.status}:${blockOf(lot.id)}`;

/** Attempts of a compare-and-set write before giving up (only several replicas ever need a second). */
const MAX_ATTEMPTS = 5;

function toData(doc: LotData): LotData {
  return {
    id: doc.id,
    name: { de: doc.name?.de ?? '', uk: doc.name?.uk ?? '' },
    description: { de: doc.description?.de ?? '', uk: doc.description?.uk ?? '' },
    detailed_description: {
      de: doc.detailed_description?.de ?? '',
      uk: doc.detailed_description?.uk ?? '',
    },
    status: doc.status,
    category_id: doc.category_id,
    photos: doc.photos ?? [],
    gallery_photos: doc.gallery_photos ?? [],
    dimensions: doc.dimensions ?? '',
    condition: doc.condition ?? '',
    donor: doc.donor ?? '',
    location: doc.location ?? '',
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    status_changed_at: doc.status_changed_at ?? doc.created_at,
    created_by_user_id: doc.created_by_user_id ?? null,
    version: doc.version,
    rev: doc.rev ?? 0,
    reserved_application_id: doc.reserved_application_id ?? null,
    photo_refs: (doc.photo_refs ?? []).map((r) => ({
      photo_id: r.photo_id,
      medium: r.medium,
      large: r.large,
    })),
    deleted_photo_ids: doc.deleted_photo_ids ?? [],
  };
}

/**
 * True when a page spans more than a few blocks and the filter holds an equality FerretDB pushes
 * down (category or status): one query for the filter's lots then costs less than a query per
 * block (bench:scale, FerretDB: a category's 625 lots in 50 block queries took longer than in
 * one; each query costs milliseconds on its own). The public category page, which lists a whole
 * category, is such a page.
 */
function readsManyBlocks(
  blocks: [number, number][],
  page: { skip: number; limit: number },
  f: LotFilter,
): boolean {
  if (f.categoryId === undefined && f.status === undefined) return false;
  return touchedBlocks(blocks, page).length > MANY_BLOCKS;
}

/**
 * The blocks a page lies in, by the kept counts, with how many of each block's lots (newest
 * first) the page needs read, the ones it skips included (pageOfBuckets asks for as many).
 */
function touchedBlocks(
  blocks: [number, number][],
  page: { skip: number; limit: number },
): [block: number, take: number][] {
  const touched: [number, number][] = [];
  let before = 0;
  for (const [block, size] of blocks) {
    if (before >= page.skip + page.limit) break;
    if (before + size > page.skip) {
      const start = Math.max(0, page.skip - before);
      const wanted = page.skip + page.limit - Math.max(before, page.skip);
      touched.push([block, start + wanted]);
    }
    before += size;
  }
  return touched;
}
const MANY_BLOCKS = 4;

/** The blocks of a list's lots, newest first, with their sizes; `parts`: read parts (layout). */
interface BlockSizes {
  sizes: [number, number][];
  parts: boolean;
}

export class LotsRepository {
  private readonly kept: KeptCounts;

  constructor(
    private readonly conn: Connection,
    private readonly models: Models,
    /** after every write: drop cached answers, publish the events */
    private readonly onWrite: () => void,
  ) {
    this.kept = new KeptCounts(conn.collection<KeptCountsDoc>(COUNTS), 'all', LAYOUT);
  }

  /** At start: true when the counts must be rebuilt (rebuildCounts) from the lots. */
  openCounts(): Promise<boolean> {
    return this.kept.open(async () => Boolean(await this.models.Lot.exists({})));
  }

  /** Gives every lot its block and part and counts the lots once more (rebuildPlacedCounts). */
  async rebuildCounts(log: (msg: string) => void = () => undefined): Promise<void> {
    log('rebuilding the lot counts');
    const total = await rebuildPlacedCounts(
      this.models.Lot.collection as never,
      this.kept,
      BLOCK_SIZE,
      ['category_id', 'status'],
      (doc) => [countKey(doc as unknown as LotData)],
    );
    log(`lot counts rebuilt: ${total} lots`);
  }

  /** Every minute: the part of lots an older replica wrote without one (placeNewestParts). */
  placeNewest(): Promise<number> {
    return placeNewestParts(
      this.models.Lot.collection as never,
      this.conn.collection('counters'),
      'lots',
      BLOCK_SIZE,
    );
  }

  /**
   * The blocks holding the filter's lots, newest first, with how many they hold, and whether the
   * lots have their parts (counts of this layout); null when the filter needs the lots themselves
   * (search, dates) or the counts are being rebuilt.
   */
  private async blocks(f: LotFilter): Promise<BlockSizes | null> {
    if (f.search || f.createdFrom || f.createdBefore) return null;
    const kept = await this.kept.readWithLayout();
    if (!kept) return null;
    const sizes = new Map<number, number>();
    for (const [key, n] of countsWithPrefix(kept.n, 'block:')) {
      const [category, status, block] = key.split(':') as [string, LotStatus, string];
      if (f.categoryId !== undefined && Number(category) !== f.categoryId) continue;
      if (f.status !== undefined && status !== f.status) continue;
      if (f.visibleStatuses && !f.visibleStatuses.includes(status)) continue;
      sizes.set(Number(block), (sizes.get(Number(block)) ?? 0) + n);
    }
    return { sizes: [...sizes].sort(([a], [b]) => b - a), parts: kept.current };
  }

  private query(f: LotFilter): QueryFilter<LotDoc> {
    const q: QueryFilter<LotDoc> = { ...NOT_DELETED };
    if (f.categoryId !== undefined) q.category_id = f.categoryId;
    if (f.status !== undefined) {
      q.status =
        f.visibleStatuses && !f.visibleStatuses.includes(f.status)
          ? { $in: [] as LotStatus[] }
          : f.status;
    } else if (f.visibleStatuses) {
      q.status = { $in: [...f.visibleStatuses] };
    }
    if (f.search) {
      const re = new RegExp(escapeRegex(f.search), 'i');
      const or: QueryFilter<LotDoc>[] = [
        { 'name.de': re },
        { 'name.uk': re },
        { 'description.de': re },
        { 'description.uk': re },
      ];
      const asId = /^#?(\d{1,12})$/.exec(f.search);
      if (asId) or.push({ id: Number(asId[1]) });
      q.$or = or;
    }
    if (f.createdFrom || f.createdBefore) {
      q.created_at = {
        ...(f.createdFrom ? { $gte: f.createdFrom } : {}),
        ...(f.createdBefore ? { $lt: f.createdBefore } : {}),
      };
    }
    return q;
  }

  /** By primary key alone (see models.ts), the tombstone checked here. */
  async findById(id: number): Promise<LotData | null> {
    const doc = await this.models.Lot.findOne({ _id: docKey(id) })
      .select('+deleted_at')
      .lean<LotDoc>();
    return doc && !doc.deleted_at ? toData(doc) : null;
  }

  /** Newest first. */
  async list(filter: LotFilter, page: LotPage): Promise<LotData[]> {
    return this.read(filter, page, await this.blocks(filter));
  }

  /**
   * A page and the number of the filter's lots (all pages), from one read of the kept counts:
   * the public category page shows "24 of 625 lots".
   */
  async pageWithTotal(
    filter: LotFilter,
    page: LotPage,
  ): Promise<{ lots: LotData[]; total: number }> {
    const blocks = await this.blocks(filter);
    const [lots, total] = await Promise.all([
      this.read(filter, page, blocks),
      this.total(filter, blocks),
    ]);
    return { lots, total };
  }

  /**
   * A page of the filter's lots, newest first. `beforeId` (a cursor: the page after the lot with
   * that id) skips the blocks above the cursor's; the cursor's own block is read whole by its
   * pushed-down equality and cut in the query, so its kept count is only an upper bound, which
   * is why a cursor goes with skip 0.
   */
  private async read(
    filter: LotFilter,
    page: LotPage,
    allBlocks: BlockSizes | null,
  ): Promise<LotData[]> {
    const { beforeId } = page;
    const cursor = beforeId === undefined ? undefined : blockOf(beforeId);
    const below = beforeId === undefined ? {} : { id: { $lt: beforeId } };
    const blocks =
      allBlocks && cursor !== undefined
        ? allBlocks.sizes.filter(([b]) => b <= cursor)
        : allBlocks?.sizes;
    if (blocks && !readsManyBlocks(blocks, page, filter)) {
      const query = this.query(filter);
      // exec: a promise, awaited once (a mongoose query would run again on every then)
      const sizes = new Map(blocks);
      const find = (where: { block: number } | { part: number }, cut: boolean, take: number) =>
        this.models.Lot.find({ ...query, ...where, ...(cut ? below : {}) })
          .sort({ id: -1 })
          .limit(take)
          .lean<LotData[]>()
          .exec();
      const readBlock = (block: number, take: number): Promise<LotData[]> =>
        readBlockNewestFirst({
          block,
          blockSize: BLOCK_SIZE,
          size: sizes.get(block) ?? 0,
          take,
          topId: block === cursor ? beforeId! - 1 : undefined,
          parts: allBlocks!.parts,
          readBlock: (n) => find({ block }, block === cursor, n),
          readPart: (part, n) => find({ part }, block === cursor, n),
        });
      // the blocks the counts say the page lies in, asked for side by side (each query is a
      // round trip); a cursor's block may hold fewer, then the next ones are read after them,
      // or again when they need more than was asked for
      const started = new Map<number, { take: number; read: Promise<LotData[]> }>();
      for (const [block, take] of touchedBlocks(blocks, page)) {
        const read = readBlock(block, take);
        read.catch(() => undefined); // awaited below unless the page is full before it
        started.set(block, { take, read });
      }
      const docs = await pageOfBuckets(blocks, page.skip, page.limit, (block, take) => {
        const early = started.get(block);
        return early && early.take >= take ? early.read : readBlock(block, take);
      });
      return docs.map(toData);
    }
    const docs = await this.models.Lot.find({ ...this.query(filter), ...below })
      .sort({ id: -1 })
      .skip(page.skip)
      .limit(page.limit)
      .lean<LotData[]>();
    return docs.map(toData);
  }

  async count(filter: LotFilter): Promise<number> {
    return this.total(filter, await this.blocks(filter));
  }

  /** The filter's lots, from its blocks' kept counts when there are some, else counted. */
  private async total(filter: LotFilter, blocks: BlockSizes | null): Promise<number> {
    if (blocks) return blocks.sizes.reduce((sum, [, n]) => sum + n, 0);
    return this.models.Lot.countDocuments(this.query(filter));
  }

  /** Lots per category, counting only the given statuses (one pass over the lots). */
  async countsByCategory(statuses: readonly LotStatus[]): Promise<Map<number, number>> {
    const counts = await this.kept.read();
    if (counts) {
      const out = new Map<number, number>();
      for (const [key, n] of countsWithPrefix(counts, 'block:')) {
        const [category, status] = key.split(':') as [string, LotStatus];
        if (statuses.includes(status))
          out.set(Number(category), (out.get(Number(category)) ?? 0) + n);
      }
      return out;
    }
    const rows = await this.models.Lot.aggregate<{ _id: number; n: number }>([
      { $match: { ...NOT_DELETED, status: { $in: [...statuses] } } },
      { $group: { _id: '$category_id', n: { $sum: 1 } } },
    ]);
    return new Map(rows.map((r) => [r._id, r.n]));
  }

  /** Every lot of a category, archived ones included (they still hold it). */
  countInCategory(categoryId: number): Promise<number> {
    return this.count({ categoryId });
  }

  async insert(
    data: Omit<LotData, 'id' | 'rev'>,
    events: (lot: LotData) => DomainEvent[],
  ): Promise<LotData> {
    const id = await nextId(this.conn, 'lots');
    const lot: LotData = { ...data, id, rev: 1 };
    await this.models.Lot.collection.insertOne(
      docWithEvents(
        { _id: docKey(id), ...lot, block: blockOf(id), part: partOf(id) },
        events(lot),
      ) as unknown as Document,
    );
    await this.kept.add({ [countKey(lot)]: 1 });
    this.onWrite();
    return lot;
  }

  /**
   * Reads the lot, lets `decide` choose a change (or none) and writes it with its events in one
   * compare-and-set on `rev`, under the lot's lock (FerretDB does not isolate updates; several
   * MongoDB replicas are kept apart by the rev guard and a re-read). null: there is no such lot.
   * Whatever `decide` throws (a stale version, say) ends the call unchanged.
   */
  async mutate(
    id: number,
    decide: (current: LotData) => LotChange | null | Promise<LotChange | null>,
  ): Promise<MutateResult | null> {
    const collection = this.models.Lot.collection;
    return withDocLock(collection, id, async () => {
      for (let attempt = 1; ; attempt++) {
        const before = await this.findById(id);
        if (!before) return null;
        const change = await decide(before);
        if (!change) return { before, after: before, changed: false };
        const rev = before.rev + 1;
        let after: LotData;
        let update: UpdateFilter<Document>;
        if ('remove' in change) {
          after = { ...before, rev };
          update = tombstoneUpdate(change.events, { rev });
        } else {
          after = { ...before, ...change.set, rev };
          update = withEvents({ $set: { ...change.set, rev } }, change.events(after));
        }
        // a tombstone has a newer rev, so the guard also refuses a lot deleted meanwhile
        const res = await collection.updateOne(
          { _id: docKey(id), rev: before.rev } as unknown as Document,
          update,
        );
        if (res.matchedCount === 1) {
          const gone = 'remove' in change;
          if (gone || countKey(before) !== countKey(after))
            await this.kept.add({
              [countKey(before)]: -1,
              ...(gone ? {} : { [countKey(after)]: 1 }),
            });
          this.onWrite();
          return { before, after, changed: true };
        }
        if (attempt >= MAX_ATTEMPTS) throw new Error(`lot ${id}: concurrent writes did not settle`);
      }
    });
  }

  /** Lots with id > afterId in id order, archived included (read models of other services). */
  async snapshotPage(afterId: number, limit: number): Promise<LotData[]> {
    const docs = await this.models.Lot.find({ ...NOT_DELETED, id: { $gt: afterId } })
      .sort({ id: 1 })
      .limit(limit)
      .lean<LotData[]>();
    return docs.map(toData);
  }
}
