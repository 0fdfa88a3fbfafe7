import {
  Events,
  Subscriptions,
  UnloggedEvents,
  type DomainEvent,
  type EventName,
} from '@furniture/contracts';
import type { EventHandler, EventHandlers } from '@furniture/platform';
import type { ErasedFamilies, ModulePrivacy } from '../../../privacy/domain/privacy-service';
import type { ActivityService } from '../../domain/activity-service';
import { ImpactEvents, type ImpactService } from '../../domain/impact-service';

/**
 * The activity module's handlers: every domain event writes its activity-log entry; lot,
 * application and wish events move the impact counters first; an erasure strips the family's
 * details from the log first (its own entry holds none). An entry about a family whose data was
 * erased meanwhile is stripped once written; the erasure is looked up after the write, so an
 * erasure that runs at the same time cannot miss the entry. Each write is idempotent on its own
 * (unique event id), so a redelivery or a retry after a half-done attempt writes nothing twice.
 */
export function activityHandlers(deps: {
  activity: ActivityService;
  impact: ImpactService;
  privacy: ModulePrivacy;
  erased: ErasedFamilies;
}): EventHandlers {
  const handlers: Record<string, EventHandler> = {};
  for (const name of Subscriptions.notification as EventName[]) {
    const logs = !UnloggedEvents.includes(name);
    const counts = ImpactEvents.includes(name);
    const erases = name === Events.PersonalDataErased;
    if (!logs && !counts) continue;
    handlers[name] = async (event) => {
      if (erases)
        await deps.privacy.onErased(event as DomainEvent<typeof Events.PersonalDataErased>);
      if (counts) await deps.impact.onEvent(event);
      if (!logs) return;
      await deps.activity.recordEvent(event);
      const erased = erases ? null : await deps.erased.erasedTargetOf(event);
      if (erased) await deps.privacy.erase(erased);
    };
  }
  return handlers as EventHandlers;
}
