import type { CookieOptions, Request, Response } from 'express';
import type { RefreshCookie } from '../../domain/auth-service';

/** The refresh token's cookie: sent by the browser to the auth calls only. */
export const REFRESH_COOKIE = 'refresh_token';
export const REFRESH_COOKIE_PATH = '/api/v1/auth';

export type CookieSecurity = 'auto' | 'always';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Secure everywhere but on a loopback address over plain http (the single-machine run, tests). */
function isSecure(req: Request, mode: CookieSecurity): boolean {
  if (mode === 'always' || req.secure) return true;
  const host = (req.hostname ?? '').toLowerCase();
  return !(LOOPBACK.has(host) || host.endsWith('.localhost'));
}

function options(req: Request, mode: CookieSecurity): CookieOptions {
  return {
    httpOnly: true,
    secure: isSecure(req, mode),
    sameSite: 'strict',
    path: REFRESH_COOKIE_PATH,
  };
}

/** Sets the refresh cookie; it lives until the session's absolute end. */
export function setRefreshCookie(
  req: Request,
  res: Response,
  mode: CookieSecurity,
  refresh: RefreshCookie,
): void {
  res.cookie(REFRESH_COOKIE, refresh.token, {
    ...options(req, mode),
    expires: refresh.expiresAt,
  });
}

export function clearRefreshCookie(req: Request, res: Response, mode: CookieSecurity): void {
  res.clearCookie(REFRESH_COOKIE, options(req, mode));
}

/** The refresh token the browser sent (cookie-parser has read the cookies). */
export function refreshCookieOf(req: Request): unknown {
  return (req.cookies as Record<string, unknown> | undefined)?.[REFRESH_COOKIE];
}
