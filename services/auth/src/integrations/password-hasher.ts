import argon2 from 'argon2';

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
