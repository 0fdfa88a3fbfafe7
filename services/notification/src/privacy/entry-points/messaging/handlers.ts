import { Events, Subscriptions, type DomainEvent, type EventName } from '@furniture/contracts';
import type { EventHandler, EventHandlers } from '@furniture/platform';
import type { ErasedFamilies, ModulePrivacy } from '../../domain/privacy-service';

/** An erasure is remembered before the modules erase what they keep (compose.ts runs it first). */
export function privacyHandlers(erased: ErasedFamilies): EventHandlers {
  return { [Events.PersonalDataErased]: (event) => erased.onErased(event) };
}

/**
 * The handlers of a module that keeps something per family or donor event (the mails, the
 * messages): each event it takes is handed to `onEvent`, unless the person's data was erased
 * meanwhile (then nothing is kept, and whatever the module kept of them is erased again); an
 * erasure deletes what it keeps. Idempotency is the module's (one record per event id).
 */
export function erasureAwareHandlers(deps: {
  takes: (name: EventName) => boolean;
  onEvent: (event: DomainEvent) => Promise<unknown>;
  privacy: ModulePrivacy;
  erased: ErasedFamilies;
}): EventHandlers {
  const handlers: Record<string, EventHandler> = {
    [Events.PersonalDataErased]: (event) =>
      deps.privacy.onErased(event as DomainEvent<typeof Events.PersonalDataErased>),
  };
  for (const name of Subscriptions.notification as EventName[]) {
    if (!deps.takes(name)) continue;
    handlers[name] = async (event) => {
      const erased = await deps.erased.erasedTargetOf(event);
      if (erased) await deps.privacy.erase(erased);
      else await deps.onEvent(event);
    };
  }
  return handlers as EventHandlers;
}
