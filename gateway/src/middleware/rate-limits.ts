import type { Request, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { AppError, type Limiter, type LimiterDeclaration, type Logger } from '@furniture/platform';

/**
 * Per-client-IP limits on login, on the public writes (applications, wishes, donations, a
 * family's booking) and on the public lookups by phone number (check-status, can-apply and
 * applications-info with a phone, a donor's lookup) or by secret (a family's booking page, a
 * location's iCal feed). The counters live in the gateway's own database (`shared`, issue 43):
 * one budget for every gateway replica, not one per replica. While that database does not answer
 * (or no database is given: tests of the routing) each replica counts in its memory, so a client
 * is never let through unlimited. Takes of one address in a replica are counted together, and
 * an address well under a public budget does not wait for its count (the store limiter's `ahead`;
 * docs/decisions.md "Gateway limits"). The auth service additionally throttles logins per account and
 * per IP in its database, and the applications and catalog services count public writes per
 * address and per phone number and lookups per address in their own.
 */
function memoryLimiter(max: number, windowSeconds: number): RequestHandler {
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

/** How long a replica waits for the shared counters before it counts in its memory instead. */
const SHARED_TIMEOUT_MS = 1000;

/** The shared counters of every replica, for a budget (`shared` of rateLimits). */
export type SharedLimits = (decl: LimiterDeclaration) => Limiter;

function limiter(
  name: string,
  max: number,
  windowSeconds: number,
  shared: SharedLimits | undefined,
  logger: Logger | undefined,
): RequestHandler {
  const local = memoryLimiter(max, windowSeconds);
  if (!shared) return local;
  const counters = shared({
    table: 'gateway_rate_limits',
    prefix: name,
    points: max,
    windowSeconds,
    // a visitor well under a budget does not wait for the count; logins always do
    ahead: name !== 'login',
  });
  let warned = 0;
  return (req, res, next) => {
    const key = req.ip ?? 'unknown';
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer')), SHARED_TIMEOUT_MS);
    });
    Promise.race([counters.take(key), timeout])
      .then((waitSeconds) => {
        if (waitSeconds === 0) return next();
        res.setHeader('retry-after', String(waitSeconds));
        next(new AppError('RATE_LIMITED', { extra: { retry_after: waitSeconds } }));
      })
      .catch((err: unknown) => {
        if (Date.now() - warned > 60_000) {
          warned = Date.now();
          logger?.warn(
            { err: (err as Error).message, limit: name },
            'shared rate limits unreachable: counting in this replica until they answer',
          );
        }
        local(req, res, next);
      })
      .finally(() => clearTimeout(timer));
  };
}

export function rateLimits(opts: {
  login: number;
  loginWindowSeconds: number;
  publicWrites: number;
  publicWritesWindowSeconds: number;
  publicLookups: number;
  publicLookupsWindowSeconds: number;
  /** the messaging providers' callbacks per client IP per minute (issue 30) */
  messageCallbacksPerMinute: number;
  /** the counters every gateway replica shares (none: this replica's memory) */
  shared?: SharedLimits;
  logger?: Logger;
}): RequestHandler {
  const make = (name: string, max: number, windowSeconds: number) =>
    limiter(name, max, windowSeconds, opts.shared, opts.logger);
  const login = make('login', opts.login, opts.loginWindowSeconds);
  const publicWrites = make('writes', opts.publicWrites, opts.publicWritesWindowSeconds);
  const publicLookups = make('lookups', opts.publicLookups, opts.publicLookupsWindowSeconds);
  const callbacks = make('callbacks', opts.messageCallbacksPerMinute, 60);
  return (req, res, next) => {
    // signed by the provider (checked by the notification service); generous, as every message
    // brings up to three status callbacks, but not unbounded for a forger
    if (MESSAGE_CALLBACK.test(req.path)) return callbacks(req, res, next);
    if (req.method === 'POST') {
      if (/^\/api\/v1\/auth\/login\/?$/.test(req.path)) return login(req, res, next);
      // an invitation's acceptance guesses a secret and hashes a password, as a login does
      if (INVITATION_ACCEPT.test(req.path)) return login(req, res, next);
      if (/^\/api\/v1\/(applications|wishes|donations)\/?$/.test(req.path))
        return publicWrites(req, res, next);
      if (DONOR_LOOKUP.test(req.path)) return publicLookups(req, res, next);
    }
    // a family's booking by its personal link (issue 29): its writes are public writes, its
    // reads (and a location's feed by its key) lookups of a secret, not to be walked through
    if (FAMILY_BOOKING.test(req.path) && (req.method === 'POST' || req.method === 'DELETE'))
      return publicWrites(req, res, next);
    if (req.method === 'GET' && SECRET_LOOKUP.test(req.path) && !req.headers.authorization)
      return publicLookups(req, res, next);
    // answers keyed by a phone number: not to be walked through number by number
    if (req.method === 'GET' && isPhoneLookup(req)) return publicLookups(req, res, next);
    next();
  };
}

const INVITATION_ACCEPT = /^\/api\/v1\/invitations\/[^/]+\/accept\/?$/;
const MESSAGE_CALLBACK = /^\/api\/v1\/messages\/callbacks\//;
const FAMILY_BOOKING = /^\/api\/v1\/handovers\/[^/]+\/booking\/?$/;
const SECRET_LOOKUP =
  /^\/api\/v1\/(handovers\/[A-Za-z0-9_-]{20,}(\/calendar\.ics)?|locations\/[^/]+\/calendar\.ics)\/?$/;
const CHECK_STATUS = /^\/api\/v1\/applications\/public\/check-status\/[^/]+\/?$/;
const DONOR_LOOKUP = /^\/api\/v1\/donations\/lookup\/?$/;
const LOT_QUEUE = /^\/api\/v1\/lots\/[^/]+\/(can-apply|applications-info)\/?$/;

/**
 * A lookup by phone number: the status check, or a lot's queue or eligibility asked with a
 * phone. A lot page read without one (every visitor's queue panel) costs no lookup budget
 * (issue 15: the families of one shelter share an address).
 */
function isPhoneLookup(req: Request): boolean {
  if (CHECK_STATUS.test(req.path)) return true;
  if (!LOT_QUEUE.test(req.path)) return false;
  const phone = req.query.phone;
  return phone !== undefined && phone !== '';
}
