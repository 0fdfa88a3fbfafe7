import type { Express } from 'express';
import {
  authenticate,
  createServiceApp,
  finishApp,
  type ServiceAppDeps,
} from '@furniture/platform';
import type { ActivityService } from './activity/domain/activity-service';
import type { ImpactService } from './activity/domain/impact-service';
import { activityRouter } from './activity/entry-points/http/activity-router';
import { impactRouter } from './activity/entry-points/http/impact-router';
import type { NotificationPrivacy } from './privacy/domain/privacy-service';
import { privacyRouter } from './privacy/entry-points/http/privacy-router';

export interface NotificationAppDeps extends ServiceAppDeps {
  activity: ActivityService;
  impact: ImpactService;
  privacy: NotificationPrivacy;
  timeZone: string;
}

/** The notification service's HTTP app: the activity log, the impact figures and the privacy records (mail has no HTTP side). */
export function createApp(deps: NotificationAppDeps): Express {
  const app = createServiceApp({ name: 'notification', ...deps });
  app.use('/api/v1', authenticate(deps.verifier));
  app.use('/api/v1/activity-logs', activityRouter(deps.activity, { timeZone: deps.timeZone }));
  app.use('/api/v1/impact', impactRouter(deps.impact));
  app.use('/api/v1/privacy', privacyRouter(deps.privacy));
  return finishApp(app, deps.logger);
}
