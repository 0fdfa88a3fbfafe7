import { createHash } from 'node:crypto';
import type { Store } from '@furniture/platform';

/** lookups by phone number, per client address */
const LOOKUPS = 'phone_lookups';
/** public writes (applications, wishes), per client address and per phone number */
const WRITES = 'public_writes';

/** 0 when the request may go on, else the seconds to wait */
export type Limit = (key: string) => Promise<number>;

/** Lookups by phone number per client address. */
export function mongoLookupLimit(
  store: Store,
  opts: { perIp: number; windowSeconds: number },
): Limit {
  const limiter = store.limiter({
    table: LOOKUPS,
    points: opts.perIp,
    windowSeconds: opts.windowSeconds,
  });
  return (key) => limiter.take(key);
}

/**
 * A phone number as a limiter key: never in clear (the counters' rows and any log of them hold
 * only this digest). Unsalted on purpose, so that every replica counts one number alike; the
 * row lives one window.
 */
export function phoneKey(e164: string): string {
  return createHash('sha256').update(`public-writes:${e164}`).digest('hex');
}

/**
 * Public writes per client address and per phone number (issue 15: shelters share one address),
 * counted in this service's database so that they hold however many replicas answer.
 */
export function mongoWriteLimits(
  store: Store,
  opts: { perIp: number; perPhone: number; windowSeconds: number; phoneWindowSeconds: number },
): { perIp: Limit; perPhone: Limit } {
  const perIp = store.limiter({
    table: WRITES,
    prefix: 'ip',
    points: opts.perIp,
    windowSeconds: opts.windowSeconds,
  });
  const perPhone = store.limiter({
    table: WRITES,
    prefix: 'phone',
    points: opts.perPhone,
    windowSeconds: opts.phoneWindowSeconds,
  });
  return { perIp: (ip) => perIp.take(ip), perPhone: (e164) => perPhone.take(phoneKey(e164)) };
}
