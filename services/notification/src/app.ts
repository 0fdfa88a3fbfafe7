import type { Express } from 'express';
import {
  authenticate,
  createServiceApp,
  finishApp,
  type ServiceAppDeps,
} from '@furniture/platform';
import type { ActivityService } from './domain/activity-service';
import type { ImpactService } from './domain/impact-service';
import { activityRouter } from './entry-points/http/activity-router';
import { impactRouter } from './entry-points/http/impact-router';

export interface NotificationAppDeps extends ServiceAppDeps {
  activity: ActivityService;
  impact: ImpactService;
  timeZone: string;
  csvDelimiter: string;
}

/** The notification service's HTTP app: the activity log and the impact figures (mail has no HTTP side). */
export function createApp(deps: NotificationAppDeps): Express {
  const app = createServiceApp({ name: 'notification', ...deps });
  app.use('/api/v1', authenticate(deps.verifier));
  app.use(
    '/api/v1/activity-logs',
    activityRouter(deps.activity, { timeZone: deps.timeZone, csvDelimiter: deps.csvDelimiter }),
  );
  app.use('/api/v1/impact', impactRouter(deps.impact));
  return finishApp(app, deps.logger);
}
