import type { DomainEvent } from '@furniture/contracts';
import type { Document, Filter, Sort, UpdateFilter } from 'mongodb';
import { withEvents } from '../messaging/outbox';
import type { Connection } from '../mongo';
import { STORE_FIELDS, StoredCollection, type CollectionDeclaration } from './collection';
import {
  blockOf,
  checkKey,
  KeptCounts,
  pageOfBuckets,
  partOf,
  readBlockNewestFirst,
  touchedBuckets,
  type KeptCountsDoc,
} from './counts';
import { KeptSummaries, type SummaryDeclaration } from './summaries';
import { withDocLock } from './locks';

/** What a repository declares of a list: a collection read newest first, page by page. */
export interface ListDeclaration extends CollectionDeclaration {
  /** the collection (same database) whose document `all` keeps the list's counts */
  counts: string;
  /** fields whose equality (or `$in`) a counted page, count or tally may be narrowed by */
  countedBy?: readonly string[];
  /** fields counted over the whole list, by key prefix: `{ user: 'user_id' }` counts `user:<id>` */
  tallied?: Readonly<Record<string, string>>;
  /**
   * Buckets of a day (`of` the date in `from`), the newest first, each read in `order`; without
   * it the buckets are blocks of 100 ids, read newest id first.
   */
  day?: { from: string; of: (value: Date) => string; order: Sort };
}

/** Where a page starts: `skip` documents left out, or (skip 0) the ids below `beforeId`. */
export interface ListPage {
  skip?: number;
  limit: number;
  /** only documents with a smaller id (id lists: the last id the previous page showed) */
  beforeId?: number;
  projection?: Document;
}

/**
 * What a list's counts are made of, as text: counts built for another declaration (a field added
 * to `countedBy`, a tally, tombstones) have other keys, and are rebuilt rather than read.
 */
export function countsStamp(decl: ListDeclaration): string {
  return JSON.stringify({
    countedBy: decl.countedBy ?? [],
    tallied: Object.entries(decl.tallied ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)),
    buckets: decl.day ? { day: decl.day.from, order: decl.day.order } : 'block',
    tombstones: decl.tombstones ?? false,
  });
}

/** A page that reaches over more buckets than this reads them in one query (filtered lists). */
const MANY_BUCKETS = 4;
/** id lists: documents carry their part since layout 2 */
const ID_LAYOUT = 2;

type Bucket = number | string;
/** How many of a filter's documents hold each value of each field, and how many in all. */
export interface Tally {
  total: number;
  by: Map<string, Map<string, number>>;
}

interface Plan {
  /** newest first, with how many of the filter's documents each holds */
  buckets: [Bucket, number][];
  /** the documents carry their parts (counts of this layout) */
  parts: boolean;
}

const enc = (value: unknown): string =>
  value === null || value === undefined ? 'none' : String(value);

/**
 * The parts of a counts key from `from` on, split at ':'. Every count and page reads each key of
 * the list's counts document (hundreds): `String.prototype.split` took four times as long on them
 * (0.1 ms of every call at the bench's 266 keys), and `Object.entries` five times `Object.keys`.
 */
function partsOf(key: string, from = 0): string[] {
  const parts: string[] = [];
  for (;;) {
    const at = key.indexOf(':', from);
    if (at < 0) {
      parts.push(key.slice(from));
      return parts;
    }
    parts.push(key.slice(from, at));
    from = at + 1;
  }
}

/**
 * A list kept for FerretDB 1.24, which pushes only equalities on top-level fields down to its
 * database (counts.ts): every document carries its bucket (`block` and `part` of its id, or its
 * `day`), every write moves the kept counts of `<bucket kind>:<countedBy values…>:<bucket>` and of
 * the tallied fields, and a page, count or tally whose filter names only counted fields is read
 * from the counts and the one or two buckets it lies in. Any other filter (a search, dates) is
 * asked of the server as it is. The counts are rebuilt at start when they are missing or of an
 * older layout (the store's open), meanwhile every read is asked of the server.
 */
export class StoredList<D extends Document = Document> extends StoredCollection<D> {
  private readonly counts: KeptCounts;
  private readonly countedBy: readonly string[];
  private readonly tallied: [prefix: string, field: string][];
  private readonly kind: 'block' | 'day';
  private readonly summaries: KeptSummaries[] = [];

  constructor(
    conn: Connection,
    override readonly decl: ListDeclaration,
  ) {
    super(conn, decl);
    this.countedBy = decl.countedBy ?? [];
    this.tallied = Object.entries(decl.tallied ?? {});
    this.kind = decl.day ? 'day' : 'block';
    this.counts = new KeptCounts(
      conn.collection<KeptCountsDoc>(decl.counts) as never,
      decl.day ? 1 : ID_LAYOUT,
      countsStamp(decl),
    );
  }

  private get order(): Sort {
    return this.decl.day?.order ?? { id: -1 };
  }

  /**
   * A summary per group of the list's documents (e.g. per lot of applications), recomputed after
   * every write that touches its fields (summaries.ts).
   */
  summarize<M, S extends Document>(decl: SummaryDeclaration<M, S>): KeptSummaries<M, S> {
    const kept = new KeptSummaries<M, S>(this.conn, this as never, decl);
    this.summaries.push(kept as never);
    return kept;
  }

  // ---- writes ----

  /** The bucket fields a document is stored with. */
  private place(doc: Document): Document {
    if (this.decl.day) return { day: this.decl.day.of(doc[this.decl.day.from] as Date) };
    const id = doc.id as number;
    return { block: blockOf(id), part: partOf(id) };
  }

  private keysOf(doc: Document | null): string[] {
    if (!doc || (this.decl.tombstones && doc.deleted_at)) return [];
    const bucket = this.decl.day ? doc.day : blockOf(doc.id as number);
    const values = this.countedBy.map((f) => enc(doc[f]));
    return [
      [this.kind, ...values, enc(bucket)].join(':'),
      ...this.tallied.map(([prefix, field]) => `${prefix}:${enc(doc[field])}`),
    ].map(checkKey);
  }

  /** The fields a write must know before and after to move counts and summaries. */
  private get watched(): string[] {
    return [
      ...this.countedBy,
      ...this.tallied.map(([, f]) => f),
      ...(this.decl.tombstones ? ['deleted_at'] : []),
      ...this.summaries.flatMap((s) => s.fields),
    ];
  }

  override async insert(doc: D, events?: DomainEvent[]): Promise<void> {
    const placed = { ...doc, ...this.place(doc) } as D;
    await super.insert(placed, events);
    await this.written(null, placed);
  }

  override async update(
    filter: Filter<D>,
    update: UpdateFilter<D> | Document,
    events?: DomainEvent[],
  ): Promise<boolean> {
    const set = { ...(update as Document).$set, ...(update as Document).$unset } as Document;
    const watched = this.watched;
    const touches = Object.keys(set).some((k) =>
      watched.some((f) => k === f || f.startsWith(`${k}.`) || k.startsWith(`${f}.`)),
    );
    if (!touches) return super.update(filter, update, events);
    const change = (events ? withEvents(update, events) : update) as UpdateFilter<D>;
    return this.turn(filter, async () => {
      // the whole document: FerretDB 1.24 has no projection in findAndModify
      const before = (await this.collection.findOneAndUpdate(filter, change, {
        returnDocument: 'before',
      })) as Document | null;
      if (!before) return false;
      const after: Document = { ...before };
      for (const [k, v] of Object.entries((update as Document).$set ?? {})) after[k] = v;
      for (const k of Object.keys((update as Document).$unset ?? {})) delete after[k];
      await this.written(before, after);
      this.published(events, update as Document);
      return true;
    });
  }

  protected override async written(before: Document | null, after: Document | null): Promise<void> {
    const deltas = new Map<string, number>();
    for (const key of this.keysOf(before)) deltas.set(key, (deltas.get(key) ?? 0) - 1);
    for (const key of this.keysOf(after)) deltas.set(key, (deltas.get(key) ?? 0) + 1);
    await this.counts.add(deltas);
    for (const summary of this.summaries) {
      const groups = new Set([before, after].map((d) => d?.[summary.groupBy] as number));
      for (const group of groups) if (group !== undefined) await summary.refresh(group);
    }
  }

  // ---- reads ----

  /** A predicate on a counted key's values for a filter of counted fields; null for any other. */
  private matcher(where: Document): ((values: string[]) => boolean) | null {
    const tests: [number, (v: string) => boolean][] = [];
    for (const [field, value] of Object.entries(where)) {
      const at = this.countedBy.indexOf(field);
      if (at < 0) return null;
      if (value !== null && typeof value === 'object') {
        const keys = Object.keys(value as object);
        const list = (value as { $in?: unknown[] }).$in;
        if (keys.length !== 1 || !Array.isArray(list)) return null;
        const allowed = new Set(list.map(enc));
        tests.push([at, (v) => allowed.has(v)]);
      } else tests.push([at, (v) => v === enc(value)]);
    }
    return (values) => tests.every(([at, test]) => test(values[at]!));
  }

  /** The buckets holding the filter's documents, from the counts; null when it cannot be. */
  private async plan(where: Document): Promise<Plan | null> {
    const match = this.matcher(where);
    const kept = match && (await this.counts.read());
    if (!match || !kept) return null;
    const sizes = new Map<string, number>();
    const prefix = `${this.kind}:`;
    for (const key of Object.keys(kept.n)) {
      const n = kept.n[key]!;
      if (!(n > 0) || !key.startsWith(prefix)) continue;
      const values = partsOf(key, prefix.length);
      if (values.length !== this.countedBy.length + 1 || !match(values)) continue;
      const bucket = values[this.countedBy.length]!;
      sizes.set(bucket, (sizes.get(bucket) ?? 0) + n);
    }
    const buckets: [Bucket, number][] = [...sizes].map(([b, n]) => [
      this.decl.day ? b : Number(b),
      n,
    ]);
    buckets.sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0));
    return { buckets, parts: kept.current };
  }

  private findInOrder(where: Document, projection?: Document) {
    return this.collection
      .find(this.live(where), { projection: projection ?? STORE_FIELDS })
      .sort(this.order);
  }

  /** One bucket's documents of the filter, in list order, at most `take`. */
  private readBucket(
    where: Document,
    bucket: Bucket,
    size: number,
    take: number,
    opts: { parts: boolean; beforeId?: number; projection?: Document },
  ): Promise<D[]> {
    const read = (at: Document, n: number) =>
      this.findInOrder({ ...where, ...at }, opts.projection)
        .limit(n)
        .toArray() as Promise<D[]>;
    if (this.decl.day) return read({ day: bucket }, take);
    const block = bucket as number;
    const cut = opts.beforeId !== undefined && blockOf(opts.beforeId) === block;
    return readBlockNewestFirst({
      block,
      size,
      take,
      parts: opts.parts,
      topId: cut ? opts.beforeId! - 1 : undefined,
      read: (at, n) => read(cut ? { ...at, id: { $lt: opts.beforeId } } : at, n),
    });
  }

  /** A page of the filter's documents, newest first. */
  async page(where: Document, page: ListPage): Promise<D[]> {
    return this.pageOf(where, page, await this.plan(where));
  }

  /** A page and the number of the filter's documents (all pages). */
  async pageWithTotal(where: Document, page: ListPage): Promise<{ docs: D[]; total: number }> {
    const plan = await this.plan(where);
    const [docs, total] = await Promise.all([
      this.pageOf(where, page, plan),
      this.totalOf(where, plan),
    ]);
    return { docs, total };
  }

  /**
   * A cursor (`beforeId`) skips the buckets above its own, whose count is then only an upper
   * bound (it is cut in the query): that is why a cursor goes with skip 0.
   */
  private async pageOf(where: Document, page: ListPage, plan: Plan | null): Promise<D[]> {
    const { beforeId, projection } = page;
    const skip = page.skip ?? 0;
    const below = beforeId === undefined ? {} : { id: { $lt: beforeId } };
    let buckets = plan?.buckets;
    if (buckets && beforeId !== undefined && !this.decl.day)
      buckets = buckets.filter(([b]) => (b as number) <= blockOf(beforeId));
    const wide =
      buckets &&
      Object.keys(where).length > 0 &&
      touchedBuckets(buckets, { skip, limit: page.limit }).length > MANY_BUCKETS;
    if (!plan || !buckets || wide) {
      // a filter the counts cannot answer; or one query for the filter's documents costs less
      // than a query per bucket (bench:scale: a category's 625 lots in 50 block queries)
      const docs = await this.findInOrder({ ...where, ...below }, projection)
        .skip(skip)
        .limit(page.limit)
        .toArray();
      return docs as D[];
    }
    const sizes = new Map(buckets);
    const opts = { parts: plan.parts, beforeId, projection };
    // the buckets the counts say the page lies in, asked for side by side; a cursor's bucket may
    // hold fewer, then the next ones are read after them
    const started = new Map<Bucket, { take: number; read: Promise<D[]> }>();
    for (const [bucket, take] of touchedBuckets(buckets, { skip, limit: page.limit })) {
      const read = this.readBucket(where, bucket, sizes.get(bucket) ?? 0, take, opts);
      read.catch(() => undefined); // awaited below unless the page is full before it
      started.set(bucket, { take, read });
    }
    return pageOfBuckets(buckets, skip, page.limit, (bucket, take) => {
      const early = started.get(bucket);
      return early && early.take >= take
        ? early.read
        : this.readBucket(where, bucket, sizes.get(bucket) ?? 0, take, opts);
    });
  }

  private async totalOf(where: Document, plan: Plan | null): Promise<number> {
    if (plan) return plan.buckets.reduce((sum, [, n]) => sum + n, 0);
    return this.collection.countDocuments(this.live(where));
  }

  /** How many documents the filter matches. */
  async count(where: Document = {}): Promise<number> {
    return this.totalOf(where, await this.plan(where));
  }

  /**
   * How many of the filter's documents hold each value of each field (values as text, `none` for
   * none), and how many there are in all; from the counts where they can say (a tallied field and
   * no filter, or counted fields only), else in one pass of the server.
   */
  async tallies(fields: string[], where: Document = {}): Promise<Tally> {
    return (await this.talliesEach(fields, [where]))[0]!;
  }

  /** `tallies` of several filters, the counts read once for all of them. */
  async talliesEach(fields: string[], wheres: Document[]): Promise<Tally[]> {
    const kept = await this.counts.read();
    return Promise.all(wheres.map((where) => this.tallyOf(kept, fields, where)));
  }

  private async tallyOf(
    kept: Awaited<ReturnType<KeptCounts['read']>>,
    fields: string[],
    where: Document,
  ): Promise<Tally> {
    const match = this.matcher(where);
    // a tallied field's own counts hold for the whole list only: its prefix → the field
    const fromTally = new Map<string, string>();
    if (Object.keys(where).length === 0)
      for (const [prefix, field] of this.tallied)
        if (fields.includes(field)) fromTally.set(prefix, field);
    const tallied = new Set(fromTally.values());
    const fromKind = fields
      .filter((f) => !tallied.has(f))
      .map((f) => [f, this.countedBy.indexOf(f)] as const);
    const by = new Map(fields.map((f) => [f, new Map<string, number>()]));
    let total = 0;
    const add = (field: string, value: string, n: number) => {
      const m = by.get(field)!;
      m.set(value, (m.get(value) ?? 0) + n);
    };
    if (kept && match && fromKind.every(([, at]) => at >= 0)) {
      const parts = this.countedBy.length + 1;
      for (const key of Object.keys(kept.n)) {
        const n = kept.n[key]!;
        const colon = key.indexOf(':');
        if (!(n > 0) || colon < 0) continue;
        const prefix = key.slice(0, colon);
        if (prefix === this.kind) {
          const rest = partsOf(key, colon + 1);
          if (rest.length !== parts || !match(rest)) continue;
          total += n;
          for (const [f, at] of fromKind) add(f, rest[at]!, n);
        } else {
          const field = fromTally.get(prefix);
          if (field !== undefined) add(field, key.slice(colon + 1), n);
        }
      }
      return { total, by };
    }
    const groups = await this.collection
      .aggregate<{ _id: Record<string, unknown>; n: number }>([
        { $match: this.live(where) },
        { $group: { _id: Object.fromEntries(fields.map((f) => [f, `$${f}`])), n: { $sum: 1 } } },
      ])
      .toArray();
    for (const { _id, n } of groups) {
      total += n;
      for (const f of fields) add(f, enc(_id[f]), n);
    }
    return { total, by };
  }

  /** The buckets of the whole list, newest first, with their sizes; null while rebuilt. */
  async buckets(): Promise<[Bucket, number][] | null> {
    return (await this.plan({}))?.buckets ?? null;
  }

  /** One bucket's documents (a day of a day list), in list order. */
  bucket(bucket: Bucket, projection?: Document): Promise<D[]> {
    const where = this.decl.day ? { day: bucket } : { block: bucket };
    return this.findInOrder(where, projection).toArray() as Promise<D[]>;
  }

  // ---- upkeep (the store's open and jobs) ----

  override async ensureIndexes(): Promise<void> {
    await super.ensureIndexes();
    const counted = Object.fromEntries(this.countedBy.map((f) => [f, 1]));
    const order = this.order as Record<string, 1 | -1>;
    const buckets = this.decl.day ? ['day'] : ['block', 'part'];
    for (const bucket of buckets)
      await this.collection.createIndex({ [bucket]: 1, ...counted, ...order } as never);
  }

  /**
   * At start: true when the counts must be rebuilt (they are missing over stored documents, left
   * unfinished, or of an older layout); the summaries then too, unless only the layout changed.
   */
  async open(): Promise<boolean> {
    const rebuild = await this.counts.open(
      async () => (await this.collection.findOne({}, { projection: { _id: 1 } })) !== null,
    );
    if (rebuild && !this.counts.relayoutOnly)
      for (const summary of this.summaries) await summary.invalidate();
    let summaries = false;
    for (const summary of this.summaries) if (await summary.open()) summaries = true;
    return rebuild || summaries;
  }

  /** The counts and summaries are rebuilt and current (read only, unlike `open`). */
  async isRebuilt(): Promise<boolean> {
    if (!(await this.counts.isCurrent())) return false;
    for (const summary of this.summaries) if (!(await summary.isComplete())) return false;
    return true;
  }

  /**
   * Gives every document its bucket fields and counts the documents once more, here (FerretDB's
   * $group is slow), after the summaries. Documents without their bucket fields (bulk-loaded, or
   * stored by an older version) get them first, one update after the other, each in the
   * document's turn (FerretDB 1.24 stalled on a bulkWrite of many updates). That takes minutes
   * after an upgrade; the lists go on with the counts as they are meanwhile. The counting pass is
   * then done again and replaced right after it: a write between a pass and the replace is counted
   * twice or not at all, so that window stays one pass long. Answers how many were counted.
   */
  async rebuild(log: (msg: string) => void = () => undefined): Promise<number> {
    if (!this.counts.relayoutOnly)
      for (const summary of this.summaries) {
        const started = Date.now();
        const written = await summary.rebuild();
        log(`${summary.name} rebuilt in ${Date.now() - started} ms: ${written} written`);
      }
    log(`rebuilding the counts of ${this.decl.name}`);
    let pass = await this.countPass();
    if (pass.misplaced.length > 0) {
      for (const doc of pass.misplaced)
        await withDocLock(
          this.collection,
          (doc[this.key] as number | string) ?? String(doc._id),
          () =>
            this.collection.updateOne(
              { _id: doc._id } as Filter<D>,
              { $set: this.place(doc) } as never,
            ),
        );
      pass = await this.countPass();
    }
    await this.counts.replace(pass.counts);
    log(`counts of ${this.decl.name} rebuilt: ${pass.total} documents`);
    return pass.total;
  }

  /** Every stored document counted here (FerretDB's $group is slow), and those without a place. */
  private async countPass(): Promise<{
    counts: Record<string, number>;
    misplaced: Document[];
    total: number;
  }> {
    const projection: Document = { _id: 1, id: 1, block: 1, part: 1, day: 1, deleted_at: 1 };
    for (const f of [...this.countedBy, ...this.tallied.map(([, f]) => f)]) projection[f] = 1;
    if (this.decl.day) projection[this.decl.day.from] = 1;
    const counts: Record<string, number> = {};
    const misplaced: Document[] = [];
    let total = 0;
    for (const doc of await this.collection.find({}, { projection }).toArray()) {
      const place = this.place(doc);
      if (Object.entries(place).some(([k, v]) => doc[k] !== v)) misplaced.push(doc);
      const keys = this.keysOf({ ...doc, ...place });
      if (keys.length > 0) total++;
      for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
    }
    return { counts, misplaced, total };
  }

  /**
   * Repairs kept counts that drifted (issue 42): a process killed between a document's write and
   * its count's (`kill -9`, a connection lost at that moment) leaves a count one off for good, and
   * the pages read the counts. Two counting passes `settleMs` apart, each between two reads of
   * the counts: a key whose kept count and whose documents held still through both passes, yet
   * differ, drifted, and the difference is added as a write's would be (to this process's shard).
   * A key that moved meanwhile is left for the next recount; the writes of the other processes go
   * on meanwhile (nothing is replaced, unlike a rebuild). A write that took longer than
   * `settleMs` between its document and its count would be corrected once too often, and set
   * right by the next recount. `held`: the one-replica job's lease, asked before the repair.
   * Answers the keys repaired.
   */
  async recount(settleMs: number, held: () => boolean = () => true): Promise<string[]> {
    const sample = async () => {
      const before = await this.counts.read();
      const stored = await this.countPass();
      const after = await this.counts.read();
      return before && after ? { before: before.n, stored: stored.counts, after: after.n } : null;
    };
    const first = await sample();
    if (!first) return [];
    await new Promise((resolve) => setTimeout(resolve, settleMs).unref());
    const second = held() ? await sample() : null;
    if (!second || !held()) return [];
    const deltas = new Map<string, number>();
    const keys = new Set([first, second].flatMap((p) => Object.keys({ ...p.stored, ...p.after })));
    for (const key of keys) {
      const kept = [first.before, first.after, second.before, second.after].map((n) => n[key] ?? 0);
      const stored = second.stored[key] ?? 0;
      if (kept.some((n) => n !== kept[0]) || (first.stored[key] ?? 0) !== stored) continue;
      if (stored !== kept[0]) deltas.set(key, stored - kept[0]!);
    }
    await this.counts.add(deltas);
    return [...deltas.keys()];
  }

  /** The counts' idle shards folded into the counts (KeptCounts.fold). */
  foldCounts(): Promise<number> {
    return this.counts.fold();
  }

  /**
   * Gives the documents of the two newest blocks that have a block but no part their part, and
   * answers how many. During a rolling upgrade a replica of the version before parts still
   * inserts documents without one; the part reads would never find them. Run every minute (two
   * block reads); documents only ever go into the newest blocks.
   */
  async placeNewest(): Promise<number> {
    if (this.decl.day) return 0;
    const counters = this.conn.collection<{ _id: string; seq: number }>('counters');
    const top = await counters.findOne({ _id: this.decl.name });
    if (!top) return 0;
    const newest = blockOf(top.seq);
    let placed = 0;
    for (const block of [newest, newest - 1]) {
      if (block < 0) continue;
      const missing = await this.collection
        .find({ block, part: { $exists: false } } as Filter<D>, {
          projection: { _id: 1, id: 1, [this.key]: 1 },
        })
        .toArray();
      for (const doc of missing) {
        const named = { [this.key]: doc[this.key] } as Filter<D>;
        await this.update(named, { $set: { part: partOf(doc.id as number) } });
        placed++;
      }
    }
    return placed;
  }
}
