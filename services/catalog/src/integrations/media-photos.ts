import { adoptedPhotosAnswer, type Actor, type DonationStoredPhoto } from '@furniture/contracts';
import type { InternalClient } from '@furniture/platform';
import type { LotPhotoCopies } from '../domain/donation-lots';

/**
 * The media service's internal call that copies a donated item's photos into a lot
 * (POST {MEDIA_URL}/internal/lots/{id}/adopted-photos, contracts api/internal.ts). Unreachable or
 * failing: DependencyUnavailableError (the caller answers 503 and may be asked again: the call is
 * idempotent). Copies take up to 30 s.
 */
export function mediaLotPhotoCopies(media: InternalClient): LotPhotoCopies {
  return {
    async adopt(lotId: number, actor: Actor, photos: DonationStoredPhoto[]) {
      const answer = await media.call('POST', `/internal/lots/${lotId}/adopted-photos`, {
        body: { actor, photos },
        answer: adoptedPhotosAnswer,
        timeoutMs: 30000,
      });
      return answer.photos;
    },
  };
}
