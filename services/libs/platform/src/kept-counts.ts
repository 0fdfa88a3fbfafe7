// Counts kept up to date with the writes, and pages read bucket by bucket.
//
// FerretDB 1.24 (the `make run` default) never pushes a sort, a skip or a count down to its
// database: a page "newest first, entries 4000–4020" or a count of one status reads every
// matching document into FerretDB and sorts or counts it there (seconds at 100 000 documents).
// What it does push down is an equality on a top-level field, answered from an index
// (infra/src/ferret-pg-indexes.ts). So a long list is split into buckets (an application's block
// of 100 ids, a log entry's day), the number of documents per bucket is kept in one counts
// document, updated by every write, and a page reads only the one or two buckets it lies in.
// On MongoDB the same reads are index lookups, too.
import type { Collection, Document } from 'mongodb';
import { isDuplicateKeyError } from './mongo';
import { withDocLock } from './locks';

/** The counts of one list: `n` maps a key ("status:pending", "day:2026-11-22") to a count. */
export interface KeptCountsDoc {
  _id: string;
  /** false from the start of a rebuild until its result is written */
  ready: boolean;
  /**
   * the layout of the documents the counts were built for (KeptCounts' `layout`); absent on
   * counts built before there was one (layout 1)
   */
  layout?: number;
  n: Record<string, number>;
}

function checkKey(key: string): string {
  if (key.includes('.') || key.startsWith('$')) throw new Error(`invalid count key ${key}`);
  return key;
}

export class KeptCounts {
  constructor(
    private readonly collection: Collection<KeptCountsDoc>,
    private readonly id = 'all',
    /**
     * Raised when the documents get a field the rebuild writes (e.g. `part`): counts built for
     * an older layout are rebuilt at the next start, which writes the field into every document.
     */
    private readonly layout = 1,
  ) {}

  /**
   * True after `open` found ready counts of an older layout: they stay in use (the lists read
   * whole blocks, not parts) while the rebuild writes the records' new fields; nothing else
   * needs rebuilding for them.
   */
  relayoutOnly = false;

  /**
   * At start: makes sure the counts document exists. Without one, an empty list starts with
   * zero counts; a list that already has documents (written before the counts existed, or
   * bulk-loaded) gets a document that is not ready, and true is returned: the caller rebuilds
   * the counts (and reads count per request until then). True also for a rebuild left unfinished
   * and for ready counts of an older layout (`relayoutOnly`; they stay ready, see readWithLayout).
   */
  async open(hasDocuments: () => Promise<boolean>): Promise<boolean> {
    const existing = await this.collection.findOne({ _id: this.id });
    if (existing) {
      this.relayoutOnly = existing.ready && (existing.layout ?? 1) !== this.layout;
      return !existing.ready || this.relayoutOnly;
    }
    const any = await hasDocuments();
    try {
      await this.collection.insertOne({ _id: this.id, ready: !any, layout: this.layout, n: {} });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      return false; // another replica opened them first and rebuilds them
    }
    return any;
  }

  /**
   * Adds to counts after a write (negative deltas subtract). Called after the write succeeded: a
   * process dying in between leaves a count one off until the next rebuild.
   */
  async add(deltas: Record<string, number>): Promise<void> {
    const inc: Record<string, number> = {};
    for (const [key, delta] of Object.entries(deltas)) if (delta) inc[`n.${checkKey(key)}`] = delta;
    if (Object.keys(inc).length === 0) return;
    // in-process lock: FerretDB applies an update as read, change, write
    await withDocLock(this.collection, this.id, () =>
      this.collection.updateOne({ _id: this.id }, { $inc: inc }),
    );
  }

  /** The counts, or null while they are being rebuilt (or were never opened). */
  async read(): Promise<Record<string, number> | null> {
    return (await this.readWithLayout())?.n ?? null;
  }

  /**
   * The counts and whether the records have this version's layout (`current`: a list may read
   * the fields the layout brings, e.g. `part`), or null while they are being rebuilt.
   */
  async readWithLayout(): Promise<{ n: Record<string, number>; current: boolean } | null> {
    const doc = await this.collection.findOne({ _id: this.id });
    return doc?.ready ? { n: doc.n, current: (doc.layout ?? 1) === this.layout } : null;
  }

  /** Marks the counts as being rebuilt (the reads fall back to counting). */
  async invalidate(): Promise<void> {
    await this.collection.updateOne({ _id: this.id }, { $set: { ready: false } }, { upsert: true });
  }

  /**
   * The result of a rebuild. Documents written during the rebuild were counted by their writes
   * too; one written in the instant between the rebuild's pass and this call may be counted
   * twice or not at all (the counts are for screens, not for accounting).
   */
  async replace(counts: Record<string, number>): Promise<void> {
    for (const key of Object.keys(counts)) checkKey(key);
    await withDocLock(this.collection, this.id, () =>
      this.collection.replaceOne(
        { _id: this.id },
        { ready: true, layout: this.layout, n: counts },
        { upsert: true },
      ),
    );
  }
}

/** Adds `by` to `counts[key]` (building a rebuild's counts). */
export function addCount(counts: Record<string, number>, key: string, by = 1): void {
  counts[checkKey(key)] = (counts[key] ?? 0) + by;
}

/** The counts whose key starts with `prefix`, keyed by the rest (zero counts left out). */
export function countsWithPrefix(
  counts: Record<string, number>,
  prefix: string,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, n] of Object.entries(counts))
    if (key.startsWith(prefix) && n > 0) out.set(key.slice(prefix.length), n);
  return out;
}

/**
 * The entries [skip, skip + limit) of a list split into buckets given in list order with their
 * sizes; `read` returns one bucket's entries in list order, of which only the first `take` are
 * used (a read may stop there: on FerretDB a limit still sorts the whole bucket, but fewer
 * documents travel and are decoded). Reads only the buckets the page touches (usually one or two).
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
 * Ids per part: a quarter of a block of 100. A block that holds many of a list's documents is
 * read part by part (readBlockNewestFirst).
 */
export const PART_SIZE = 25;
export const partOf = (id: number): number => Math.floor(id / PART_SIZE);

/**
 * At most `take` of one block's documents of a list, newest first. FerretDB decodes every
 * document a query matches before it sorts and limits (it pushes neither down with a filter), so
 * a page of 20 read from a block of 100 decodes five times what it shows (bench:scale: the block
 * reads were most of a staff list's time, and where FerretDB's rare 100–250 ms stalls struck).
 * When the kept count (`size`) says the block holds more of the list's documents than a part,
 * they are read part by part (`readPart`, an equality on `part` that FerretDB pushes down), the
 * newest part first, until `take` are read; else the block is read in one query (`readBlock`,
 * which then matches at most a part's worth). `topId` (a cursor's block) skips the parts above it.
 */
export async function readBlockNewestFirst<T>(opts: {
  block: number;
  blockSize: number;
  size: number;
  take: number;
  topId?: number;
  /** false while the records may lack their part (counts of an older layout) */
  parts: boolean;
  readBlock: (take: number) => Promise<T[]>;
  readPart: (part: number, take: number) => Promise<T[]>;
}): Promise<T[]> {
  const { block, blockSize, size, take } = opts;
  if (!opts.parts || size <= PART_SIZE || blockSize % PART_SIZE !== 0) return opts.readBlock(take);
  const lowest = partOf(block * blockSize);
  const top = partOf(Math.min(opts.topId ?? Infinity, (block + 1) * blockSize - 1));
  const out: T[] = [];
  for (let part = top; part >= lowest && out.length < take; part--)
    out.push(...(await opts.readPart(part, take - out.length)));
  return out;
}

/**
 * Gives the records of the two newest blocks that have a block but no part their part, each
 * under its lock, and answers how many. During a rolling upgrade a replica of the version before
 * parts still inserts records without one after the new version rebuilt the counts; the list's
 * part reads would never find them. Run every minute (two block reads, each an equality FerretDB
 * pushes down); records only ever go into the newest blocks.
 */
export async function placeNewestParts(
  collection: Collection<Document>,
  /** the id counter's document (`counters`, see nextId): the newest id drawn */
  counters: Collection<{ _id: string; seq: number }>,
  counter: string,
  blockSize: number,
): Promise<number> {
  const top = await counters.findOne({ _id: counter });
  if (!top) return 0;
  const newest = Math.floor(top.seq / blockSize);
  let placed = 0;
  for (const block of [newest, newest - 1]) {
    if (block < 0) continue;
    const missing = await collection
      .find({ block, part: { $exists: false } }, { projection: { _id: 1, id: 1 } })
      .toArray();
    for (const doc of missing) {
      const id = doc.id as number;
      await withDocLock(collection, id, () =>
        collection.updateOne({ _id: doc._id }, { $set: { part: partOf(id) } }),
      );
      placed++;
    }
  }
  return placed;
}

/**
 * Gives every record of a list split into blocks its `block` and `part` and counts the records
 * once more, counted here (FerretDB's $group is slow): `keysOf` names the count keys of a live
 * record (read with `id` and `fields`). Answers how many live records were counted.
 *
 * Records without their block or part (bulk-loaded, or stored by a version before them) get them
 * first, one update after the other, each under the record's lock (a record's writes are read,
 * change, write on FerretDB, and one running beside this $set could undo it; FerretDB 1.24 also
 * stalled on a bulkWrite of many updates: 10 took 0.16 s, 50 had not finished after 10 s and left
 * the server unresponsive). That takes minutes after an upgrade, and the lists go on with the
 * counts as they are meanwhile (ready counts of an older layout: whole blocks). The counting pass
 * is then done again and replaced right after it: a write between a pass and `replace` is
 * counted twice or not at all, so that window stays one pass long.
 */
export async function rebuildPlacedCounts(
  collection: Collection<Document>,
  kept: KeptCounts,
  blockSize: number,
  fields: string[],
  keysOf: (doc: Document) => string[],
): Promise<number> {
  const projection = { _id: 1, id: 1, block: 1, part: 1, deleted_at: 1 };
  for (const field of fields) Object.assign(projection, { [field]: 1 });
  const countPass = async () => {
    const counts: Record<string, number> = {};
    const missing: { _id: unknown; id: number }[] = [];
    let total = 0;
    for (const doc of await collection.find({}, { projection }).toArray()) {
      const id = doc.id as number;
      if (doc.block !== Math.floor(id / blockSize) || doc.part !== partOf(id))
        missing.push({ _id: doc._id, id });
      if (doc.deleted_at) continue;
      total++;
      for (const key of keysOf(doc)) addCount(counts, key);
    }
    return { counts, missing, total };
  };
  let pass = await countPass();
  if (pass.missing.length > 0) {
    for (const { _id, id } of pass.missing)
      await withDocLock(collection, id, () =>
        collection.updateOne(
          { _id: _id as Document['_id'] },
          { $set: { block: Math.floor(id / blockSize), part: partOf(id) } },
        ),
      );
    pass = await countPass();
  }
  await kept.replace(pass.counts);
  return pass.total;
}
