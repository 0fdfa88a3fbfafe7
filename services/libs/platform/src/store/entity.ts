import type { DomainEvent } from '@furniture/contracts';
import type { Document, Filter, Sort, UpdateFilter } from 'mongodb';
import { insertedUnlessTaken } from '../mongo';
import { docWithEvents, tombstoneUpdate, withEvents } from '../messaging/outbox';
import { docKey, type IndexKeys, type Mutated, type StoredCollection } from './collection';
import type { ListPage, StoredList, Tally } from './list';
import type { RecordCodec, RecordSchema } from './record';
import type { KeptSummaries, SummaryDeclaration } from './summaries';

/** What a list adds to an entity's declaration: its counts, and what it is paged and counted by. */
export interface ListOptions {
  /** the collection (same database) whose document `all` keeps the list's counts */
  counts: string;
  /** fields whose equality (or `$in`) a counted page, count or tally may be narrowed by */
  countedBy?: readonly string[];
  /** fields counted over the whole list, by key prefix: `{ user: 'user_id' }` counts `user:<id>` */
  tallied?: Readonly<Record<string, string>>;
  /**
   * Buckets of a day (`of` the date in `from`), the newest first, each read in `order`; without
   * it the buckets are blocks of 100 ids (the record's `id`), read newest id first.
   */
  day?: { from: string; of: (value: Date) => string; order: Sort };
}

/**
 * An entity, declared once: its record (a zod object, whose output is the record type and whose
 * input is the stored form), how a record is named, and what the store keeps for it.
 */
export interface EntityDeclaration<S extends RecordSchema = RecordSchema> {
  /** the collection's name in the service's database (one declaration per name) */
  name: string;
  /** the record's fields (the domain's declaration in `records.ts`) */
  record: S;
  /** the record field that names one record (`get`, `mutate`, the turns of its writes) */
  key: string;
  /**
   * The stored `_id` is the key as text (`docKey`): a read or write by key is a primary-key
   * lookup, the one FerretDB answers fastest. Without it `_id` is the server's own.
   */
  idFromKey?: boolean;
  /** indexes of the reads (one per filter and sort a repository asks); keys as MongoDB's */
  indexes?: readonly IndexKeys[];
  /** unique keys: a field, or several fields together. The one guarantee across processes. */
  unique?: readonly (string | IndexKeys)[];
  /**
   * Records whose `field` (a date) lies more than `afterMs` (default 0) in the past are deleted:
   * by a TTL index where the server has them (MongoDB), by a job every hour where not (FerretDB).
   */
  expiry?: { field: string; afterMs?: number };
  /**
   * A removal that carries events leaves a tombstone (`deleted_at`) until they are out; every
   * read leaves tombstones out.
   */
  tombstones?: boolean;
  /** writes may carry events: they are stored with the write and relayed by the store */
  outbox?: boolean;
  /** a list: read newest first page by page, counted and tallied from kept counts (list.ts) */
  list?: ListOptions;
}

/** Events a write publishes: with the write (the outbox), relayed by the store right after. */
export type Events = readonly DomainEvent[] | undefined;

/** One change decided on a record as it was read (Entity.mutate). */
export type Change<R> =
  | {
      /** the record's changed fields */
      set: Partial<R>;
      /** stored fields besides the record's (derived keys) */
      stored?: Document;
      events: (after: R) => DomainEvent[];
    }
  | { remove: true; stored?: Document; events: DomainEvent[] };

/** How a read is ordered and cut. */
export interface FindOptions {
  sort?: Sort;
  limit?: number;
  skip?: number;
}

/** What an entity needs of its store: the relay to kick after a write that carried events. */
export interface EntityHost {
  kick(): void;
}

/** Fields of the outbox and of the store that never leave a read of stored documents. */
const STORE_FIELDS = ['_id', '_outbox', '_outbox_pending', '_purge', 'block', 'part'];

const hasEvents = (events: Events): events is readonly DomainEvent[] =>
  events !== undefined && events.length > 0;

/**
 * The one way in to a collection: reads that apply its rules (tombstones left out, only the
 * record's declared fields handed out, defaults for what an older version did not store) and
 * guarded writes that carry their events (stored in the same document write, relayed by the store
 * at once: a repository never asks for it). `R` is the record (the declaration's output), `D` its
 * stored form (the input: a codec's dates as dates).
 *
 * What holds across processes rests on unique keys (`insertUnlessTaken`: an insert wins or
 * loses, on FerretDB and MongoDB alike); a guarded `update` is exact across processes on MongoDB
 * only (FerretDB reads and writes an update without isolation), and within a process on both (the
 * document's turn, locks.ts).
 */
export class Entity<R extends object, D extends object = R> {
  constructor(
    readonly decl: EntityDeclaration,
    /** the store's collection underneath (internal to the store: `stored` for the store's own use) */
    protected readonly stored: StoredCollection<Document>,
    protected readonly codec: RecordCodec<R, D>,
    private readonly host: EntityHost,
  ) {}

  get name(): string {
    return this.decl.name;
  }

  // ---- filters ----

  /** The stored `_id` of a key (idFromKey) or the key's own field. */
  protected named(key: number | string): Document {
    return this.decl.idFromKey ? { _id: docKey(key) } : { [this.decl.key]: key };
  }

  /**
   * A filter as stored: the key as `_id` (idFromKey; a condition on the key stays a condition on
   * its field) and, unless asked otherwise, tombstones left out.
   */
  protected where(filter: Filter<D> | Document, withDeleted = false): Document {
    let where = filter as Document;
    const key = where[this.decl.key] as unknown;
    if (this.decl.idFromKey && (typeof key === 'number' || typeof key === 'string')) {
      const { [this.decl.key]: _key, ...rest } = where;
      where = { _id: docKey(key), ...rest };
    }
    if (this.decl.tombstones && !withDeleted && !('deleted_at' in where))
      where = { ...where, deleted_at: null };
    return where;
  }

  /** The projection of a read: the record's fields (and what the rules need). */
  protected projection(fields: readonly string[] = this.codec.fields): Document {
    const projection: Document = Object.fromEntries(fields.map((f) => [f, 1]));
    if (!fields.includes('_id')) projection._id = 0;
    return projection;
  }

  // ---- reads ----

  /** The record of a key; null when there is none (or only its tombstone). */
  async get(key: number | string): Promise<R | null> {
    // exactly the key (FerretDB answers `{_id}` from its primary key); the tombstone checked here
    const projection = this.projection();
    if (this.decl.tombstones) projection.deleted_at = 1;
    const doc = await this.stored.collection.findOne(this.named(key), { projection });
    return doc && !(this.decl.tombstones && doc.deleted_at) ? this.codec.read(doc) : null;
  }

  /** The records of some keys, in no particular order (one primary-key read each). */
  async getMany(keys: readonly (number | string)[]): Promise<R[]> {
    const found = await Promise.all([...new Set(keys)].map((key) => this.get(key)));
    return found.filter((r): r is Awaited<R> => r !== null);
  }

  /** The first record a filter matches (in `sort` order), or null. */
  async findOne(filter: Filter<D> | Document, opts: { sort?: Sort } = {}): Promise<R | null> {
    const [first] = await this.find(filter, { ...opts, limit: 1 });
    return first ?? null;
  }

  /** The records a filter matches, in `sort` order, at most `limit` (0: all). */
  find(filter: Filter<D> | Document, opts?: FindOptions): Promise<R[]>;
  /** Only these fields of the records a filter matches. */
  find<F extends keyof R & string>(
    filter: Filter<D> | Document,
    opts: FindOptions & { fields: readonly F[] },
  ): Promise<Pick<R, F>[]>;
  async find(
    filter: Filter<D> | Document,
    opts: FindOptions & { fields?: readonly string[] } = {},
  ): Promise<unknown[]> {
    const { fields } = opts;
    let cursor = this.stored.collection.find(this.where(filter), {
      projection: this.projection(fields),
    });
    if (opts.sort) cursor = cursor.sort(opts.sort);
    if (opts.skip) cursor = cursor.skip(opts.skip);
    if (opts.limit) cursor = cursor.limit(opts.limit);
    const docs = await cursor.toArray();
    return fields
      ? docs.map((d) => this.codec.readFields(d, fields))
      : docs.map((d) => this.codec.read(d));
  }

  /** Every record a filter matches, in `sort` order, read a batch at a time (an export). */
  async *stream(
    filter: Filter<D> | Document,
    opts: { sort?: Sort; batchSize?: number } = {},
  ): AsyncGenerator<R> {
    const cursor = this.stored.collection.find(this.where(filter), {
      projection: this.projection(),
      batchSize: opts.batchSize ?? 500,
    });
    if (opts.sort) cursor.sort(opts.sort);
    try {
      for await (const doc of cursor) yield this.codec.read(doc);
    } finally {
      await cursor.close();
    }
  }

  /** How many records a filter matches. */
  count(filter: Filter<D> | Document = {}): Promise<number> {
    return this.stored.collection.countDocuments(this.where(filter));
  }

  /** Whether a filter matches a record. */
  async exists(filter: Filter<D> | Document): Promise<boolean> {
    const where = this.where(filter);
    return (await this.stored.collection.findOne(where, { projection: { _id: 1 } })) !== null;
  }

  /**
   * The documents a filter matches as they are stored, every field the service keeps (derived
   * keys, erasure marks, tombstones included) but the store's own (`_id`, outbox, buckets): what
   * the privacy lookup shows a person. Dates as dates.
   */
  async storedAs(
    filter: Filter<D> | Document,
    opts: { sort?: Sort; hide?: readonly string[] } = {},
  ): Promise<Record<string, unknown>[]> {
    const hidden = new Set([...STORE_FIELDS, ...(opts.hide ?? [])]);
    let cursor = this.stored.collection.find(this.where(filter, true));
    if (opts.sort) cursor = cursor.sort(opts.sort);
    const docs = await cursor.toArray();
    return docs.map((doc) =>
      Object.fromEntries(Object.entries(doc).filter(([k]) => !hidden.has(k))),
    );
  }

  // ---- writes ----

  private relayed(events: Events): void {
    if (hasEvents(events)) this.host.kick();
  }

  private checkEvents(events: Events): void {
    if (hasEvents(events) && !this.decl.outbox)
      throw new Error(`${this.name}: a write carries events, but the entity declares no outbox`);
  }

  /** The stored document of a new record (validated), with derived fields and its events. */
  private document(record: R, opts: { events?: Events; stored?: Document }): Document {
    this.checkEvents(opts.events);
    const doc: Document = { ...this.codec.write(record), ...opts.stored };
    if (this.decl.idFromKey)
      doc._id = docKey((record as Record<string, unknown>)[this.decl.key] as number | string);
    return hasEvents(opts.events) ? docWithEvents(doc, [...opts.events]) : doc;
  }

  /**
   * Stores a new record with the events its creation publishes. A unique key another record
   * holds throws (`isDuplicateKeyError`); `insertUnlessTaken` answers it instead.
   */
  async insert(record: R, opts: { events?: Events; stored?: Document } = {}): Promise<void> {
    await this.stored.insert(this.document(record, opts));
    this.relayed(opts.events);
  }

  /**
   * Stores a new record unless another holds one of its unique keys (here or in another
   * process: the index decides, on every engine); true when this one was stored.
   */
  async insertUnlessTaken(
    record: R,
    opts: { events?: Events; stored?: Document } = {},
  ): Promise<boolean> {
    const doc = this.document(record, opts);
    const inserted = await insertedUnlessTaken(() => this.stored.insert(doc));
    if (inserted) this.relayed(opts.events);
    return inserted;
  }

  /**
   * One guarded write: `filter` names the record by its key and states what must still hold;
   * `update` is MongoDB's (`$set`, `$inc`, `$push`, …); its events go with it. Answers whether the
   * record matched (and was written).
   */
  async update(
    filter: Filter<D> | Document,
    update: UpdateFilter<D> | Document,
    opts: { events?: Events } = {},
  ): Promise<boolean> {
    const { events } = opts;
    this.checkEvents(events);
    const change = hasEvents(events) ? withEvents(update as Document, [...events]) : update;
    const done = await this.stored.update(this.where(filter), change as Document);
    if (done) this.relayed(events);
    return done;
  }

  /**
   * Removes the record a filter names (guarded like an update). With events it becomes a
   * tombstone that the relay deletes once they are out; without, it is deleted at once.
   */
  async remove(
    filter: Filter<D> | Document,
    opts: { events?: Events; stored?: Document } = {},
  ): Promise<boolean> {
    if (!hasEvents(opts.events)) return this.stored.remove(this.where(filter));
    this.checkEvents(opts.events);
    const done = await this.stored.update(
      this.where(filter),
      tombstoneUpdate([...opts.events], opts.stored),
    );
    if (done) this.relayed(opts.events);
    return done;
  }

  /**
   * A write that creates the record's document when the filter matches none (a counter's `$inc`,
   * a `$min`); two first writes race to insert it, the loser writes again onto the winner's.
   */
  async upsert(filter: Filter<D> | Document, update: UpdateFilter<D> | Document): Promise<void> {
    await this.stored.upsert(this.where(filter, true), update as Document);
  }

  /**
   * Compare-and-set on `rev`: reads the record, lets `decide` choose a change (or none) and writes
   * it with its events, guarded by the `rev` it was decided on (a removal leaves a tombstone with
   * a newer rev). Another process's write in between makes it read and decide again. null: there
   * is no such record. Whatever `decide` throws ends the call unchanged.
   */
  async mutate(
    key: number | string,
    decide: (current: R) => Change<R> | null | Promise<Change<R> | null>,
  ): Promise<Mutated<R> | null> {
    const named = this.named(key)[this.decl.idFromKey ? '_id' : this.decl.key] as string | number;
    let published = false;
    const result = await this.stored.mutate(
      named,
      () => this.get(key) as Promise<(R & { rev: number }) | null>,
      async (current: R & { rev: number }) => {
        const change = await decide(current);
        if (!change) return null;
        const checked = (events: DomainEvent[]) => {
          this.checkEvents(events);
          published = events.length > 0;
          return events;
        };
        return (
          'remove' in change
            ? { ...change, events: checked(change.events) }
            : { ...change, events: (after: R) => checked(change.events(after)) }
        ) as never;
      },
    );
    if (result?.changed && published) this.host.kick();
    return result as Mutated<R> | null;
  }

  /**
   * Runs `fn` in the turn of `key` in this process: no other write of this process to that record
   * (or turn name) comes between. An optimisation against needless collisions, never a guarantee
   * across processes: what must hold there rests on the writes' guards and unique keys.
   */
  inTurnOf<T>(key: number | string, fn: () => Promise<T>): Promise<T> {
    return this.stored.inTurnOf(key, fn);
  }

  /** The next id of the entity's counter (ids are small integers shown to people). */
  nextId(): Promise<number> {
    return this.stored.nextId();
  }
}

/**
 * An entity read newest first, page by page, counted and tallied from kept counts (list.ts): the
 * staff lists. A page, count or tally whose filter names only counted fields is read from the
 * counts and the buckets it lies in; any other is asked of the server.
 */
export class ListedEntity<R extends object, D extends object = R> extends Entity<R, D> {
  constructor(
    decl: EntityDeclaration,
    private readonly list: StoredList<Document>,
    codec: RecordCodec<R, D>,
    host: EntityHost,
  ) {
    super(decl, list, codec, host);
  }

  private pageOpts(page: ListPage): ListPage {
    return { ...page, projection: page.projection ?? this.projection() };
  }

  /** A page of the filter's records, newest first (tombstones left out by the list). */
  async page(filter: Filter<D> | Document, page: ListPage): Promise<R[]> {
    const docs = await this.list.page(this.where(filter, true), this.pageOpts(page));
    return docs.map((d) => this.codec.read(d));
  }

  /** A page and the number of the filter's records (all pages). */
  async pageWithTotal(
    filter: Filter<D> | Document,
    page: ListPage,
  ): Promise<{ records: R[]; total: number }> {
    const { docs, total } = await this.list.pageWithTotal(
      this.where(filter, true),
      this.pageOpts(page),
    );
    return { records: docs.map((d) => this.codec.read(d)), total };
  }

  /** How many records the filter matches (from the counts where they can say). */
  override count(filter: Filter<D> | Document = {}): Promise<number> {
    return this.list.count(this.where(filter, true));
  }

  /** How many of the filter's records hold each value of each field, and how many in all. */
  tallies(fields: string[], filter: Filter<D> | Document = {}): Promise<Tally> {
    return this.list.tallies(fields, this.where(filter, true));
  }

  /** `tallies` of several filters, the counts read once for all of them. */
  talliesEach(fields: string[], filters: (Filter<D> | Document)[]): Promise<Tally[]> {
    return this.list.talliesEach(
      fields,
      filters.map((f) => this.where(f, true)),
    );
  }

  /** The buckets of the whole list, newest first, with their sizes; null while rebuilt. */
  buckets(): Promise<[number | string, number][] | null> {
    return this.list.buckets();
  }

  /** One bucket's records (a day of a day list), in list order. */
  async bucket(bucket: number | string, fields?: readonly string[]): Promise<R[]> {
    const docs = await this.list.bucket(bucket, this.projection(fields));
    return docs.map((d) => this.codec.read(d));
  }

  /**
   * A summary per group of the list's records (e.g. per lot of applications), recomputed after
   * every write that touches its fields (summaries.ts).
   */
  summarize<M, S extends Document>(decl: SummaryDeclaration<M, S>): KeptSummaries<M, S> {
    return this.list.summarize(decl);
  }
}
