import type { RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { Roles, type Actor, type Role } from '@furniture/contracts';
import { AppError } from './errors';
import type { TokenIdentity } from './revocations';

/** Claims of an access token issued by the auth service. */
export interface AccessClaims {
  sub: string;
  sid: string;
  name: string;
  email: string;
  role: Role;
  iat: number;
  exp: number;
  /** the token's own id (every token the auth service signs has one) */
  jti?: string;
  /** a referrer's partner agency (issue 44) */
  agency_id?: number;
  /** a referrer's language (issue 44) */
  lang?: string;
  /** a referrer's agency's name when the token was issued (issue 44) */
  agency_name?: string;
}

export interface AuthenticatedActor extends Actor {
  sessionId: string;
  expiresAt: number;
  /** a referrer's partner agency (issue 44): what its calls are scoped by */
  agencyId?: number;
  /** a referrer's language: the mails about its families go out in it */
  language?: 'de' | 'uk';
  /** a referrer's agency's name (as the token was issued) */
  agencyName?: string;
}

/** A token presented to POST /auth/refresh: its actor, id and issue time, expired or not. */
export interface PresentedToken {
  actor: AuthenticatedActor;
  /** the jti, undefined when the token has none */
  tokenId: string | undefined;
  issuedAt: number;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** the staff member behind a valid bearer token, if any */
    actor?: AuthenticatedActor;
  }
}

export const TOKEN_ALGORITHM = 'RS256';

/**
 * Verifies access tokens with the auth service's public key only. Refuses forged signatures,
 * alg=none and any other algorithm, wrong issuer or audience, and expired tokens.
 */
/** Tokens whose signature was checked, kept until they expire (at most this many). */
const VERIFIED_CACHE_SIZE = 5000;

export class TokenVerifier {
  /**
   * The signature check is the dearest part of a request through the gateway to a staff screen
   * (a browser sends the same token with every call until it is refreshed): a token verified once
   * is remembered with its actor until it expires. Expiry and revocation are checked on every
   * call all the same.
   */
  private readonly verified = new Map<
    string,
    { actor: AuthenticatedActor; identity: TokenIdentity }
  >();

  constructor(
    private readonly opts: {
      publicKey: string;
      issuer: string;
      audience: string;
      /** sessions and users revoked since their tokens were issued (fed by events) */
      isRevoked?: (token: TokenIdentity) => boolean;
    },
  ) {}

  verify(token: string): AuthenticatedActor {
    const known = this.verified.get(token);
    if (known) {
      if (Math.floor(Date.now() / 1000) >= known.actor.expiresAt) {
        this.verified.delete(token);
        throw new AppError('TOKEN_EXPIRED');
      }
      if (this.opts.isRevoked?.(known.identity)) throw new AppError('TOKEN_INVALID');
      return { ...known.actor };
    }
    const checked = this.verifySignature(token);
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.clear();
    this.verified.set(token, checked);
    return { ...checked.actor };
  }

  /**
   * A token for POST /auth/refresh: signature, algorithm, issuer, audience and revocation are
   * checked as always, but an expired token is answered too (the auth service decides how long
   * after its expiry it may still renew its session). Not cached: refreshes are rare.
   */
  verifyIgnoringExpiry(token: string): PresentedToken {
    const { actor, identity, tokenId } = this.verifySignature(token, true);
    // a token without an end would renew its session forever
    if (typeof actor.expiresAt !== 'number') throw new AppError('TOKEN_INVALID');
    return { actor, tokenId, issuedAt: identity.issuedAt };
  }

  private verifySignature(
    token: string,
    ignoreExpiration = false,
  ): { actor: AuthenticatedActor; identity: TokenIdentity; tokenId: string | undefined } {
    let claims: AccessClaims;
    try {
      claims = jwt.verify(token, this.opts.publicKey, {
        algorithms: [TOKEN_ALGORITHM],
        issuer: this.opts.issuer,
        audience: this.opts.audience,
        ignoreExpiration,
      }) as AccessClaims;
    } catch (err) {
      if (err instanceof jwt.TokenExpiredError) throw new AppError('TOKEN_EXPIRED');
      throw new AppError('TOKEN_INVALID');
    }
    const id = Number(claims.sub);
    if (
      !Number.isInteger(id) ||
      typeof claims.sid !== 'string' ||
      typeof claims.email !== 'string' ||
      !(Roles as readonly string[]).includes(claims.role)
    ) {
      throw new AppError('TOKEN_INVALID');
    }
    const identity: TokenIdentity = { sessionId: claims.sid, userId: id, issuedAt: claims.iat };
    if (this.opts.isRevoked?.(identity)) throw new AppError('TOKEN_INVALID');
    return {
      actor: {
        id,
        name: String(claims.name ?? ''),
        email: claims.email,
        role: claims.role,
        sessionId: claims.sid,
        expiresAt: claims.exp,
        ...(Number.isInteger(claims.agency_id) ? { agencyId: claims.agency_id } : {}),
        ...(claims.lang === 'de' || claims.lang === 'uk' ? { language: claims.lang } : {}),
        ...(typeof claims.agency_name === 'string' ? { agencyName: claims.agency_name } : {}),
      },
      identity,
      tokenId: typeof claims.jti === 'string' ? claims.jti : undefined,
    };
  }
}

/** Reads "Authorization: Bearer …"; returns undefined when there is none. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new AppError('TOKEN_INVALID');
  return match[1];
}

/**
 * Sets `req.actor` from a valid bearer token. A present but invalid token is refused (401) even
 * on public routes; no token leaves the request anonymous.
 */
export function authenticate(verifier: TokenVerifier): RequestHandler {
  return (req, _res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (token) req.actor = verifier.verify(token);
    next();
  };
}

/** 401 without a valid token. */
export const requireAuth: RequestHandler = (req, _res, next) => {
  next(req.actor ? undefined : new AppError('AUTH_REQUIRED'));
};

/** 401 without a token, 403 with a role not in the list. */
export function requireRole(...roles: Role[]): RequestHandler {
  return (req, _res, next) => {
    if (!req.actor) return next(new AppError('AUTH_REQUIRED'));
    if (!roles.includes(req.actor.role)) return next(new AppError('FORBIDDEN'));
    next();
  };
}

/** Staff: admins and volunteers; a referrer (issue 44) is not staff and gets 403. */
export const requireStaff = requireRole('admin', 'volunteer');
/** A referrer of a partner agency (issue 44), bound to its agency by its token. */
export const requireReferrer = requireRole('referrer');
/** Whether a request comes from staff (a referrer's token does not make it one). */
export const isStaffActor = (actor: Actor | undefined): boolean =>
  actor?.role === 'admin' || actor?.role === 'volunteer';
export const requireAdmin = requireRole('admin');
