import {
  donationPhotoClaimAnswer,
  donationPhotoFinishAnswer,
  donationPhotoReleaseAnswer,
  type DonationStoredPhoto,
} from '@furniture/contracts';
import { DependencyUnavailableError } from '@furniture/platform';
import type { z } from 'zod';
import type { DonationClaims } from '../domain/donation-photos-service';

/**
 * The catalog's internal calls around a donor's photo (contracts api/internal.ts): claim a place
 * among the item's photos, report the stored photo, give the place back. Unreachable or failing:
 * DependencyUnavailableError (the upload answers 503 and stores nothing).
 */
export function catalogDonationClaims(baseUrl: string, timeoutMs = 10000): DonationClaims {
  const call = async <S extends z.ZodType>(
    method: string,
    path: string,
    body: unknown,
    answer: S,
  ): Promise<z.infer<S>> => {
    let res: Response;
    try {
      res = await fetch(new URL(path, baseUrl), {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new DependencyUnavailableError('catalog', err);
    }
    if (!res.ok)
      throw new DependencyUnavailableError('catalog', new Error(`answered ${res.status}`));
    return answer.parse(await res.json());
  };
  const claims = (donationId: number, itemId: number) =>
    `/internal/donations/${donationId}/items/${itemId}/photo-claims`;

  return {
    claim: (donationId, itemId, token, photoId) =>
      call(
        'POST',
        claims(donationId, itemId),
        { token, photo_id: photoId },
        donationPhotoClaimAnswer,
      ),
    async finish(donationId, itemId, photo: DonationStoredPhoto) {
      const { id, ...stored } = photo;
      const answer = await call(
        'POST',
        `${claims(donationId, itemId)}/${id}`,
        stored,
        donationPhotoFinishAnswer,
      );
      return answer.outcome;
    },
    release: (donationId, itemId, photoId) =>
      call(
        'DELETE',
        `${claims(donationId, itemId)}/${photoId}`,
        undefined,
        donationPhotoReleaseAnswer,
      ),
  };
}
