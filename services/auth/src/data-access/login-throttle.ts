import type { Store } from '@furniture/platform';
import type { LoginThrottle } from '../domain/records';

/**
 * Login attempt counters shared by every replica (stored in this service's database through
 * rate-limiter-flexible, whose consume is one atomic $inc): per account and client IP (the lock
 * a guesser meets), per client IP across accounts, and per account across addresses with a four
 * times larger budget and a short lock, so that a stranger's guesses from elsewhere only delay a
 * staff member for a minute instead of locking them out.
 */
export function mongoLoginThrottle(
  store: Store,
  opts: { perAccount: number; perIp: number; windowSeconds: number; lockSeconds: number },
): LoginThrottle {
  const limiter = (table: string, points: number, blockSeconds = opts.lockSeconds) =>
    store.limiter({ table, points, windowSeconds: opts.windowSeconds, blockSeconds });
  const byAccountAndIp = limiter('login_attempts_account_ip', opts.perAccount);
  const byIp = limiter('login_failures_ip', opts.perIp);
  const byAccount = limiter('login_failures_account', opts.perAccount * 4, ACCOUNT_DELAY_SECONDS);
  const pairKey = (email: string, ip: string) => `${email.toLowerCase()}|${ip}`;
  return {
    async take(email, ip) {
      const waits = await Promise.all([
        byAccountAndIp.take(pairKey(email, ip)),
        byIp.take(ip),
        byAccount.take(email.toLowerCase()),
      ]);
      return Math.max(...waits);
    },
    async recordSuccess(email, ip) {
      await Promise.all([
        byAccountAndIp.forget(pairKey(email, ip)),
        byAccount.forget(email.toLowerCase()),
        byIp.reward(ip, 1),
      ]);
    },
    async unlock(email) {
      // the address's own budget (byIp) is not the account's: it runs out after its window
      await Promise.all([
        byAccountAndIp.forgetStartingWith(pairKey(email, '')),
        byAccount.forget(email.toLowerCase()),
      ]);
    },
  };
}

/** how long an account is held back after many failures from many addresses */
const ACCOUNT_DELAY_SECONDS = 60;
