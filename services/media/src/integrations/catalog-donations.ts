import {
  donationPhotoClaimAnswer,
  donationPhotoFinishAnswer,
  donationPhotoReleaseAnswer,
  type DonationStoredPhoto,
} from '@furniture/contracts';
import type { InternalClient } from '@furniture/platform';
import type { z } from 'zod';
import type { DonationClaims } from '../domain/donation-photos-service';

/**
 * The catalog's internal calls around a donor's photo (contracts api/internal.ts): claim a place
 * among the item's photos, report the stored photo, give the place back. Unreachable or failing:
 * DependencyUnavailableError (the upload answers 503 and stores nothing).
 */
export function catalogDonationClaims(catalog: InternalClient): DonationClaims {
  const call = <S extends z.ZodType>(
    method: 'POST' | 'DELETE',
    path: string,
    body: unknown,
    answer: S,
  ): Promise<z.infer<S>> => catalog.call(method, path, { body, answer });
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
