import { Events } from '@furniture/contracts';
import type { EventHandlers } from '@furniture/platform';
import type { DonationPhotosService } from '../../domain/donation-photos-service';
import type { LotsService } from '../../domain/lots-service';
import type { PhotosService } from '../../domain/photos-service';

/**
 * The lot events media follows (its read model of lots, and photo removal for deleted lots), and
 * erased donations, whose donors' photos it removes.
 */
export function eventHandlers(
  lots: LotsService,
  photos: PhotosService,
  donationPhotos: DonationPhotosService,
): EventHandlers {
  return {
    [Events.LotCreated]: (e) => lots.lotChanged(e.payload.lot),
    [Events.LotUpdated]: (e) => lots.lotChanged(e.payload.lot),
    [Events.LotStatusChanged]: (e) => lots.lotChanged(e.payload.lot),
    [Events.LotReserved]: (e) => lots.lotChanged(e.payload.lot),
    [Events.LotDeleted]: async (e) => {
      await photos.lotDeleted(e.payload.lot);
    },
    [Events.PersonalDataErased]: async (e) => {
      for (const id of e.payload.donation_ids ?? []) await donationPhotos.donationErased(id);
    },
  };
}
