import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { User } from '@furniture/contracts';
import { TOKEN_ALGORITHM } from '@furniture/platform';

export interface SignedToken {
  token: string;
  expiresIn: number;
}

/** Signs RS256 access tokens; the other services and the gateway hold only the public key. */
export class TokenSigner {
  constructor(
    private readonly opts: {
      privateKey: string;
      issuer: string;
      audience: string;
      ttlSeconds: number;
    },
  ) {}

  /** A token for `user` in session `sid`, never outliving the session's absolute end. */
  sign(user: User, sid: string, sessionEndsAt: Date): SignedToken {
    const now = Math.floor(Date.now() / 1000);
    const end = Math.floor(sessionEndsAt.getTime() / 1000);
    const expiresIn = Math.max(1, Math.min(this.opts.ttlSeconds, end - now));
    const token = jwt.sign(
      { sid, name: user.name, email: user.email, role: user.role },
      this.opts.privateKey,
      {
        algorithm: TOKEN_ALGORITHM,
        subject: String(user.id),
        issuer: this.opts.issuer,
        audience: this.opts.audience,
        expiresIn,
        jwtid: randomUUID(),
      },
    );
    return { token, expiresIn };
  }
}
