import type { Express } from 'express';
import {
  authenticate,
  createServiceApp,
  finishApp,
  type HealthCheck,
  type Logger,
  type TokenVerifier,
} from '@furniture/platform';
import type { ActivityService } from './domain/activity-service';
import { activityRouter } from './entry-points/http/activity-router';

export interface NotificationAppDeps {
  logger: Logger;
  verifier: TokenVerifier;
  activity: ActivityService;
  timeZone: string;
  csvDelimiter: string;
  checks?: Record<string, HealthCheck>;
  info?: Record<string, HealthCheck>;
  isAccepting?: () => boolean;
}

/** The notification service's HTTP app: the activity log calls (mail has no HTTP side). */
export function createApp(deps: NotificationAppDeps): Express {
  const app = createServiceApp({
    name: 'notification',
    logger: deps.logger,
    checks: deps.checks,
    info: deps.info,
    isAccepting: deps.isAccepting,
  });
  app.use('/api/v1', authenticate(deps.verifier));
  app.use(
    '/api/v1/activity-logs',
    activityRouter(deps.activity, { timeZone: deps.timeZone, csvDelimiter: deps.csvDelimiter }),
  );
  return finishApp(app, deps.logger);
}
