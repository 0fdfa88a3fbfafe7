import { Events } from '@furniture/contracts';
import type { EventHandlers } from '@furniture/platform';
import type { LotReactions } from '../../domain/lot-reactions';

/** The catalog's lot events this service consumes (the kit makes each event id count once). */
export function eventHandlers(reactions: LotReactions): EventHandlers {
  return {
    [Events.LotCreated]: (e) => reactions.lotChanged(e.payload),
    [Events.LotUpdated]: (e) => reactions.lotChanged(e.payload),
    // a lot of an earlier version got its label code (issue 45)
    [Events.LotLabelled]: (e) => reactions.lotChanged(e.payload),
    [Events.LotStatusChanged]: (e) => reactions.lotStatusChanged(e.payload, e.actor),
    [Events.LotReserved]: (e) => reactions.lotReserved(e.payload),
    [Events.LotReservationFailed]: (e) => reactions.reservationFailed(e.payload),
    [Events.LotDeleted]: (e) => reactions.lotDeleted(e.payload, e.actor),
  };
}
