import express, { type Express } from 'express';
import { MESSAGE_CALLBACK_PATHS } from '@furniture/contracts';
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
import type { MessageService } from './messages/domain/message-service';
import { callbacksRouter } from './messages/entry-points/http/callbacks-router';
import { messagesRouter } from './messages/entry-points/http/messages-router';
import type { NotificationPrivacy } from './privacy/domain/privacy-service';
import { privacyRouter } from './privacy/entry-points/http/privacy-router';

export interface NotificationAppDeps extends ServiceAppDeps {
  activity: ActivityService;
  impact: ImpactService;
  privacy: NotificationPrivacy;
  messages: MessageService;
  timeZone: string;
}

const CALLBACKS = '/api/v1/messages/callbacks';

/**
 * The notification service's HTTP app: the activity log, the impact figures, the privacy records
 * and the messages (staff routes, and the providers' signed callbacks, whose raw bodies are kept
 * for their signatures). Mail has no HTTP side.
 */
export function createApp(deps: NotificationAppDeps): Express {
  const app = createServiceApp({
    name: 'notification',
    ...deps,
    rawBodyPaths: [MESSAGE_CALLBACK_PATHS.whatsapp, MESSAGE_CALLBACK_PATHS.sms],
  });
  // no login: the providers sign each request; a form post (SMS) arrives here unparsed
  app.use(
    CALLBACKS,
    express.raw({ type: () => true, limit: '100kb' }),
    callbacksRouter(deps.messages),
  );
  app.use('/api/v1', authenticate(deps.verifier));
  app.use('/api/v1/activity-logs', activityRouter(deps.activity, { timeZone: deps.timeZone }));
  app.use('/api/v1/impact', impactRouter(deps.impact));
  app.use('/api/v1/privacy', privacyRouter(deps.privacy));
  app.use('/api/v1/messages', messagesRouter(deps.messages));
  return finishApp(app, deps.logger);
}
