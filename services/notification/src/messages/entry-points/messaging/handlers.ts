import type { EventHandlers } from '@furniture/platform';
import type { ErasedFamilies, ModulePrivacy } from '../../../privacy/domain/privacy-service';
import { erasureAwareHandlers } from '../../../privacy/entry-points/messaging/handlers';
import { isMessagedEvent } from '../../domain/message-facts';
import type { MessageService } from '../../domain/message-service';

/**
 * The messages module's handlers: an event that mails a family or a donor (and a staff member's
 * prepared message) queues its message, unless the person's data was erased meanwhile; an
 * erasure deletes their messages. One record per event (`_id` the event's id): a redelivery
 * queues nothing twice.
 */
export function messageHandlers(deps: {
  messages: MessageService;
  privacy: ModulePrivacy;
  erased: ErasedFamilies;
}): EventHandlers {
  return erasureAwareHandlers({
    takes: isMessagedEvent,
    onEvent: (event) => deps.messages.onEvent(event),
    privacy: deps.privacy,
    erased: deps.erased,
  });
}
