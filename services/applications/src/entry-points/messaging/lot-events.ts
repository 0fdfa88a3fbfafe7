import { Events } from '@furniture/contracts';
import type { EventHandlers, ProcessedEvents } from '@furniture/platform';
import type { LotReactions } from '../../domain/lot-reactions';

/** The catalog's lot events this service consumes (each event id handled once). */
export function lotEventHandlers(
  reactions: LotReactions,
  processed: ProcessedEvents,
): EventHandlers {
  return processed.wrap({
    [Events.LotCreated]: (e) => reactions.lotChanged(e.payload),
    [Events.LotUpdated]: (e) => reactions.lotChanged(e.payload),
    [Events.LotStatusChanged]: (e) => reactions.lotStatusChanged(e.payload, e.actor),
    [Events.LotReserved]: (e) => reactions.lotReserved(e.payload, e.actor),
    [Events.LotReservationFailed]: (e) => reactions.reservationFailed(e.payload),
    [Events.LotDeleted]: (e) => reactions.lotDeleted(e.payload, e.actor),
  });
}
