import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { AppError } from './errors';
import type { Connection } from './mongo';
import type { Store } from './store';

/*
 * The budgets of what anyone may send without an account (issue 15): public writes per client
 * address and per phone number, and lookups by phone number per client address. Each service
 * that takes such calls counts them in its own database, so the budgets hold however many
 * replicas answer.
 */

/** lookups by phone number, per client address */
const LOOKUPS = 'phone_lookups';
/** public writes, per client address and per phone number */
const WRITES = 'public_writes';

/** 0 when the request may go on, else the seconds to wait */
export type Limit = (key: string) => Promise<number>;

/** Lookups by phone number per client address. */
export function phoneLookupLimit(
  store: Store,
  opts: { perIp: number; windowSeconds: number },
): Limit {
  const limiter = store.limiter({
    table: LOOKUPS,
    points: opts.perIp,
    windowSeconds: opts.windowSeconds,
    // an ordinary visitor's lookups do not wait for their count (limiter.ts)
    ahead: true,
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
 * Public writes: a budget per client address, generous because the families of one shelter
 * share its address, and a small one per phone number, which is what stops one sender.
 */
export interface WriteLimits {
  perIp: Limit;
  /** keyed by the E.164 number (hashed inside, never stored in clear) */
  perPhone: Limit;
}

/** Public writes per client address and per phone number, counted in the service's database. */
export function publicWriteLimits(
  store: Store,
  opts: { perIp: number; perPhone: number; windowSeconds: number; phoneWindowSeconds: number },
): WriteLimits {
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

/** Counts one write of this request; throws 429 when a budget is spent. Staff are not limited. */
export async function takeWrite(
  limits: WriteLimits | undefined,
  req: Request,
  e164: string,
): Promise<void> {
  if (!limits || req.actor) return;
  const ipWait = await limits.perIp(req.ip ?? 'unknown');
  if (ipWait > 0) throw new AppError('RATE_LIMITED', { extra: { retry_after: ipWait } });
  const phoneWait = await limits.perPhone(e164);
  if (phoneWait > 0) {
    throw new AppError('PHONE_RATE_LIMITED', {
      params: { minutes: Math.max(1, Math.ceil(phoneWait / 60)) },
      extra: { retry_after: phoneWait },
    });
  }
}

/**
 * Forgets the number's public-write counter (a digest of the number, kept one window): after an
 * erasure nothing in the database can be linked to the number, not even for ten minutes.
 */
export async function forgetPhoneWrites(conn: Connection, e164: string): Promise<void> {
  await conn.collection(WRITES).deleteMany({ key: `phone:${phoneKey(e164)}` });
}
