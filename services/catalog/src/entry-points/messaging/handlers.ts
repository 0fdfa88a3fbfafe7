import { Events } from '@furniture/contracts';
import type { EventHandlers } from '@furniture/platform';
import type { DonationsService } from '../../domain/donations-service';
import type { LotEvents } from '../../domain/lot-events';

/** The events the catalog consumes (thin: each hands its event to one use case). */
export function eventHandlers(lotEvents: LotEvents, donations: DonationsService): EventHandlers {
  return {
    [Events.HandoverClosed]: (e) => donations.handoverClosed(e),
    [Events.ApplicationApprovalRequested]: (e) => lotEvents.approvalRequested(e),
    [Events.ApplicationApprovalWithdrawn]: (e) => lotEvents.reservationReleased(e),
    [Events.ApplicationReservationCancelled]: (e) => lotEvents.reservationReleased(e),
    [Events.ApplicationRejected]: (e) => lotEvents.reservationReleased(e),
    [Events.ApplicationCompleted]: (e) => lotEvents.applicationCompleted(e),
    [Events.PhotoUploaded]: (e) => lotEvents.photoUploaded(e),
    [Events.PhotoDeleted]: (e) => lotEvents.photoDeleted(e),
  };
}
