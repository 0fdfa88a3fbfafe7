import type { RequestHandler } from 'express';
import { bearerToken, type TokenVerifier } from '@furniture/platform';

/** The one call an expired token may reach: the auth service renews its session (once, in a grace). */
const REFRESH_PATH = /^\/api\/v1\/auth\/refresh\/?$/;

/**
 * Refuses forged, alg=none or expired tokens before they reach a service. The services verify
 * again and enforce roles themselves; an absent token passes (public routes). POST /auth/refresh
 * takes an expired token too (still correctly signed and not revoked): the specification's client
 * refreshes with it after a 401, and the auth service decides whether it may.
 */
export function verifyToken(verifier: TokenVerifier): RequestHandler {
  return (req, _res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) return next();
    if (req.method === 'POST' && REFRESH_PATH.test(req.baseUrl + req.path))
      verifier.verifyIgnoringExpiry(token);
    else verifier.verify(token);
    next();
  };
}
