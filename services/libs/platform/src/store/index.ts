// The storage module: what a repository stores and asks, and everything FerretDB 1.24 (the
// single-machine run and CI) needs to make that fast and safe, in one place. A repository
// declares a collection (with its expiry) or a list (with the fields it is counted and paged by)
// and asks: insert, guarded update, compare-and-set, page, count, tally. Kept counts, buckets and
// parts, layouts and their rebuilds, per-document turns and TTL emulation stay in here, behind an
// interface a MongoDB-native implementation could satisfy without touching a repository
// (docs/service-guide.md "The store").
import type { Logger } from '../logger';
import type { Connection } from '../mongo';
import { StoredCollection, type CollectionDeclaration } from './collection';
import { mongoLimiter, type Limiter, type LimiterDeclaration } from './limiter';
import { Leases } from './leases';
import { StoredList, type ListDeclaration } from './list';

export {
  docKey,
  StoredCollection,
  type CollectionDeclaration,
  type Mutated,
  type Mutation,
} from './collection';
export { StoredList, type ListDeclaration, type ListPage } from './list';
export { KeptSummaries, type SummaryDeclaration } from './summaries';
export type { Limiter, LimiterDeclaration } from './limiter';
export { Leases } from './leases';

/** A rebuild's lease; renewed while it runs, taken over this long after its holder died. */
const REBUILD_LEASE_MS = 60_000;

/** A scheduled piece of upkeep (ServiceKit.every). */
export interface StoreJob {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
}

/** One service database's store: its declared collections and lists, opened with the service. */
export class Store {
  private readonly collections: StoredCollection[] = [];
  private readonly lists: StoredList[] = [];

  constructor(private readonly conn: Connection) {}

  /** A collection written through the store (guarded writes, expiry); one per name. */
  collection<D extends object>(decl: CollectionDeclaration): StoredCollection<D> {
    const declared = this.collections.find((c) => c.decl.name === decl.name);
    if (declared) return declared as unknown as StoredCollection<D>;
    const stored = new StoredCollection<D>(this.conn, decl);
    this.collections.push(stored as never);
    return stored;
  }

  /** A list: a collection read page by page, counted and tallied (list.ts). */
  list<D extends object>(decl: ListDeclaration): StoredList<D> {
    const list = new StoredList<D>(this.conn, decl);
    this.collections.push(list as never);
    this.lists.push(list as never);
    return list;
  }

  /** A budget of points per key and window, counted in the database (limiter.ts). */
  limiter(decl: LimiterDeclaration): Limiter {
    if (!this.collections.some((c) => c.decl.name === decl.table))
      this.collection({
        name: decl.table,
        key: 'key',
        unique: ['key'],
        expiry: { field: 'expire' },
      });
    return mongoLimiter(this.conn, decl);
  }

  /** The leases of work one replica at a time does (leases.ts); one table per database. */
  leases(): Leases {
    return new Leases(this.collection({ name: 'job_leases', key: '_id' }));
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

  /** The upkeep while the service runs: parts of the newest ids, expired documents. */
  jobs(): StoreJob[] {
    const jobs: StoreJob[] = [];
    for (const list of this.lists.filter((l) => !l.decl.day))
      jobs.push({
        name: `parts of the newest ${list.decl.name}`,
        everyMs: 60_000,
        run: () => list.placeNewest(),
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
