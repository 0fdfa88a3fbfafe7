import { Events, Subscriptions, type DomainEvent, type EventName } from '@furniture/contracts';
import type { EventHandler, EventHandlers } from '@furniture/platform';
import type { ErasedFamilies, ModulePrivacy } from '../../../privacy/domain/privacy-service';
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
  const handlers: Record<string, EventHandler> = {
    [Events.PersonalDataErased]: (event) =>
      deps.privacy.onErased(event as DomainEvent<typeof Events.PersonalDataErased>),
  };
  for (const name of Subscriptions.notification as EventName[]) {
    if (!isMailedEvent(name)) continue;
    handlers[name] = async (event) => {
      const erased = await deps.erased.erasedTargetOf(event);
      if (erased) await deps.privacy.erase(erased);
      else await deps.mail.onEvent(event);
    };
  }
  return handlers as EventHandlers;
}
