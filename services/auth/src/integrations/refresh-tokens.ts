import { createHash, randomBytes } from 'node:crypto';

/** A refresh token: `<sid>.<secret>`; only the sha256 of the secret is stored. */
export interface RefreshToken {
  token: string;
  hash: string;
}

const hashSecret = (secret: string): string =>
  createHash('sha256').update(secret).digest('base64url');

/** How the domain makes and reads refresh tokens (injected: see compose.ts). */
export interface RefreshTokens {
  /** A new token of session `sid` (256 random bits). */
  issue(sid: string): RefreshToken;
  /** The session and the secret's hash of a presented token, or null for anything malformed. */
  parse(token: unknown): { sid: string; hash: string } | null;
}

export const randomRefreshTokens = (): RefreshTokens => ({
  issue(sid) {
    const secret = randomBytes(32).toString('base64url');
    return { token: `${sid}.${secret}`, hash: hashSecret(secret) };
  },
  parse(token) {
    if (typeof token !== 'string' || token.length > 200) return null;
    const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return null;
    return { sid: match[1]!, hash: hashSecret(match[2]!) };
  },
});
