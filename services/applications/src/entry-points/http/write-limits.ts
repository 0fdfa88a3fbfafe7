import type { Request } from 'express';
import { AppError } from '@furniture/platform';

/** 0 when the request may go on, else the seconds to wait (data-access/lookup-limit.ts) */
export type Limit = (key: string) => Promise<number>;

/**
 * Public writes (applications, wishes): a budget per client address, generous because the
 * families of one shelter share its address, and a small one per phone number, which is what
 * stops one sender (issue 15). Staff are not limited.
 */
export interface WriteLimits {
  perIp: Limit;
  /** keyed by the E.164 number (hashed inside, never stored in clear) */
  perPhone: Limit;
}

/** Counts one write of this request; throws 429 when a budget is spent. */
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
