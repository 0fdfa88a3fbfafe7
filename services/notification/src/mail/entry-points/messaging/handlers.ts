import type { EventHandlers } from '@furniture/platform';
import type { ErasedFamilies, ModulePrivacy } from '../../../privacy/domain/privacy-service';
import { erasureAwareHandlers } from '../../../privacy/entry-points/messaging/handlers';
import { isMailedEvent, type MailService } from '../../domain/mail-service';

/**
 * The mail module's handlers: an application or wish event that mails the family queues its mail,
 * unless the family's data was erased meanwhile (then no mail, and any mail of that family is
 * deleted again); an erasure deletes the family's mails. Each write is idempotent on its own (a
 * mail record's `_id` is its event's id), so a redelivery queues nothing twice.
 */
export function mailHandlers(deps: {
  mail: MailService;
  privacy: ModulePrivacy;
  erased: ErasedFamilies;
}): EventHandlers {
  return erasureAwareHandlers({
    takes: isMailedEvent,
    onEvent: (event) => deps.mail.onEvent(event),
    privacy: deps.privacy,
    erased: deps.erased,
  });
}
