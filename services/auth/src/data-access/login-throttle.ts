import {
  ensureCounterIndexes,
  purgeExpiredCounters,
  withLock,
  type Connection,
} from '@furniture/platform';
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import type { LoginThrottle } from '../domain/records';

/**
 * Login attempt counters shared by every replica (stored in this service's database through
 * rate-limiter-flexible, whose consume is one atomic $inc): per account and client IP (the lock
 * a guesser meets), per client IP across accounts, and per account across addresses with a four
 * times larger budget and a short lock, so that a stranger's guesses from elsewhere only delay a
 * staff member for a minute instead of locking them out.
 */
export function mongoLoginThrottle(
  conn: Connection,
  opts: { perAccount: number; perIp: number; windowSeconds: number; lockSeconds: number },
): LoginThrottle {
  const common = {
    storeClient: conn,
    dbName: conn.name,
    duration: opts.windowSeconds,
    // TTL indexes are created in ensureThrottleIndexes (FerretDB lacks them; rows are then purged)
    disableIndexesCreation: true,
  };
  const byAccountAndIp = new RateLimiterMongo({
    ...common,
    tableName: 'login_attempts_account_ip',
    points: opts.perAccount,
    blockDuration: opts.lockSeconds,
  });
  const byIp = new RateLimiterMongo({
    ...common,
    tableName: 'login_failures_ip',
    points: opts.perIp,
    blockDuration: opts.lockSeconds,
  });
  const byAccount = new RateLimiterMongo({
    ...common,
    tableName: 'login_failures_account',
    points: opts.perAccount * 4,
    blockDuration: ACCOUNT_DELAY_SECONDS,
  });
  const limiters = [byAccountAndIp, byIp, byAccount];
  const pairKey = (email: string, ip: string) => `${email.toLowerCase()}|${ip}`;

  /** seconds to wait when the point could not be taken, else 0 */
  const consume = async (limiter: RateLimiterMongo, key: string, attempt = 1): Promise<number> => {
    try {
      // FerretDB's $inc is not isolated (platform locks.ts): one counter update at a time here
      await withLock(`login-throttle:${String(limiters.indexOf(limiter))}:${key}`, () =>
        limiter.consume(key),
      );
      return 0;
    } catch (err) {
      // parallel first attempts race to insert the key's row: the loser counts again
      if ((err as { code?: number }).code === 11000 && attempt < 5)
        return consume(limiter, key, attempt + 1);
      if (!(err instanceof RateLimiterRes)) throw err;
      return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    }
  };

  return {
    async take(email, ip) {
      const waits = await Promise.all([
        consume(byAccountAndIp, pairKey(email, ip)),
        consume(byIp, ip),
        consume(byAccount, email.toLowerCase()),
      ]);
      return Math.max(...waits);
    },
    async recordSuccess(email, ip) {
      await Promise.all([
        byAccountAndIp.delete(pairKey(email, ip)),
        byAccount.delete(email.toLowerCase()),
        byIp.reward(ip, 1),
      ]);
    },
  };
}

/** how long an account is held back after many failures from many addresses */
const ACCOUNT_DELAY_SECONDS = 60;

const THROTTLE_TABLES = [
  'login_attempts_account_ip',
  'login_failures_account',
  'login_failures_ip',
];

/** Indexes of the counters (FerretDB: `purgeExpiredThrottleRows` runs periodically). */
export function ensureThrottleIndexes(conn: Connection): Promise<void> {
  return ensureCounterIndexes(conn, THROTTLE_TABLES);
}

export function purgeExpiredThrottleRows(conn: Connection): Promise<void> {
  return purgeExpiredCounters(conn, THROTTLE_TABLES);
}
