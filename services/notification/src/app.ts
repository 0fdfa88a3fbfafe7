import type { Express } from 'express';
import {
  authenticate,
  createServiceApp,
  finishApp,
  type ServiceAppDeps,
} from '@furniture/platform';
import type { ActivityService } from './domain/activity-service';
import { activityRouter } from './entry-points/http/activity-router';

export interface NotificationAppDeps extends ServiceAppDeps {
  activity: ActivityService;
  timeZone: string;
  csvDelimiter: string;
}

/** The notification service's HTTP app: the activity log calls (mail has no HTTP side). */
export function createApp(deps: NotificationAppDeps): Express {
  const app = createServiceApp({ name: 'notification', ...deps });
  app.use('/api/v1', authenticate(deps.verifier));
  app.use(
    '/api/v1/activity-logs',
    activityRouter(deps.activity, { timeZone: deps.timeZone, csvDelimiter: deps.csvDelimiter }),
  );
  return finishApp(app, deps.logger);
}
