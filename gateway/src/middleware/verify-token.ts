import type { RequestHandler } from 'express';
import { bearerToken, type TokenVerifier } from '@furniture/platform';

/**
 * Refuses forged, alg=none or expired tokens before they reach a service. The services verify
 * again and enforce roles themselves; an absent token passes (public routes).
 */
export function verifyToken(verifier: TokenVerifier): RequestHandler {
  return (req, _res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (token) verifier.verify(token);
    next();
  };
}
