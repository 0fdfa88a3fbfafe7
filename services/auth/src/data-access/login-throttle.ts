import type { Connection } from '@furniture/platform';
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import type { LoginThrottle } from '../domain/records';

/**
 * Failed-login counters shared by every replica (stored in this service's database through
 * rate-limiter-flexible): per account and per client IP, each with its own budget and lock.
 */
export function mongoLoginThrottle(
  conn: Connection,
  opts: { perAccount: number; perIp: number; windowSeconds: number; lockSeconds: number },
): LoginThrottle {
  const common = {
    storeClient: conn,
    dbName: conn.name,
    duration: opts.windowSeconds,
    blockDuration: opts.lockSeconds,
    // TTL indexes are created in ensureThrottleIndexes (FerretDB lacks them; rows are then purged)
    disableIndexesCreation: true,
  };
  const byAccount = new RateLimiterMongo({
    ...common,
    tableName: 'login_failures_account',
    points: opts.perAccount,
  });
  const byIp = new RateLimiterMongo({
    ...common,
    tableName: 'login_failures_ip',
    points: opts.perIp,
  });

  const remaining = async (limiter: RateLimiterMongo, key: string, budget: number) => {
    const res = await limiter.get(key);
    return res && res.consumedPoints >= budget ? Math.ceil(res.msBeforeNext / 1000) : 0;
  };
  const consume = async (limiter: RateLimiterMongo, key: string) => {
    try {
      await limiter.consume(key);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
    }
  };

  return {
    async blockedFor(email, ip) {
      const [a, b] = await Promise.all([
        remaining(byAccount, email, opts.perAccount),
        remaining(byIp, ip, opts.perIp),
      ]);
      return Math.max(a, b);
    },
    async recordFailure(email, ip) {
      await Promise.all([consume(byAccount, email), consume(byIp, ip)]);
    },
    async recordSuccess(email) {
      await byAccount.delete(email);
    },
  };
}

const THROTTLE_TABLES = ['login_failures_account', 'login_failures_ip'];

/**
 * Indexes of the counters: the key, and a TTL on `expire` where the server supports it
 * (MongoDB). FerretDB 1.24 has no TTL indexes, so `purgeExpiredThrottleRows` runs periodically.
 */
export async function ensureThrottleIndexes(conn: Connection): Promise<void> {
  for (const table of THROTTLE_TABLES) {
    const collection = conn.collection(table);
    await collection.createIndex({ key: 1 }, { unique: true });
    await collection
      .createIndex({ expire: 1 }, { expireAfterSeconds: 0 })
      .catch((err: { code?: number }) => {
        if (err.code !== 238) throw err; // 238 = NotImplemented (FerretDB)
      });
  }
}

export async function purgeExpiredThrottleRows(conn: Connection): Promise<void> {
  for (const table of THROTTLE_TABLES) {
    await conn.collection(table).deleteMany({ expire: { $lt: new Date() } });
  }
}
