// The kept counts of a list and the reads by bucket (internal to the store).
//
// FerretDB 1.24 (the `make run` default) never pushes a sort, a skip or a count down to its
// database: a page "newest first, entries 4000–4020" or a count of one status reads every
// matching document into FerretDB and sorts or counts it there (seconds at 100 000 documents).
// What it does push down is an equality on a top-level field, answered from an index
// (infra/src/ferret-pg-indexes.ts). So a long list is split into buckets (a block of 100 ids, a
// log entry's day), the number of documents per bucket is kept in one counts document, updated by
// every write, and a page reads only the one or two buckets it lies in. On MongoDB the same reads
// are index lookups, too.
import type { Collection } from 'mongodb';
import { randomBytes } from 'node:crypto';
import { insertedUnlessTaken, retryingDuplicates } from '../mongo';
import { withDocLock } from './locks';

/** The counts of one list: `n` maps a key ("status:pending", "day:2026-11-22") to a count. */
export interface KeptCountsDoc {
  _id: string;
  /** false from the start of a rebuild until its result is written */
  ready: boolean;
  /** the layout of the documents the counts were built for; absent before there was one (1) */
  layout?: number;
  /**
   * The declaration the counts were built for (countsStamp); absent in counts of a version before
   * the stamp, which were built by the declarations of that version (the same as the first one
   * that stamps them: it adopts them).
   */
  declaration?: string;
  n: Record<string, number>;
  /** a shard (see KeptCounts): the counts document it adds to */
  of?: string;
  /** a shard: its last write */
  at?: Date;
}

/** A process writes a new shard after this long without a write to its last one. */
const SHARD_IDLE_MS = 5 * 60_000;
/** A shard this long without a write is folded into the counts (by one replica). */
export const FOLD_AFTER_MS = 15 * 60_000;

export function checkKey(key: string): string {
  if (key.includes('.') || key.startsWith('$')) throw new Error(`invalid count key ${key}`);
  return key;
}

/**
 * The counts of one list. Across processes (issue 42) a count is never a read, a change and a
 * write of one document by several writers: on FerretDB 1.24 an `$inc` is exactly that, and two
 * processes writing at once lost counts (the cross-process suite: 27 of 30 lots counted, so pages
 * skipped lots). Each process adds to a shard of its own (`<id>@<random>`, `of: <id>`), a
 * document no other process writes, and a read sums the counts document and its shards. A shard
 * is left for a new one after SHARD_IDLE_MS without a write and folded into the counts document
 * by one replica after FOLD_AFTER_MS (`fold`), so that no shard is written while it is folded; a
 * rebuild replaces the counts and drops the shards.
 */
export class KeptCounts {
  /** this process's current shard and its last write */
  private shard: { id: string; last: number } | null = null;

  /**
   * True after `open` found ready counts of an older layout: they stay in use (the lists read
   * whole blocks, not parts) while the rebuild writes the documents' new fields.
   */
  relayoutOnly = false;

  constructor(
    private readonly collection: Collection<KeptCountsDoc>,
    private readonly layout: number,
    /** the list's declaration as text (countsStamp) */
    private readonly stamp: string,
    private readonly id = 'all',
  ) {}

  /** Counts of this declaration (stamped so, or from before stamps: adopted by `open`). */
  private ours(doc: KeptCountsDoc): boolean {
    return doc.declaration === this.stamp;
  }

  /**
   * At start: makes sure the counts document exists. Without one, an empty list starts with
   * zero counts; a list that already has documents gets a document that is not ready, and true is
   * returned: the caller rebuilds the counts (and reads count per request until then). True also
   * for a rebuild left unfinished and for ready counts of an older layout (`relayoutOnly`).
   */
  async open(hasDocuments: () => Promise<boolean>): Promise<boolean> {
    let existing = await this.collection.findOne({ _id: this.id });
    if (existing && existing.declaration === undefined) {
      // counts of the version before stamps: built by these declarations (the first stamp)
      await withDocLock(this.collection, this.id, () =>
        this.collection.updateOne(
          { _id: this.id, declaration: { $exists: false } },
          { $set: { declaration: this.stamp } },
        ),
      );
      existing = await this.collection.findOne({ _id: this.id });
    }
    if (existing && !this.ours(existing)) {
      // built for another declaration: not read (the lists ask the server) until rebuilt, and
      // no longer moved by this version's writes (their keys would be of another kind)
      this.relayoutOnly = false;
      return true;
    }
    if (existing) {
      this.relayoutOnly = existing.ready && (existing.layout ?? 1) !== this.layout;
      return !existing.ready || this.relayoutOnly;
    }
    const any = await hasDocuments();
    const doc = {
      _id: this.id,
      ready: !any,
      layout: this.layout,
      declaration: this.stamp,
      n: {},
    };
    // not inserted: another replica opened them first and rebuilds them
    return (await insertedUnlessTaken(() => this.collection.insertOne(doc))) && any;
  }

  /** Ready counts of this layout (read only: what a replica waiting for another's rebuild asks). */
  async isCurrent(): Promise<boolean> {
    const doc = await this.collection.findOne({ _id: this.id });
    return !!doc?.ready && (doc.layout ?? 1) === this.layout && this.ours(doc);
  }

  /**
   * Adds to counts after a write (negative deltas subtract). Called after the write succeeded: a
   * process dying in between leaves a count one off until the next rebuild. Counts of another
   * declaration (a replica of the other version during a rollout) are left as they are.
   */
  async add(deltas: Map<string, number>): Promise<void> {
    const inc: Record<string, number> = {};
    for (const [key, delta] of deltas) if (delta) inc[`n.${checkKey(key)}`] = delta;
    if (Object.keys(inc).length === 0) return;
    const now = Date.now();
    if (!this.shard || now - this.shard.last > SHARD_IDLE_MS)
      this.shard = { id: `${this.id}@${randomBytes(6).toString('hex')}`, last: now };
    this.shard.last = now;
    const shard = this.shard.id;
    // this process's own document; the in-process turn orders its writes (FerretDB applies an
    // update as read, change, write)
    await withDocLock(this.collection, shard, () =>
      this.collection.updateOne(
        { _id: shard },
        { $inc: inc, $set: { of: this.id, declaration: this.stamp, at: new Date(now) } },
        { upsert: true },
      ),
    );
  }

  /**
   * Folds the shards no process writes any more into the counts document (one replica at a time:
   * the counts document has no other writer but a rebuild). A process dying between the two
   * writes leaves its shard counted twice until the next rebuild (`counts rebuild`). Answers how
   * many it folded.
   */
  async fold(): Promise<number> {
    const idle = await this.collection
      .find({ of: this.id, at: { $lt: new Date(Date.now() - FOLD_AFTER_MS) } })
      .toArray();
    for (const shard of idle) {
      const inc: Record<string, number> = {};
      for (const [key, n] of Object.entries(shard.n ?? {})) if (n) inc[`n.${key}`] = n;
      if (shard.declaration === this.stamp && Object.keys(inc).length > 0)
        await withDocLock(this.collection, this.id, () =>
          this.collection.updateOne({ _id: this.id, declaration: this.stamp }, { $inc: inc }),
        );
      await this.collection.deleteOne({ _id: shard._id });
    }
    return idle.length;
  }

  /**
   * The counts and whether the documents have this version's layout (`current`: a list may read
   * the fields the layout brings, e.g. `part`), or null while they are being rebuilt.
   */
  async read(): Promise<{ n: Record<string, number>; current: boolean } | null> {
    // the counts document and its shards in one read (a handful of small documents)
    const docs = await this.collection.find({ $or: [{ _id: this.id }, { of: this.id }] }).toArray();
    const doc = docs.find((d) => d._id === this.id);
    if (!doc?.ready || !this.ours(doc)) return null;
    const n = { ...doc.n };
    for (const shard of docs)
      if (shard.of === this.id && this.ours(shard))
        for (const [key, v] of Object.entries(shard.n ?? {})) n[key] = (n[key] ?? 0) + v;
    return { n, current: (doc.layout ?? 1) === this.layout };
  }

  /**
   * The result of a rebuild. Documents written during the rebuild were counted by their writes
   * too; one written in the instant between the rebuild's pass and this call may be counted
   * twice or not at all (the counts are for screens, not for accounting).
   */
  async replace(counts: Record<string, number>): Promise<void> {
    for (const key of Object.keys(counts)) checkKey(key);
    await withDocLock(this.collection, this.id, () =>
      retryingDuplicates(() =>
        this.collection.replaceOne(
          { _id: this.id },
          { ready: true, layout: this.layout, declaration: this.stamp, n: counts },
          { upsert: true },
        ),
      ),
    );
    // the rebuild counted what the shards hold
    await this.collection.deleteMany({ of: this.id });
    this.shard = null;
    this.relayoutOnly = false;
  }
}

/**
 * The entries [skip, skip + limit) of a list split into buckets given in list order with their
 * sizes; `read` returns one bucket's entries in list order, of which only the first `take` are
 * used. Reads only the buckets the page touches (usually one or two).
 */
export async function pageOfBuckets<K, T>(
  buckets: Iterable<[K, number]>,
  skip: number,
  limit: number,
  read: (bucket: K, take: number) => Promise<T[]>,
): Promise<T[]> {
  const out: T[] = [];
  let before = 0;
  for (const [bucket, size] of buckets) {
    if (out.length >= limit) break;
    if (before + size > skip) {
      const start = Math.max(0, skip - before);
      const wanted = limit - out.length;
      const entries = await read(bucket, start + wanted);
      out.push(...entries.slice(start, start + wanted));
    }
    before += size;
  }
  return out;
}

/**
 * The buckets a page lies in, with how many of each bucket's entries (in list order) the page
 * needs read, the ones it skips included (pageOfBuckets asks for as many).
 */
export function touchedBuckets<K>(
  buckets: [K, number][],
  page: { skip: number; limit: number },
): [bucket: K, take: number][] {
  const touched: [K, number][] = [];
  let before = 0;
  for (const [bucket, size] of buckets) {
    if (before >= page.skip + page.limit) break;
    if (before + size > page.skip) {
      const start = Math.max(0, page.skip - before);
      touched.push([bucket, start + page.skip + page.limit - Math.max(before, page.skip)]);
    }
    before += size;
  }
  return touched;
}

/** Ids per block: a page reads the one or two blocks it lies in. */
export const BLOCK_SIZE = 100;
/** Ids per part: a quarter of a block, read alone when the block holds many of a list's ids. */
export const PART_SIZE = 25;
export const blockOf = (id: number): number => Math.floor(id / BLOCK_SIZE);
export const partOf = (id: number): number => Math.floor(id / PART_SIZE);

/**
 * At most `take` of one block's documents of a list, newest first. FerretDB decodes every
 * document a query matches before it sorts and limits (it pushes neither down with a filter), so
 * a page of 20 read from a block of 100 decodes five times what it shows (bench:scale: the block
 * reads were most of a staff list's time). When the kept count (`size`) says the block holds more
 * of the list's documents than a part, they are read part by part (an equality on `part` that
 * FerretDB pushes down), the newest part first, until `take` are read; else the block is read in
 * one query. `topId` (a cursor's block) skips the parts above it.
 */
export async function readBlockNewestFirst<T>(opts: {
  block: number;
  size: number;
  take: number;
  topId?: number;
  /** false while the documents may lack their part (counts of an older layout) */
  parts: boolean;
  read: (where: { block: number } | { part: number }, take: number) => Promise<T[]>;
}): Promise<T[]> {
  const { block, size, take } = opts;
  if (!opts.parts || size <= PART_SIZE) return opts.read({ block }, take);
  const lowest = partOf(block * BLOCK_SIZE);
  const top = partOf(Math.min(opts.topId ?? Infinity, (block + 1) * BLOCK_SIZE - 1));
  const out: T[] = [];
  for (let part = top; part >= lowest && out.length < take; part--)
    out.push(...(await opts.read({ part }, take - out.length)));
  return out;
}
