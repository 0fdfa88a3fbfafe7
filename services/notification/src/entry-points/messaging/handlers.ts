import { Subscriptions, UnloggedEvents, type EventName } from '@furniture/contracts';
import type { EventHandler, EventHandlers } from '@furniture/platform';
import type { ActivityService } from '../../domain/activity-service';
import { ImpactEvents, type ImpactService } from '../../domain/impact-service';
import { isMailedEvent, type MailService } from '../../domain/mail-service';

/**
 * Every domain event writes its activity-log entry; application status events also queue the
 * family's mail; lot, application and wish events move the impact counters. Each write are idempotent on their own (unique event id), so a redelivery or a
 * retry after a half-done attempt writes nothing twice.
 */
export function eventHandlers(deps: {
  activity: ActivityService;
  mail: MailService;
  impact: ImpactService;
}): EventHandlers {
  const handlers: Record<string, EventHandler> = {};
  for (const name of Subscriptions.notification as EventName[]) {
    const logs = !UnloggedEvents.includes(name);
    const mails = isMailedEvent(name);
    const counts = ImpactEvents.includes(name);
    if (!logs && !mails && !counts) continue;
    handlers[name] = async (event) => {
      if (mails) await deps.mail.onEvent(event);
      if (counts) await deps.impact.onEvent(event);
      if (logs) await deps.activity.recordEvent(event);
    };
  }
  return handlers as EventHandlers;
}
