import type { Express } from 'express';
import {
  authenticate,
  createServiceApp,
  finishApp,
  type ServiceAppDeps,
} from '@furniture/platform';
import type { AuthService } from './domain/auth-service';
import type { UsersService } from './domain/users-service';
import { authRouter } from './entry-points/http/auth-router';
import { usersRouter } from './entry-points/http/users-router';

export interface AuthAppDeps extends ServiceAppDeps {
  auth: AuthService;
  users: UsersService;
}

/** The auth service's HTTP app (no listen: start.ts and tests do that). */
export function createApp(deps: AuthAppDeps): Express {
  const app = createServiceApp({ name: 'auth', ...deps });
  app.use('/api/v1', authenticate(deps.verifier));
  app.use('/api/v1/auth', authRouter(deps.auth));
  app.use('/api/v1/users', usersRouter(deps.users));
  return finishApp(app, deps.logger);
}
