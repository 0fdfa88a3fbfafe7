import type { RequestHandler } from 'express';
import { bearerToken, type TokenVerifier } from '@furniture/platform';

const COOKIE_CALLS = /^\/api\/v1\/auth\/(refresh|logout)\/?$/;

/**
 * Refuses forged, alg=none or expired tokens before they reach a service. The services verify
 * again and enforce roles themselves; an absent token passes (public routes).
 */
export function verifyToken(verifier: TokenVerifier): RequestHandler {
  return (req, _res, next) => {
    // refresh and logout work with the refresh cookie; an expired bearer token sent along is
    // no reason to refuse them (the auth service ignores it or checks it itself)
    if (req.method === 'POST' && COOKIE_CALLS.test(req.originalUrl.split('?')[0] ?? ''))
      return next();
    const token = bearerToken(req.headers.authorization);
    if (token) verifier.verify(token);
    next();
  };
}
