import { Events, type Actor, type User } from '@furniture/contracts';
import { AppError, changesOf, createEvent } from '@furniture/platform/domain';

/*
 * The records and ports of the auth domain. Data access maps its documents to these and
 * implements the ports; the domain never sees a document.
 */

/** A user as the domain sees it, with the password hash that never leaves the service. */
export interface UserRecord extends User {
  password_hash: string;
  /** the seeded administrator until the first password change */
  must_change_password?: boolean;
}

/** Another user already has this e-mail (the unique index said so). */
export const emailTaken = () => new AppError('EMAIL_TAKEN');

export function toPublicUser(record: UserRecord): User {
  const { password_hash: _hidden, must_change_password: _internal, ...user } = record;
  return user;
}

/**
 * Login attempt counting (data-access/login-throttle.ts implements it). Every attempt takes a
 * point before the password is checked, in one atomic step, so parallel guesses cannot pass the
 * budget; a successful login gives its points back.
 */
export interface LoginThrottle {
  /** takes a point for this attempt: 0 when it may go on, else seconds until it may try again */
  take(email: string, ip: string): Promise<number>;
  /** the attempt succeeded: its points are given back and the account's failures forgotten */
  recordSuccess(email: string, ip: string): Promise<void>;
  /** the account's failures forgotten from every address (an operator's unlock) */
  unlock(email: string): Promise<void>;
}

/** The fields a change sets (for changesOf). */
export const keysOf = <T extends object>(set: Partial<T>) =>
  Object.keys(set) as (keyof T & string)[];

/** A user as the events tell it (and as their actor). */
export const snapshot = (u: User) => ({ id: u.id, name: u.name, email: u.email, role: u.role });

/** The event of a change to a user (a new password shows as changed, never its hash). */
export const userUpdated = (
  before: UserRecord,
  set: Partial<UserRecord>,
  next: User,
  actor: Actor | null,
) =>
  createEvent(
    Events.UserUpdated,
    {
      user: snapshot(next),
      changes: changesOf(before, set, keysOf(set), { masked: ['password_hash'] }),
    },
    actor,
  );

/** Whether a new password is too easy to guess (integrations/password-policy.ts). */
export interface PasswordPolicy {
  /** `userInputs`: the user's name and e-mail, which a guesser would try first */
  isWeak(password: string, userInputs?: string[]): boolean;
}

/** The 422 of a password that is long enough but easy to guess, on the field that carries it. */
export function passwordTooWeak(field: string): AppError {
  return new AppError('PASSWORD_TOO_WEAK', {
    fieldErrors: [{ loc: ['body', field], msg: '', type: 'password_too_weak' }],
  });
}
