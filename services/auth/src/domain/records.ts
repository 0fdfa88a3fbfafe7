import type { User } from '@furniture/contracts';

/*
 * The records and ports of the auth domain. Data access maps its documents to these and
 * implements the ports; the domain never sees a document.
 */

/** A user as the domain sees it, with the password hash that never leaves the service. */
export interface UserRecord extends User {
  password_hash: string;
}

export class EmailTakenError extends Error {}

export function toPublicUser(record: UserRecord): User {
  const { password_hash: _hidden, ...user } = record;
  return user;
}

/** Failed-login counting (data-access/login-throttle.ts implements it). */
export interface LoginThrottle {
  /** seconds until the account or the IP may try again, or 0 */
  blockedFor(email: string, ip: string): Promise<number>;
  recordFailure(email: string, ip: string): Promise<void>;
  recordSuccess(email: string): Promise<void>;
}

/** The fields a change sets (for changesOf). */
export const keysOf = <T extends object>(set: Partial<T>) =>
  Object.keys(set) as (keyof T & string)[];
