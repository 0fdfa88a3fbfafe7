import cookieParser from 'cookie-parser';
import type { Express } from 'express';
import {
  authenticate,
  createServiceApp,
  finishApp,
  type ServiceAppDeps,
} from '@furniture/platform';
import type { AuthService } from './domain/auth-service';
import type { PartnersService } from './domain/partners-service';
import type { UsersService } from './domain/users-service';
import { authRouter, sessionRouter } from './entry-points/http/auth-router';
import { internalRouter } from './entry-points/http/internal-router';
import { agenciesRouter, invitationsRouter } from './entry-points/http/partners-router';
import type { CookieSecurity } from './entry-points/http/session-cookie';
import { usersRouter } from './entry-points/http/users-router';

export interface AuthAppDeps extends ServiceAppDeps {
  auth: AuthService;
  users: UsersService;
  partners: PartnersService;
  /** the refresh cookie's Secure flag (default auto: all but loopback hosts) */
  cookieSecurity?: CookieSecurity;
}

/** The auth service's HTTP app (no listen: start.ts and tests do that). */
export function createApp(deps: AuthAppDeps): Express {
  const app = createServiceApp({ name: 'auth', ...deps });
  const opts = { cookieSecurity: deps.cookieSecurity ?? 'auto' } as const;
  app.use('/internal', internalRouter(deps.auth));
  app.use('/api/v1/auth', cookieParser(), sessionRouter(deps.auth, deps.verifier, opts));
  app.use('/api/v1', authenticate(deps.verifier));
  app.use('/api/v1/auth', authRouter(deps.auth, opts));
  app.use('/api/v1/users', usersRouter(deps.users));
  app.use('/api/v1/agencies', agenciesRouter(deps.partners));
  app.use('/api/v1/invitations', invitationsRouter(deps.partners));
  return finishApp(app, deps.logger);
}
