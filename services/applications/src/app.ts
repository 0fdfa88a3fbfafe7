import type { ErrorRequestHandler, Express, RequestHandler } from 'express';
import { Errors } from '@furniture/contracts';
import {
  AppError,
  authenticate,
  createServiceApp,
  finishApp,
  isStaffActor,
  type ServiceAppDeps,
  type WriteLimits,
} from '@furniture/platform';
import type { Handovers } from './domain/handovers';
import type { Moderation } from './domain/moderation';
import type { Privacy } from './domain/privacy';
import type { PublicApplications } from './domain/public-applications';
import type { Referrals } from './domain/referrals';
import type { WishesService } from './domain/wishes-service';
import type { MessageRequests } from './domain/message-requests';
import { applicationsRouter } from './entry-points/http/applications-router';
import {
  handoversRouter,
  locationsRouter,
  slotsRouter,
} from './entry-points/http/handovers-router';
import { lotsRouter } from './entry-points/http/lots-router';
import { privacyRouter } from './entry-points/http/privacy-router';
import { referralsRouter } from './entry-points/http/referrals-router';
import { wishesRouter } from './entry-points/http/wishes-router';

export interface ApplicationsAppDeps extends ServiceAppDeps {
  publicApplications: PublicApplications;
  moderation: Moderation;
  wishes: WishesService;
  /** prepared WhatsApp/SMS messages staff send (issue 30) */
  messageRequests: MessageRequests;
  privacy: Privacy;
  /** locations, slots, the family's booking, the day plan (issue 29) */
  handovers: Handovers;
  /** issue 44: partner agencies' referrals */
  referrals: Referrals;
  /** anonymous lookups by phone number per client address: 0, or seconds to wait */
  lookupLimit?: (ip: string) => Promise<number>;
  /** public writes per client address and per phone number */
  writeLimits?: WriteLimits;
  /** s-maxage of the public answers the gateway may keep (a lot's queue panel); 0 = never */
  shareSeconds?: number;
}

// answers keyed by a phone number: nobody may walk through numbers to learn who applied
const PHONE_LOOKUP =
  /^\/api\/v1\/(applications\/public\/check-status\/[^/]+|lots\/[^/]+\/(can-apply|applications-info))\/?$/;
// answers keyed by a secret (a family's booking link, a location's feed): the same budget, so
// nobody walks through guesses (issue 29)
const SECRET_LOOKUP =
  /^\/api\/v1\/(handovers\/[A-Za-z0-9_-]{20,}(\/calendar\.ics)?|locations\/[^/]+\/calendar\.ics)\/?$/;

function phoneLookupLimit(take: (ip: string) => Promise<number>): RequestHandler {
  return (req, _res, next) => {
    const isLookup =
      req.method === 'GET' &&
      !isStaffActor(req.actor) &&
      ((PHONE_LOOKUP.test(req.path) &&
        (req.path.includes('/check-status/') || typeof req.query.phone === 'string')) ||
        SECRET_LOOKUP.test(req.path));
    if (!isLookup) return next();
    take(req.ip ?? 'unknown').then(
      (wait) =>
        next(wait > 0 ? new AppError('RATE_LIMITED', { extra: { retry_after: wait } }) : undefined),
      next,
    );
  };
}

/**
 * The public client recognizes a duplicate application by "already applied" as well as by the
 * German and Ukrainian phrases; a client asking in English gets that wording for this one error
 * (all other messages exist in German and Ukrainian only).
 */
const englishDuplicate: ErrorRequestHandler = (err, req, res, next) => {
  const first = String(req.headers['accept-language'] ?? '').split(',')[0] ?? '';
  if (
    err instanceof AppError &&
    err.code === 'ALREADY_APPLIED' &&
    req.query.lang === undefined &&
    /^en\b/i.test(first.trim())
  ) {
    const message = 'You have already applied for this lot.';
    res.status(Errors.ALREADY_APPLIED.status).json({
      success: false,
      code: err.code,
      message,
      detail: message,
    });
    return;
  }
  next(err);
};

/** The applications service's HTTP app (no listen: start.ts and tests do that). */
export function createApp(deps: ApplicationsAppDeps): Express {
  const app = createServiceApp({ name: 'applications', ...deps });
  app.use('/api/v1', authenticate(deps.verifier));
  if (deps.lookupLimit) app.use(phoneLookupLimit(deps.lookupLimit));
  app.use(
    '/api/v1/applications',
    applicationsRouter({
      publicApplications: deps.publicApplications,
      moderation: deps.moderation,
      messageRequests: deps.messageRequests,
      writeLimits: deps.writeLimits,
    }),
  );
  app.use('/api/v1/lots', lotsRouter(deps.publicApplications, deps.wishes, deps.shareSeconds));
  app.use('/api/v1/wishes', wishesRouter(deps.wishes, deps.messageRequests, deps.writeLimits));
  app.use('/api/v1/privacy', privacyRouter(deps.privacy));
  app.use('/api/v1/locations', locationsRouter(deps.handovers));
  app.use('/api/v1/slots', slotsRouter(deps.handovers));
  app.use('/api/v1/handovers', handoversRouter(deps.handovers, deps.writeLimits));
  app.use('/api/v1/referrals', referralsRouter(deps.referrals));
  app.use(englishDuplicate);
  return finishApp(app, deps.logger);
}
