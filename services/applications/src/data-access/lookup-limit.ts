import { withLock, type Connection } from '@furniture/platform';
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';

const TABLE = 'phone_lookups';

/**
 * Lookups by phone number per client address, counted in this service's database so that the
 * budget holds however many gateway and service replicas answer (the gateway's own limit is per
 * replica, in memory). Returns 0 when the lookup may go on, else the seconds to wait.
 */
export function mongoLookupLimit(
  conn: Connection,
  opts: { perIp: number; windowSeconds: number },
): (ip: string) => Promise<number> {
  const limiter = new RateLimiterMongo({
    storeClient: conn,
    dbName: conn.name,
    tableName: TABLE,
    points: opts.perIp,
    duration: opts.windowSeconds,
    // TTL index in ensureLookupIndexes (FerretDB lacks them; rows are then purged)
    disableIndexesCreation: true,
  });
  const take = async (ip: string, attempt = 1): Promise<number> => {
    try {
      // FerretDB's $inc is not isolated (platform locks.ts): one update per address at a time
      await withLock(`${TABLE}:${ip}`, () => limiter.consume(ip));
      return 0;
    } catch (err) {
      if ((err as { code?: number }).code === 11000 && attempt < 5) return take(ip, attempt + 1);
      if (!(err instanceof RateLimiterRes)) throw err;
      return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    }
  };
  return (ip) => take(ip);
}

export async function ensureLookupIndexes(conn: Connection): Promise<void> {
  const collection = conn.collection(TABLE);
  await collection.createIndex({ key: 1 }, { unique: true });
  await collection
    .createIndex({ expire: 1 }, { expireAfterSeconds: 0 })
    .catch((err: { code?: number }) => {
      if (err.code !== 238) throw err; // 238 = NotImplemented (FerretDB)
    });
}

export async function purgeExpiredLookups(conn: Connection): Promise<void> {
  await conn.collection(TABLE).deleteMany({ expire: { $lt: new Date() } });
}
