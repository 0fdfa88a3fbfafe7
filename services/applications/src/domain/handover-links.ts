import { randomBytes } from 'node:crypto';

/**
 * What the status changes need of the handover (issue 29): an approval carries the family's
 * personal booking link, and an application that leaves `approved` (lapse, cancelled
 * reservation, rejection, completion) gives its booking back.
 */
export interface HandoverLinks {
  /** the family's booking page for a token: the public site + /handover/{token} */
  url(token: string): string;
  /** the application left `approved`: its booked slot, if any, is cancelled by the system */
  applicationLeft(applicationId: number): Promise<void>;
}

/**
 * A new booking-link token: 32 random bytes as 64 lower-case hex digits (API paths are lower
 * case: the platform refuses others as unknown routes).
 */
export const newHandoverToken = (): string => randomBytes(32).toString('hex');
