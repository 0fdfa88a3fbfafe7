import type { EventName } from '@furniture/contracts';
import type { EventHandler, EventHandlers } from './bus';

/**
 * A service's handlers from those of its modules (each module registers its own). Where several
 * modules handle one event, its handler runs theirs one after the other, in the order the modules
 * are given, and fails as soon as one fails. The kit records the event as processed only after all
 * of them succeeded, so a retry runs every part again: each part must be idempotent on its own,
 * as every handler is.
 */
export function combineHandlers(...modules: EventHandlers[]): EventHandlers {
  const combined: Record<string, EventHandler> = {};
  for (const handlers of modules)
    for (const [name, handler] of Object.entries(handlers) as [EventName, EventHandler][]) {
      const before = combined[name];
      if (handler)
        combined[name] = before
          ? async (event) => {
              await before(event);
              await handler(event);
            }
          : handler;
    }
  return combined as EventHandlers;
}
