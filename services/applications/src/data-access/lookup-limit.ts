import { createHash } from 'node:crypto';
import {
  ensureCounterIndexes,
  purgeExpiredCounters,
  withLock,
  type Connection,
} from '@furniture/platform';
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';

/** lookups by phone number, per client address */
const LOOKUPS = 'phone_lookups';
/** public writes (applications, wishes), per client address and per phone number */
const WRITES = 'public_writes';
const TABLES = [LOOKUPS, WRITES] as const;

/** 0 when the request may go on, else the seconds to wait */
export type Limit = (key: string) => Promise<number>;

/**
 * A budget of `points` per key and window, counted in this service's database so that it holds
 * however many gateway and service replicas answer (the gateway's own limits are per replica,
 * in memory).
 */
function mongoLimit(
  conn: Connection,
  opts: { table: string; prefix: string; points: number; windowSeconds: number },
): Limit {
  const limiter = new RateLimiterMongo({
    storeClient: conn,
    dbName: conn.name,
    tableName: opts.table,
    keyPrefix: opts.prefix,
    points: opts.points,
    duration: opts.windowSeconds,
    // TTL index in ensureLookupIndexes (FerretDB lacks them; rows are then purged)
    disableIndexesCreation: true,
  });
  const take = async (key: string, attempt = 1): Promise<number> => {
    try {
      // FerretDB's $inc is not isolated (platform locks.ts): one update per key at a time
      await withLock(`${opts.table}:${opts.prefix}:${key}`, () => limiter.consume(key));
      return 0;
    } catch (err) {
      if ((err as { code?: number }).code === 11000 && attempt < 5) return take(key, attempt + 1);
      if (!(err instanceof RateLimiterRes)) throw err;
      return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    }
  };
  return (key) => take(key);
}

/** Lookups by phone number per client address. */
export function mongoLookupLimit(
  conn: Connection,
  opts: { perIp: number; windowSeconds: number },
): Limit {
  return mongoLimit(conn, {
    table: LOOKUPS,
    prefix: 'rlflx',
    points: opts.perIp,
    windowSeconds: opts.windowSeconds,
  });
}

/**
 * A phone number as a limiter key: never in clear (the counters' rows and any log of them hold
 * only this digest). Unsalted on purpose, so that every replica counts one number alike; the
 * row lives one window.
 */
export function phoneKey(e164: string): string {
  return createHash('sha256').update(`public-writes:${e164}`).digest('hex');
}

/** Public writes per client address and per phone number (issue 15: shelters share one address). */
export function mongoWriteLimits(
  conn: Connection,
  opts: { perIp: number; perPhone: number; windowSeconds: number; phoneWindowSeconds: number },
): { perIp: Limit; perPhone: Limit } {
  const perIp = mongoLimit(conn, {
    table: WRITES,
    prefix: 'ip',
    points: opts.perIp,
    windowSeconds: opts.windowSeconds,
  });
  const perPhone = mongoLimit(conn, {
    table: WRITES,
    prefix: 'phone',
    points: opts.perPhone,
    windowSeconds: opts.phoneWindowSeconds,
  });
  return { perIp, perPhone: (e164) => perPhone(phoneKey(e164)) };
}

export function ensureLookupIndexes(conn: Connection): Promise<void> {
  return ensureCounterIndexes(conn, TABLES);
}

export function purgeExpiredLookups(conn: Connection): Promise<void> {
  return purgeExpiredCounters(conn, TABLES);
}
