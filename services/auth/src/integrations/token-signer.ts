import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { User } from '@furniture/contracts';
import { TOKEN_ALGORITHM } from '@furniture/platform';

export interface SignedToken {
  token: string;
  expiresIn: number;
}

export interface TokenSigner {
  /** A token for `user` in session `sid`, never outliving the session's absolute end. */
  sign(user: User, sid: string, sessionEndsAt: Date, extra?: { agencyName?: string }): SignedToken;
}

/** Signs RS256 access tokens; the other services and the gateway hold only the public key. */
export function rs256TokenSigner(opts: {
  privateKey: string;
  issuer: string;
  audience: string;
  ttlSeconds: number;
}): TokenSigner {
  return {
    sign(user, sid, sessionEndsAt, extra = {}) {
      const now = Math.floor(Date.now() / 1000);
      const end = Math.floor(sessionEndsAt.getTime() / 1000);
      const expiresIn = Math.max(1, Math.min(opts.ttlSeconds, end - now));
      const token = jwt.sign(
        {
          sid,
          name: user.name,
          email: user.email,
          role: user.role,
          // a referrer's agency and language (issue 44): what the other services scope it by
          ...(user.agency_id !== undefined ? { agency_id: user.agency_id } : {}),
          ...(user.language ? { lang: user.language } : {}),
          ...(extra.agencyName !== undefined ? { agency_name: extra.agencyName } : {}),
        },
        opts.privateKey,
        {
          algorithm: TOKEN_ALGORITHM,
          subject: String(user.id),
          issuer: opts.issuer,
          audience: opts.audience,
          expiresIn,
          jwtid: randomUUID(),
        },
      );
      return { token, expiresIn };
    },
  };
}
