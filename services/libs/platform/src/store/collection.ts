import type { DomainEvent } from '@furniture/contracts';
import type { Collection, Document, Filter, Sort, UpdateFilter } from 'mongodb';
import { docWithEvents, NOT_DELETED, tombstoneUpdate, withEvents } from '../messaging/outbox';
import { nextId, retryingDuplicates, type Connection } from '../mongo';
import { withDocLock } from './locks';

/**
 * A document's string `_id` for its integer id: FerretDB 1.24 on SQLite answers only a filter
 * that is exactly `{_id: '<string>'}` from its primary key and scans the whole collection for
 * anything else (measured: 7 ms versus 1.9 s at 20 000 photos; a lot detail page would read every
 * lot), so every lookup on a hot path goes by a string `_id`. On MongoDB and FerretDB on
 * PostgreSQL it is simply the primary key.
 */
export const docKey = (id: number | string): string => String(id);

/** What a repository declares of a collection it writes through the store. */
export interface CollectionDeclaration {
  /** the collection's name in the service's database */
  name: string;
  /** the field that names a document in a write's filter: `id` (default) or e.g. `_id` */
  key?: string;
  /**
   * Documents whose `field` (a date) lies more than `afterMs` (default 0) in the past are deleted:
   * by a TTL index where the server has them (MongoDB), by a job every hour where not (FerretDB).
   */
  expiry?: { field: string; afterMs?: number };
  /** unique keys: a field, or several fields together */
  unique?: readonly (string | IndexKeys)[];
  /** indexes of the reads (one per filter and sort a repository asks) */
  indexes?: readonly IndexKeys[];
  /** documents carry an outbox: the relay's query is indexed */
  outbox?: boolean;
  /** documents with a `deleted_at` (tombstones) are left out of every read unless asked for */
  tombstones?: boolean;
}

/** How a read is ordered, cut and shaped (StoredCollection's reads). */
export interface ReadOptions {
  sort?: Sort;
  limit?: number;
  skip?: number;
  /** fields to read (the store's own fields are never read) */
  projection?: Document;
  /** tombstones too (the privacy lookup, the erasure, a restore) */
  withDeleted?: boolean;
}

/** The store's own fields: the outbox and the purge mark, never part of what a read answers. */
export const STORE_FIELDS = { _outbox: 0, _outbox_pending: 0, _purge: 0 } as const;

/** An index's keys as MongoDB's (`{ status: 1, id: -1 }`). */
export type IndexKeys = Readonly<Record<string, 1 | -1>>;

/** One change decided on a document as it was read (StoredCollection.mutate). */
export type Mutation<T> =
  | {
      /** the record's changed fields */
      set: Partial<T>;
      /** stored fields besides the record's (derived keys) */
      stored?: Document;
      events: (after: T) => DomainEvent[];
    }
  | { remove: true; stored?: Document; events: DomainEvent[] };

export interface Mutated<T> {
  before: T;
  after: T;
  changed: boolean;
}

/** Attempts of a compare-and-set write before giving up (only several replicas need a second). */
const MAX_ATTEMPTS = 5;

/**
 * Writes to one collection, each as MongoDB would make it: one document at a time, guarded by
 * the filter, with the events it publishes in the same document write (the outbox).
 *
 * FerretDB 1.24 (the single-machine run and CI) applies an update as "read the document, modify
 * it, write it back" without isolation (FerretDB issue #3040): two concurrent updates of one
 * document can lose one of them, and a guarded update can match twice. Every write here therefore
 * runs in its document's turn (an in-process lock, locks.ts): within one process that makes
 * FerretDB behave like MongoDB for single-document writes, an optimisation. Across processes a
 * filter or `rev` decides only on MongoDB; invariants across processes rest on unique keys and
 * inserts that win or lose (`insertUnlessTaken`, claims, leases), which hold on both servers.
 */
export class StoredCollection<D extends Document = Document> {
  readonly collection: Collection<D>;
  protected readonly key: string;
  /**
   * Set by the store: asks the outbox relays to publish now, after every write here that carried
   * events (no repository has to remember it; their interval catches up on what a crash left).
   */
  askRelays?: () => void;

  constructor(
    protected readonly conn: Connection,
    readonly decl: CollectionDeclaration,
  ) {
    this.collection = conn.collection(decl.name) as unknown as Collection<D>;
    this.key = decl.key ?? 'id';
  }

  // ---- reads: the one way to read a declared collection (issue 42) ----

  /** The filter with the collection's rules: tombstones left out unless asked for. */
  protected live(filter: Filter<D> | Document, withDeleted = false): Filter<D> {
    return (
      this.decl.tombstones && !withDeleted && !('deleted_at' in filter)
        ? { ...NOT_DELETED, ...filter }
        : filter
    ) as Filter<D>;
  }

  private projected(projection?: Document): Document {
    return projection && Object.values(projection).some((v) => v === 1 || v === true)
      ? projection
      : { ...STORE_FIELDS, ...projection };
  }

  /**
   * The document named by its key (a string `_id` by `docKey`: answered from the primary key on
   * every server), or null; a tombstone unless asked for is null too.
   */
  async get(key: number | string, opts: Pick<ReadOptions, 'withDeleted'> = {}): Promise<D | null> {
    const named = { [this.key]: this.key === '_id' ? docKey(key) : key } as Filter<D>;
    const doc = (await this.collection.findOne(named, {
      projection: this.projected(),
    })) as D | null;
    return doc && !(this.decl.tombstones && !opts.withDeleted && doc.deleted_at) ? doc : null;
  }

  /** The first document of the filter (in `sort` order), or null. */
  async findOne(filter: Filter<D> | Document, opts: ReadOptions = {}): Promise<D | null> {
    return (await this.find(filter, { ...opts, limit: 1 }))[0] ?? null;
  }

  /** The filter's documents in `sort` order (all of them unless cut). */
  find(filter: Filter<D> | Document, opts: ReadOptions = {}): Promise<D[]> {
    let cursor = this.collection.find(this.live(filter, opts.withDeleted), {
      projection: this.projected(opts.projection),
    });
    if (opts.sort) cursor = cursor.sort(opts.sort);
    if (opts.skip) cursor = cursor.skip(opts.skip);
    if (opts.limit) cursor = cursor.limit(opts.limit);
    return cursor.toArray() as Promise<D[]>;
  }

  /** How many documents the filter matches, counted from the documents (never kept counts). */
  countStored(filter: Filter<D> | Document = {}, opts: Pick<ReadOptions, 'withDeleted'> = {}) {
    return this.collection.countDocuments(this.live(filter, opts.withDeleted));
  }

  /** Whether the filter matches a document. */
  async exists(filter: Filter<D> | Document, opts: Pick<ReadOptions, 'withDeleted'> = {}) {
    const found = await this.collection.findOne(this.live(filter, opts.withDeleted), {
      projection: { _id: 1 },
    });
    return found !== null;
  }

  /** The turn of the document a filter names by its key. */
  protected turn<T>(filter: Filter<D> | Document, fn: () => Promise<T>): Promise<T> {
    const key = (filter as Document)[this.key] as number | string | undefined;
    if (key === undefined || (typeof key === 'object' && key !== null))
      throw new Error(`${this.decl.name}: a write names its document by ${this.key}`);
    return withDocLock(this.collection, key, fn);
  }

  /** Stores a new document with the events its creation publishes. */
  async insert(doc: D, events?: DomainEvent[]): Promise<void> {
    await this.collection.insertOne((events ? docWithEvents(doc, events) : doc) as never);
    this.published(events);
  }

  /**
   * After a write that stored `events` (or an update that carries them itself, a tombstone's):
   * the relays are asked to publish them now.
   */
  protected published(events?: readonly unknown[], update?: Document): void {
    const carried = (update?.$push as Document | undefined)?._outbox !== undefined;
    if ((events && events.length > 0) || carried) this.askRelays?.();
  }

  /**
   * One guarded write (`filter` names the document by its key and states what must still hold)
   * with the events it publishes. Answers whether the document matched.
   */
  async update(
    filter: Filter<D>,
    update: UpdateFilter<D> | Document,
    events?: DomainEvent[],
  ): Promise<boolean> {
    const change = (events ? withEvents(update, events) : update) as UpdateFilter<D>;
    return this.turn(filter, async () => {
      const res = await this.collection.updateOne(filter, change);
      if (res.matchedCount === 1) this.published(events, update as Document);
      return res.matchedCount === 1;
    });
  }

  /**
   * A write that creates the document when the filter matches none (a counter's `$inc`). Two
   * first writes race to insert it: the loser writes again, then onto the winner's document.
   */
  async upsert(filter: Filter<D>, update: UpdateFilter<D> | Document): Promise<void> {
    await this.turn(filter, () =>
      retryingDuplicates(() =>
        this.collection.updateOne(filter, update as UpdateFilter<D>, { upsert: true }),
      ),
    );
  }

  /** Deletes the document a filter names (in its turn); answers whether it did. */
  async remove(filter: Filter<D>): Promise<boolean> {
    return this.turn(
      filter,
      async () => (await this.collection.deleteOne(filter)).deletedCount > 0,
    );
  }

  /**
   * Reads, decides and writes one document as one step: `fn` runs in the document's turn, so no
   * other write of this process comes between its read and its write. Its write must still be
   * guarded by what it read (other processes).
   */
  inTurnOf<T>(key: number | string, fn: () => Promise<T>): Promise<T> {
    return this.turn({ [this.key]: key }, fn);
  }

  /**
   * Compare-and-set on `rev`: reads the record (`read`), lets `decide` choose a change (or none)
   * and writes it with its events, guarded by the `rev` it was decided on (a tombstone for a
   * removal, which has a newer rev, so the guard also refuses a record deleted meanwhile). Another
   * process's write in between makes it read and decide again. null: there is no such record.
   * Whatever `decide` throws (a stale version, say) ends the call unchanged.
   */
  async mutate<T extends { rev: number }>(
    key: number | string,
    read: () => Promise<T | null>,
    decide: (current: T) => Mutation<T> | null | Promise<Mutation<T> | null>,
  ): Promise<Mutated<T> | null> {
    const filter = { [this.key]: key } as Filter<D>;
    return this.turn(filter, async () => {
      for (let attempt = 1; ; attempt++) {
        const before = await read();
        if (!before) return null;
        const change = await decide(before);
        if (!change) return { before, after: before, changed: false };
        const rev = before.rev + 1;
        const after = { ...before, ...('set' in change ? change.set : {}), rev } as T;
        const events = 'remove' in change ? change.events : change.events(after);
        const update =
          'remove' in change
            ? tombstoneUpdate(events, { ...change.stored, rev })
            : withEvents({ $set: { ...change.set, ...change.stored, rev } }, events);
        const res = await this.collection.updateOne(
          { ...filter, rev: before.rev } as Filter<D>,
          update as UpdateFilter<D>,
        );
        if (res.matchedCount === 1) {
          await this.written(before, 'remove' in change ? null : after);
          this.published(events);
          return { before, after, changed: true };
        }
        if (attempt >= MAX_ATTEMPTS)
          throw new Error(`${this.decl.name} ${key}: concurrent writes did not settle`);
      }
    });
  }

  /** After a write that changed `before` into `after` (null: removed); lists count it. */
  protected async written(_before: Document, _after: Document | null): Promise<void> {}

  /** The next id of the collection's counter (ids are drawn in arrival order). */
  nextId(): Promise<number> {
    return nextId(this.conn, this.decl.name);
  }

  /** At start: the declared indexes, the unique keys', the outbox's and the expiry's. */
  async ensureIndexes(): Promise<void> {
    for (const unique of this.decl.unique ?? [])
      await this.collection.createIndex(
        (typeof unique === 'string' ? { [unique]: 1 } : unique) as never,
        { unique: true },
      );
    for (const keys of this.decl.indexes ?? []) await this.collection.createIndex(keys as never);
    if (this.decl.outbox) await this.collection.createIndex({ _outbox_pending: 1 } as never);
    const { expiry } = this.decl;
    if (!expiry) return;
    await this.collection
      .createIndex({ [expiry.field]: 1 } as never, {
        expireAfterSeconds: Math.round((expiry.afterMs ?? 0) / 1000),
      })
      .catch((err: { code?: number; codeName?: string }) => {
        // FerretDB 1.24 has no TTL indexes (NotImplemented); an index of other options exists
        if (err.code !== 238 && err.code !== 85 && err.code !== 86) throw err;
      });
  }

  /** What a TTL index does, where the server has none: deletes the expired documents. */
  async purgeExpired(now = new Date()): Promise<number> {
    const { expiry } = this.decl;
    if (!expiry) return 0;
    const before = new Date(now.getTime() - (expiry.afterMs ?? 0));
    const res = await this.collection.deleteMany({ [expiry.field]: { $lt: before } } as never);
    return res.deletedCount;
  }
}
