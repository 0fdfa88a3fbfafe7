// The storage module: what a repository stores and asks, and everything FerretDB 1.24 (the
// single-machine run and CI) needs to make that fast and safe, in one place. A repository
// declares a collection (with its expiry) or a list (with the fields it is counted and paged by)
// and asks: insert, guarded update, compare-and-set, page, count, tally. Kept counts, buckets and
// parts, layouts and their rebuilds, per-document turns and TTL emulation stay in here, behind an
// interface a MongoDB-native implementation could satisfy without touching a repository
// (docs/service-guide.md "The store").
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import type { Logger } from '../logger';
import type { Connection } from '../mongo';
import { OutboxRelay, type OutboxSource } from '../messaging/outbox';
import type { EventBus } from '../messaging/bus';
import { StoredCollection, type CollectionDeclaration } from './collection';
import { Entity, ListedEntity, type EntityDeclaration, type ListOptions } from './entity';
import { mongoLimiter, type Limiter, type LimiterDeclaration } from './limiter';
import { Claims, type ClaimDoc } from './claims';
import { Leases, type Lease, type LeaseDoc } from './leases';
import { StoredList, type ListDeclaration } from './list';
import { recordCodec, type RecordSchema } from './record';

export {
  docKey,
  StoredCollection,
  type CollectionDeclaration,
  type IndexKeys,
  type Mutated,
  type Mutation,
  type ReadOptions,
} from './collection';
export {
  Entity,
  ListedEntity,
  type Change,
  type EntityDeclaration,
  type Events,
  type FindOptions,
  type ListOptions,
} from './entity';
export type { RecordSchema } from './record';
export { StoredList, type ListDeclaration, type ListPage, type Tally } from './list';
export { KeptSummaries, type SummaryDeclaration } from './summaries';
export type { Limiter, LimiterDeclaration } from './limiter';
export { Leases, type Lease } from './leases';
export { Claims } from './claims';

/** A rebuild's lease; renewed while it runs, taken over this long after its holder died. */
const REBUILD_LEASE_MS = 60_000;

/** A scheduled piece of upkeep (ServiceKit.every). */
export interface StoreJob {
  name: string;
  everyMs: number;
  /**
   * one pass; a job of one replica gets its lease: a pass that writes item after item checks
   * `lease.held()` before each and stops once it is false (another replica may have taken over)
   */
  run: (lease?: Lease) => Promise<unknown>;
  /** run by one replica at a time (ServiceKit.every's lease) */
  oneReplica?: boolean;
}

/** An entity's record type and stored form, from its declaration's record. */
export type EntityOf<S extends RecordSchema> = Entity<z.output<S>, z.input<S>>;
export type ListedEntityOf<S extends RecordSchema> = ListedEntity<z.output<S>, z.input<S>>;

/** A name's one declaration and what it made. */
interface Declared {
  kind: 'entity' | 'collection' | 'list';
  decl: object;
  made: unknown;
}

/** One service database's store: its declared collections and lists, opened with the service. */
export class Store {
  private readonly collections: StoredCollection[] = [];
  private readonly lists: StoredList[] = [];
  private readonly declared = new Map<string, Declared>();
  /** the collections that carry an outbox (read by the relay at every sweep) */
  private readonly outboxes: OutboxSource[] = [];
  private relay?: OutboxRelay;
  private readonly kickers: (() => void)[] = [];

  constructor(private readonly conn: Connection) {}

  /** told of every recount that repaired counts (the service logs it) */
  onRecount?: (list: string, keys: string[]) => void;

  /**
   * The one declaration of `name`: a second one that says the same answers what the first made
   * (two repositories of one collection share it); one that says anything else is refused at the
   * start, where it is made (it used to be ignored, and one of them silently wrong).
   */
  private once<T>(kind: Declared['kind'], decl: { name: string }, make: () => T): T {
    const declared = this.declared.get(decl.name);
    if (declared) {
      if (declared.kind === kind && isDeepStrictEqual(declared.decl, decl))
        return declared.made as T;
      throw new Error(
        `${decl.name} is declared twice, differently: declare it once and share what it made`,
      );
    }
    const made = make();
    this.declared.set(decl.name, { kind, decl, made });
    return made;
  }

  /**
   * An entity: one collection's records, declared once (their fields, key, indexes, unique keys,
   * expiry, tombstones, outbox, list), read and written only through what this answers (entity.ts).
   */
  entity<S extends RecordSchema>(
    decl: EntityDeclaration<S> & { list: ListOptions },
  ): ListedEntityOf<S>;
  entity<S extends RecordSchema>(decl: EntityDeclaration<S>): EntityOf<S>;
  entity<S extends RecordSchema>(decl: EntityDeclaration<S>): EntityOf<S> | ListedEntityOf<S> {
    return this.once('entity', decl, () => {
      const codec = recordCodec(decl.name, decl.record);
      const stored: CollectionDeclaration = {
        name: decl.name,
        key: decl.idFromKey ? '_id' : decl.key,
        expiry: decl.expiry,
        unique: decl.unique,
        indexes: decl.indexes,
        outbox: decl.outbox,
      };
      const host = { kick: () => this.kick() };
      let made: EntityOf<S> | ListedEntityOf<S>;
      let collection: StoredCollection;
      if (decl.list) {
        const list = this.newList({ ...stored, ...decl.list, tombstones: decl.tombstones });
        made = new ListedEntity(decl as EntityDeclaration, list, codec, host);
        collection = list;
      } else {
        collection = this.newCollection(stored);
        made = new Entity(decl as EntityDeclaration, collection, codec, host);
      }
      if (decl.outbox)
        this.outboxes.push({ outbox: collection.collection as never, key: stored.key! });
      return made;
    });
  }

  private newCollection<D extends object>(decl: CollectionDeclaration): StoredCollection<D> {
    const stored = new StoredCollection<D>(this.conn, decl);
    stored.askRelays = () => this.kick();
    this.collections.push(stored as never);
    return stored;
  }

  private newList<D extends object>(decl: ListDeclaration): StoredList<D> {
    const list = new StoredList<D>(this.conn, decl);
    list.askRelays = () => this.kick();
    this.collections.push(list as never);
    this.lists.push(list as never);
    return list;
  }

  /** A collection written through the store (guarded writes, expiry); one per name. */
  collection<D extends object>(decl: CollectionDeclaration): StoredCollection<D> {
    return this.once('collection', decl, () => this.newCollection<D>(decl));
  }

  /** A list: a collection read page by page, counted and tallied (list.ts). */
  list<D extends object>(decl: ListDeclaration): StoredList<D> {
    return this.once('list', decl, () => this.newList<D>(decl));
  }

  /**
   * Publishes what the entities' writes carry (their outboxes), started by the service kit: right
   * after every write that carries events (the store kicks it) and on an interval for what a
   * crash or a broker outage left behind.
   */
  startRelay(opts: {
    publisher: Pick<EventBus, 'publish'>;
    logger: Logger;
    intervalMs?: number;
  }): void {
    this.relay ??= new OutboxRelay({ ...opts, collections: this.outboxes });
    this.relay.start();
  }

  /**
   * Another relay to ask after every write through the store that carries events: the kit's
   * relays of collections declared before the store (ServiceKit.outbox).
   */
  alsoKick(kick: () => void): void {
    this.kickers.push(kick);
  }

  /** Asks the relays to publish now (before their start, their first sweep will). */
  private kick(): void {
    this.relay?.kick();
    for (const kick of this.kickers) kick();
  }

  /** Publishes every pending event now; resolves when done (tests, the kit's flush). */
  async flushOutbox(): Promise<number> {
    return this.relay ? this.relay.sweep() : 0;
  }

  /** Documents with events not yet published. */
  async outboxBacklog(): Promise<number> {
    return this.relay ? this.relay.backlog() : 0;
  }

  /** Stops the relay (waits for a running sweep, briefly: what it was publishing stays). */
  async stopRelay(): Promise<void> {
    await this.relay?.stop();
  }

  /** A budget of points per key and window, counted in the database (limiter.ts). */
  limiter(decl: LimiterDeclaration): Limiter {
    // several limiters share a table: the same declaration each time
    this.collection({ name: decl.table, key: 'key', unique: ['key'], expiry: { field: 'expire' } });
    return mongoLimiter(this.conn, decl);
  }

  /** Claims of work one process does once (claims.ts); one table per database. */
  claims(): Claims {
    return new Claims(
      this.collection({
        name: 'work_claims',
        key: '_id',
        expiry: { field: 'until', afterMs: 24 * 3600_000 },
      }) as StoredCollection<ClaimDoc>,
    );
  }

  /** The leases of work one replica at a time does (leases.ts); one table per database. */
  leases(): Leases {
    return new Leases(
      this.collection({
        name: 'job_leases',
        key: '_id',
        indexes: [{ name: 1, term: -1 }],
        // a term's document outlives its end by a day (the history the next term deletes anyway)
        expiry: { field: 'until', afterMs: 24 * 3600_000 },
      }) as StoredCollection<LeaseDoc>,
    );
  }

  /**
   * At the service's start: the indexes, and the lists' counts opened; counts that must be
   * rebuilt are rebuilt in the background (the lists are asked of the server meanwhile).
   */
  async open(logger: Logger, opts: { leaseMs?: number } = {}): Promise<{ rebuilt: Promise<void> }> {
    const rebuilds: StoredList[] = [];
    for (const stored of this.collections) await stored.ensureIndexes();
    for (const list of this.lists) if (await list.open()) rebuilds.push(list);
    if (rebuilds.length === 0) return { rebuilt: Promise.resolve() };
    const leases = this.leases();
    const leaseMs = opts.leaseMs ?? REBUILD_LEASE_MS;
    const rebuilt = (async () => {
      for (const list of rebuilds) {
        const name = `rebuild:${list.decl.name}`;
        try {
          // one replica rebuilds (the others, started in the same rollout, read per request
          // meanwhile); should it die, another takes the lease over once it ran out
          while (
            !(await leases.whileHeld(name, leaseMs, () => list.rebuild((m) => logger.info(m))))
          ) {
            logger.info({ list: list.decl.name }, 'another replica rebuilds the counts');
            await new Promise((resolve) => setTimeout(resolve, leaseMs).unref());
            if (await list.isRebuilt()) break;
          }
        } catch (err) {
          logger.error({ err, list: list.decl.name }, 'rebuilding the counts failed');
        }
      }
    })();
    return { rebuilt };
  }

  /**
   * Every list's kept counts and summaries counted afresh now, one list after the other (the
   * admin command line's `counts rebuild`, for counts a bug or a hand-made change left wrong).
   * The lists go on answering meanwhile; a write during a list's pass may be counted twice or not
   * at all, as in the rebuild at start (list.ts). Answers how many documents each list counted.
   */
  async rebuild(log: (msg: string) => void = () => undefined): Promise<Record<string, number>> {
    const counted: Record<string, number> = {};
    for (const list of this.lists) counted[list.decl.name] = await list.rebuild(log);
    return counted;
  }

  /**
   * The upkeep while the service runs: parts of the newest ids, the counts' shards folded, counts
   * that drifted repaired (every `recountEveryMs`, by one replica), expired documents.
   */
  jobs(opts: { recountEveryMs?: number; recountSettleMs?: number } = {}): StoreJob[] {
    const jobs: StoreJob[] = [];
    for (const list of this.lists.filter((l) => !l.decl.day))
      jobs.push({
        name: `parts of the newest ${list.decl.name}`,
        everyMs: 60_000,
        run: () => list.placeNewest(),
      });
    // the counts' shards no process writes any more, into the counts (counts.ts)
    for (const list of this.lists)
      jobs.push({
        name: `counts of ${list.decl.name} folded`,
        everyMs: 5 * 60_000,
        run: () => list.foldCounts(),
        oneReplica: true,
      });
    // a count left one off by a process killed between a write and its count (list.ts recount)
    for (const list of this.lists)
      jobs.push({
        name: `counts of ${list.decl.name} recounted`,
        everyMs: opts.recountEveryMs ?? 30 * 60_000,
        run: async (lease) => {
          const repaired = await list.recount(opts.recountSettleMs ?? 5000, lease?.held);
          if (repaired.length > 0) this.onRecount?.(list.decl.name, repaired);
        },
        oneReplica: true,
      });
    for (const stored of this.collections.filter((c) => c.decl.expiry))
      jobs.push({
        name: `expired ${stored.decl.name}`,
        everyMs: 3600_000,
        run: () => stored.purgeExpired(),
      });
    return jobs;
  }
}
