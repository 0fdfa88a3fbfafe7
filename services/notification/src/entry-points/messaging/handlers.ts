import {
  Events,
  Subscriptions,
  UnloggedEvents,
  type DomainEvent,
  type EventName,
} from '@furniture/contracts';
import type { EventHandler, EventHandlers } from '@furniture/platform';
import type { ActivityService } from '../../activity/domain/activity-service';
import { ImpactEvents, type ImpactService } from '../../activity/domain/impact-service';
import { isMailedEvent, type MailService } from '../../mail/domain/mail-service';
import type { NotificationPrivacy } from '../../privacy/domain/privacy-service';

/**
 * Every domain event writes its activity-log entry; application status events also queue the
 * family's mail; lot, application and wish events move the impact counters; an erasure removes
 * the family's mails and details first (its own entry holds none). Each write is idempotent on
 * its own (unique event id), so a redelivery or a retry after a half-done attempt writes nothing
 * twice.
 */
export function eventHandlers(deps: {
  activity: ActivityService;
  mail: MailService;
  impact: ImpactService;
  privacy: NotificationPrivacy;
}): EventHandlers {
  const handlers: Record<string, EventHandler> = {};
  for (const name of Subscriptions.notification as EventName[]) {
    const logs = !UnloggedEvents.includes(name);
    const mails = isMailedEvent(name);
    const counts = ImpactEvents.includes(name);
    const erases = name === Events.PersonalDataErased;
    if (!logs && !mails && !counts) continue;
    handlers[name] = async (event) => {
      if (erases)
        await deps.privacy.onErased(event as DomainEvent<typeof Events.PersonalDataErased>);
      // an event about a family whose data was erased meanwhile: no mail, a stripped entry
      const erased = erases ? null : await deps.privacy.erasedTargetOf(event);
      if (mails && !erased) await deps.mail.onEvent(event);
      if (counts) await deps.impact.onEvent(event);
      if (logs) await deps.activity.recordEvent(event);
      if (erased && logs) await deps.privacy.strip(erased);
    };
  }
  return handlers as EventHandlers;
}
