import { randomUUID } from 'node:crypto';
import {
  MEDIA_URL_PREFIX,
  PhotoSizeNames,
  type DonationPhotoClaim,
  type DonationPhotoRelease,
  type DonationStoredPhoto,
  type ErrorCode,
  type PhotoUrls,
} from '@furniture/contracts';
import { AppError, type Logger } from '@furniture/platform/domain';
import type { DonationUploadsRepository } from '../data-access/donation-uploads-repository';
import type { ObjectStore } from '../integrations/object-store';
import type { PhotoIntake, UploadedFile } from './photo-intake';
import type { DonationUpload, PhotoKeys } from './records';

/** The catalog's side of a donor's photo: the place among the item's photos (contracts). */
export interface DonationClaims {
  claim(
    donationId: number,
    itemId: number,
    token: string,
    photoId: string,
  ): Promise<DonationPhotoClaim>;
  finish(
    donationId: number,
    itemId: number,
    photo: DonationStoredPhoto,
  ): Promise<'stored' | 'gone'>;
  release(donationId: number, itemId: number, photoId: string): Promise<DonationPhotoRelease>;
}

/** Refusals of the image itself: 422 for a donor (issue 28), whatever they are for staff. */
const IMAGE_REFUSALS = new Set<ErrorCode>([
  'PHOTO_FILE_MISSING',
  'PHOTO_INVALID_EXTENSION',
  'PHOTO_INVALID_TYPE',
  'PHOTO_TYPE_MISMATCH',
  'PHOTO_CORRUPT',
  'PHOTO_TOO_SMALL',
  'PHOTO_TOO_MANY_PIXELS',
]);

function forDonor(err: unknown): unknown {
  if (!(err instanceof AppError) || !IMAGE_REFUSALS.has(err.code)) return err;
  return new AppError(err.code, { params: err.params, extra: err.extra, status: 422, cause: err });
}

/** Object keys of a donor's photo: under its donation and item, named by the photo's uuid. */
export const donationKeysFor = (donationId: number, itemId: number, uuid: string) =>
  Object.fromEntries(
    PhotoSizeNames.map((s) => [s, `donations/${donationId}/${itemId}/${uuid}-${s}.webp`]),
  ) as PhotoKeys;

const urlsOf = (keys: PhotoKeys) =>
  Object.fromEntries(PhotoSizeNames.map((s) => [s, MEDIA_URL_PREFIX + keys[s]])) as PhotoUrls;

/**
 * Donors' photos of the items they offer (issue 28): the same checks and sizes as staff photos
 * (PhotoIntake). The catalog keeps the donation, so an upload first claims a place among the
 * item's five there (which also checks the upload token), then stores the three objects, then
 * reports the photo; a refused or failed upload gives its place back and removes its objects.
 * The upload is recorded here before its objects are written, so that what a killed process
 * leaves behind is cleaned up (docs/decisions.md "Donated photos").
 */
export class DonationPhotosService {
  constructor(
    private readonly deps: {
      claims: DonationClaims;
      uploads: DonationUploadsRepository;
      store: ObjectStore;
      intake: PhotoIntake;
      logger: Logger;
    },
  ) {}

  /**
   * One photo for an item: claimed with the donor's token, then the file is received (`receive`)
   * and checked, rendered and stored. Answers the photo's URLs.
   */
  async upload(
    donationId: number,
    itemId: number,
    token: string,
    receive: () => Promise<UploadedFile | undefined>,
  ): Promise<PhotoUrls> {
    const { claims, uploads, store, intake } = this.deps;
    const photoId = randomUUID();
    const upload: DonationUpload = {
      photo_id: photoId,
      donation_id: donationId,
      item_id: itemId,
      keys: donationKeysFor(donationId, itemId, photoId),
      started_at: new Date(),
    };
    let claimed = false;
    let written = false;
    try {
      const claim = await claims.claim(donationId, itemId, token, photoId);
      if (claim.outcome === 'token_invalid') throw new AppError('DONATION_TOKEN_INVALID');
      if (claim.outcome === 'not_found') throw new AppError('DONATION_ITEM_NOT_FOUND');
      if (claim.outcome === 'full') {
        throw new AppError('PHOTO_LIMIT_REACHED', {
          status: 422,
          params: { max: claim.max, remaining: 0 },
          extra: { max_photos: claim.max, remaining: 0 },
        });
      }
      claimed = true;
      const image = await intake.inspect(await receive());
      const renditions = await intake.render(image);
      // from here on objects may exist: recorded first, so that a killed process leaves a trace
      await uploads.begin(upload);
      written = true;
      await Promise.all(
        renditions.map((r) => store.put(upload.keys[r.size], r.data, 'image/webp')),
      );
      const urls = urlsOf(upload.keys);
      const outcome = await claims.finish(donationId, itemId, {
        id: photoId,
        urls,
        width: image.width,
        height: image.height,
        bytes: image.file.data.length,
      });
      // the claim is gone: the donation was erased (or the upload took far too long)
      if (outcome === 'gone') throw new AppError('DONATION_TOKEN_INVALID');
      await uploads.end(photoId);
      return urls;
    } catch (err) {
      if (written) await this.undo(upload);
      else if (claimed) await this.release(upload);
      throw forDonor(err);
    }
  }

  /** Gives an unused claim back (one that cannot be given back stops counting after minutes). */
  private async release(upload: DonationUpload): Promise<void> {
    await this.deps.claims
      .release(upload.donation_id, upload.item_id, upload.photo_id)
      .catch((err: Error) =>
        this.deps.logger.warn({ err: err.message, photoId: upload.photo_id }, 'claim not released'),
      );
  }

  /**
   * Gives the upload's claim back and removes its objects, unless the item has the photo (a
   * process that died right after reporting it); its record goes once that is settled, otherwise
   * the housekeeping tries again (the catalog or the bucket may be away).
   */
  private async undo(upload: DonationUpload): Promise<boolean> {
    const { claims, uploads, store, logger } = this.deps;
    try {
      const { stored } = await claims.release(upload.donation_id, upload.item_id, upload.photo_id);
      if (!stored) await store.remove(Object.values(upload.keys));
      await uploads.end(upload.photo_id);
      return true;
    } catch (err) {
      logger.warn(
        { err: (err as Error).message, photoId: upload.photo_id },
        'donor photo upload not cleaned up yet; the housekeeping tries again',
      );
      return false;
    }
  }

  /** Uploads whose process died: their claims are given back and their objects removed. */
  async cleanupStale(olderThanMs: number): Promise<number> {
    const stale = await this.deps.uploads.staleSince(new Date(Date.now() - olderThanMs));
    let cleaned = 0;
    for (const upload of stale) if (await this.undo(upload)) cleaned++;
    return cleaned;
  }

  /** An erased donation: every photo of it leaves the bucket (the lots made of it keep copies). */
  async donationErased(donationId: number): Promise<number> {
    return this.deps.store.removePrefix(`donations/${donationId}/`);
  }
}
