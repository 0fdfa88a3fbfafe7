import argon2 from 'argon2';
import { AppError, WorkLimiter } from '@furniture/platform';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  needsRehash(hash: string): boolean;
}

/** argon2id with configurable cost (OWASP: m=19 MiB, t=2, p=1 at least). */
export function argon2Hasher(params: {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}): PasswordHasher {
  const options = { type: argon2.argon2id as 2, ...params };
  return {
    hash: (password) => argon2.hash(password, options),
    verify: async (hash, password) => {
      try {
        return await argon2.verify(hash, password);
      } catch {
        return false;
      }
    },
    needsRehash: (hash) => argon2.needsRehash(hash, options),
  };
}

/**
 * Bounds the argon2 work in flight (19 MiB of memory each): at most `concurrent` at once and
 * `queue` waiting; one more is refused with 429 at once, so a flood of logins costs a bounded
 * amount of memory instead of all of it.
 */
export function boundedHasher(
  hasher: PasswordHasher,
  opts: { concurrent: number; queue: number },
): PasswordHasher {
  const limiter = new WorkLimiter(opts.concurrent, {
    max: opts.queue,
    full: () => new AppError('RATE_LIMITED', { extra: { retry_after: 1 } }),
  });
  return {
    hash: (password) => limiter.run(() => hasher.hash(password)),
    verify: (hash, password) => limiter.run(() => hasher.verify(hash, password)),
    needsRehash: (hash) => hasher.needsRehash(hash),
  };
}
