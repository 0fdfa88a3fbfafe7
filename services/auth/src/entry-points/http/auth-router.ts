import { Router } from 'express';
import {
  loginRequestSchema,
  passwordChangeSchema,
  profileUpdateSchema,
} from '@furniture/contracts';
import { AppError, bearerToken, input, requireAuth, type TokenVerifier } from '@furniture/platform';
import type { AuthService } from '../../domain/auth-service';
import { toPublicUser } from '../../domain/records';
import {
  clearRefreshCookie,
  refreshCookieOf,
  setRefreshCookie,
  type CookieSecurity,
} from './session-cookie';

export interface AuthRouterOptions {
  cookieSecurity: CookieSecurity;
}

/**
 * Refresh and logout: they work with the refresh cookie alone (the access token lives in the
 * page's memory and is gone after a reload or has expired), so they come before the bearer check.
 * Refresh also takes an expired bearer token (within a grace) when no cookie comes with it.
 */
export function sessionRouter(
  auth: AuthService,
  verifier: TokenVerifier,
  opts: AuthRouterOptions,
): Router {
  const r = Router();

  r.post('/refresh', async (req, res) => {
    const cookie = refreshCookieOf(req);
    const token = bearerToken(req.headers.authorization);
    // expired or not, a token that is sent must be one of ours and not revoked
    const presented = token ? verifier.verifyIgnoringExpiry(token) : undefined;
    if (cookie === undefined && presented) {
      // the specification's refresh: the bearer token alone (clients without the cookie)
      res.json((await auth.refreshByBearer(presented)).body);
      return;
    }
    try {
      const answer = await auth.refresh(cookie);
      if (answer.refresh) setRefreshCookie(req, res, opts.cookieSecurity, answer.refresh);
      res.json(answer.body);
    } catch (err) {
      // a refused refresh token is of no further use to the browser
      clearRefreshCookie(req, res, opts.cookieSecurity);
      throw err;
    }
  });

  r.post('/logout', async (req, res) => {
    const cookie = refreshCookieOf(req);
    const token = bearerToken(req.headers.authorization);
    let actor;
    try {
      actor = token ? verifier.verify(token) : undefined;
    } catch (err) {
      if (cookie === undefined) throw err;
      // an expired token: the cookie still names the session
    }
    if (cookie === undefined && !actor) throw new AppError('AUTH_REQUIRED');
    const ended = await auth.logout(cookie, actor);
    clearRefreshCookie(req, res, opts.cookieSecurity);
    if (!ended) throw new AppError('SESSION_EXPIRED');
    res.json({ success: true });
  });

  return r;
}

export function authRouter(auth: AuthService, opts: AuthRouterOptions): Router {
  const r = Router();

  r.post('/login', async (req, res) => {
    const body = input.body(req, loginRequestSchema);
    const answer = await auth.login(body.email, body.password, req.ip ?? 'unknown');
    if (answer.refresh) setRefreshCookie(req, res, opts.cookieSecurity, answer.refresh);
    res.json(answer.body);
  });

  r.get('/me', requireAuth, async (req, res) => {
    res.json(toPublicUser(await auth.current(req.actor!)));
  });

  r.patch('/profile', requireAuth, async (req, res) => {
    res.json(await auth.updateProfile(req.actor!, input.body(req, profileUpdateSchema)));
  });

  r.patch('/password', requireAuth, async (req, res) => {
    const answer = await auth.changePassword(req.actor!, input.body(req, passwordChangeSchema));
    if (answer.refresh) setRefreshCookie(req, res, opts.cookieSecurity, answer.refresh);
    res.json({ success: true, ...answer.body });
  });

  return r;
}
