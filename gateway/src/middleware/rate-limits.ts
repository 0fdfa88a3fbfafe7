import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { AppError } from '@furniture/platform';

/**
 * Per-client-IP limits on login and on the public writes (applications, wishes). The counters
 * live in this gateway replica's memory; the auth service additionally throttles logins per
 * account and per IP in its database, shared by every replica.
 */
function limiter(max: number, windowSeconds: number): RequestHandler {
  return rateLimit({
    windowMs: windowSeconds * 1000,
    limit: max,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (_req, res, next) => {
      const reset = Number(res.getHeader('retry-after') ?? windowSeconds);
      next(new AppError('RATE_LIMITED', { extra: { retry_after: reset } }));
    },
  });
}

export function rateLimits(opts: {
  login: number;
  loginWindowSeconds: number;
  publicWrites: number;
  publicWritesWindowSeconds: number;
}): RequestHandler {
  const login = limiter(opts.login, opts.loginWindowSeconds);
  const publicWrites = limiter(opts.publicWrites, opts.publicWritesWindowSeconds);
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    if (/^\/api\/v1\/auth\/login\/?$/.test(req.path)) return login(req, res, next);
    if (/^\/api\/v1\/(applications|wishes)\/?$/.test(req.path)) return publicWrites(req, res, next);
    next();
  };
}
