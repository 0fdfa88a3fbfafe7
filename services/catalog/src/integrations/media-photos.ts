import {
  adoptedPhotosAnswer,
  type Actor,
  type AdoptedPhotos,
  type DonationStoredPhoto,
} from '@furniture/contracts';
import { DependencyUnavailableError } from '@furniture/platform';
import type { LotPhotoCopies } from '../domain/donation-lots';

/**
 * The media service's internal call that copies a donated item's photos into a lot
 * (POST {MEDIA_URL}/internal/lots/{id}/adopted-photos, contracts api/internal.ts). Unreachable or
 * failing: DependencyUnavailableError (the caller answers 503 and may be asked again: the call is
 * idempotent).
 */
export function mediaLotPhotoCopies(baseUrl: string, timeoutMs = 30000): LotPhotoCopies {
  return {
    async adopt(lotId: number, actor: Actor, photos: DonationStoredPhoto[]) {
      const url = new URL(`/internal/lots/${lotId}/adopted-photos`, baseUrl);
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ actor, photos }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new DependencyUnavailableError('media', err);
      }
      if (!res.ok)
        throw new DependencyUnavailableError('media', new Error(`answered ${res.status}`));
      const answer: AdoptedPhotos = adoptedPhotosAnswer.parse(await res.json());
      return answer.photos;
    },
  };
}
