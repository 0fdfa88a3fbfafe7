import { Events, Subscriptions, type DomainEvent, type EventName } from '@furniture/contracts';
import type { EventHandler, EventHandlers } from '@furniture/platform';
import type { ErasedFamilies, ModulePrivacy } from '../../../privacy/domain/privacy-service';
import { isMessagedEvent } from '../../domain/message-facts';
import type { MessageService } from '../../domain/message-service';

/**
 * The messages module's handlers: an event that mails a family or a donor (and a staff member's
 * prepared message) queues its message, unless the person's data was erased meanwhile (then no
 * message, and whatever was kept of them is erased again); an erasure deletes their messages.
 * One record per event (`_id` the event's id): a redelivery queues nothing twice.
 */
export function messageHandlers(deps: {
  messages: MessageService;
  privacy: ModulePrivacy;
  erased: ErasedFamilies;
}): EventHandlers {
  const handlers: Record<string, EventHandler> = {
    [Events.PersonalDataErased]: (event) =>
      deps.privacy.onErased(event as DomainEvent<typeof Events.PersonalDataErased>),
  };
  for (const name of Subscriptions.notification as EventName[]) {
    if (!isMessagedEvent(name)) continue;
    handlers[name] = async (event) => {
      const erased = await deps.erased.erasedTargetOf(event);
      if (erased) await deps.privacy.erase(erased);
      else await deps.messages.onEvent(event);
    };
  }
  return handlers as EventHandlers;
}
