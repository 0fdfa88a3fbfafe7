import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import { escapeRegex, retryingDuplicates, type Connection } from '../mongo';
import { withLock } from './locks';

/** A budget of points per key and window, counted in the service's database (every replica). */
export interface Limiter {
  /** takes a point: 0 when there was one, else the seconds until there is */
  take(key: string): Promise<number>;
  /** forgets the key's points (a success) */
  forget(key: string): Promise<void>;
  /** gives points back */
  reward(key: string, points: number): Promise<void>;
  /** forgets the points of every key that starts with `start` (an operator's unlock) */
  forgetStartingWith(start: string): Promise<void>;
}

export interface LimiterDeclaration {
  /** the collection of the counters (several limiters may share one, by `prefix`) */
  table: string;
  prefix?: string;
  points: number;
  windowSeconds: number;
  /** a key that ran out is held back this long (default: until its window ends) */
  blockSeconds?: number;
}

/**
 * rate-limiter-flexible's counters, whose consume is one $inc: on FerretDB (not isolated, see
 * collection.ts) one update per key at a time in this process; the parallel first points of a key
 * race to insert its row, and the loser counts again. Its rows expire with their window (the
 * store's expiry on `expire`).
 */
export function mongoLimiter(conn: Connection, decl: LimiterDeclaration): Limiter {
  const limiter = new RateLimiterMongo({
    storeClient: conn,
    dbName: conn.name,
    tableName: decl.table,
    keyPrefix: decl.prefix ?? 'rlflx',
    points: decl.points,
    duration: decl.windowSeconds,
    blockDuration: decl.blockSeconds ?? 0,
    // the store makes the key's unique index and the expiry
    disableIndexesCreation: true,
  });
  return {
    take: async (key) => {
      try {
        await retryingDuplicates(() =>
          withLock(`${conn.name}.${decl.table}:${decl.prefix ?? ''}:${key}`, () =>
            limiter.consume(key),
          ),
        );
        return 0;
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      }
    },
    forget: async (key) => {
      await limiter.delete(key);
    },
    reward: async (key, points) => {
      await limiter.reward(key, points);
    },
    forgetStartingWith: async (start) => {
      // rate-limiter-flexible keeps a key as `<prefix>:<key>` in the row's `key`
      await conn
        .collection(decl.table)
        .deleteMany({ key: { $regex: `^${escapeRegex(limiter.getKey(start))}` } });
    },
  };
}
