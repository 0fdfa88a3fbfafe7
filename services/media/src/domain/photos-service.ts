import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  Events,
  Limits,
  MEDIA_URL_PREFIX,
  PhotoSizeNames,
  type Actor,
  type DonationStoredPhoto,
  type LotSnapshot,
  type Photo,
  type PhotoUrls,
} from '@furniture/contracts';
import { AppError, createEvent, type LotLookup, type Logger } from '@furniture/platform/domain';
import type { PhotosRepository } from '../data-access/photos-repository';
import { NoFreeSlotError, type PhotoKeys, type SlotsSeen } from './records';
import type { ObjectInfo, ObjectStore } from '../integrations/object-store';
import type { LotsService } from './lots-service';
import type { PhotoIntake, UploadedFile } from './photo-intake';

export interface PhotosDeps {
  photos: PhotosRepository;
  lots: LotsService;
  lotsRepo: LotLookup;
  store: ObjectStore;
  intake: PhotoIntake;
  logger: Logger;
}

/** The keys served: a lot's photos, and a donated item's (donations/{id}/{item}/…). */
const KEY_PATTERN =
  /^(lots\/\d+|donations\/\d+\/\d+)\/[0-9a-f-]{36}-(thumbnail|medium|large)\.webp$/;
const DONATION_KEY_PATTERN = /^donations\/\d+\/\d+\/[0-9a-f-]{36}-(thumbnail|medium|large)\.webp$/;

/** Object keys of a new photo: a fresh uuid per photo, so a key never repeats. */
const keysFor = (lotId: number, uuid: string) =>
  Object.fromEntries(
    PhotoSizeNames.map((s) => [s, `lots/${lotId}/${uuid}-${s}.webp`]),
  ) as PhotoKeys;

const urlsOf = (keys: PhotoKeys) =>
  Object.fromEntries(PhotoSizeNames.map((s) => [s, MEDIA_URL_PREFIX + keys[s]])) as PhotoUrls;

const keysOf = (urls: PhotoUrls): string[] =>
  PhotoSizeNames.map((s) => urls[s].slice(MEDIA_URL_PREFIX.length));

/**
 * Photos of lots: validated upload → three WebP renditions in the bucket → photo record and
 * photo.uploaded; deletion; serving; and removing every photo of a deleted lot.
 *
 * The ten-photos rule holds under concurrent uploads because each upload first claims one of the
 * lot's ten slots (unique index), before any processing; a refused or failed upload gives its
 * slot back and removes whatever it had stored.
 */
export class PhotosService {
  constructor(private readonly deps: PhotosDeps) {}

  /**
   * Cheap checks before the body is read: the lot exists and still has room. Answers the slots
   * it saw, for the upload's claim.
   */
  async checkRoom(lotId: number): Promise<SlotsSeen> {
    await this.deps.lots.requireLot(lotId);
    const seen = await this.deps.photos.slotsTaken(lotId);
    if (seen.taken.length >= Limits.photosPerLot) throw limitReached(seen.taken.length);
    return seen;
  }

  /**
   * Stores a photo of the lot. `room` is what checkRoom answered before the body was read (the
   * lot was there then; it is checked again after the claim); without it the lot is looked up
   * first.
   */
  async upload(
    actor: Actor,
    lotId: number,
    file: UploadedFile | undefined,
    room?: SlotsSeen,
  ): Promise<Photo> {
    const { photos, store, logger } = this.deps;
    if (room?.lot_id !== lotId) await this.deps.lots.requireLot(lotId);
    const image = await this.deps.intake.inspect(file);

    // the image is made while its slot is claimed, so that the cores do not wait for the
    // database's answers; the claim's refusal is answered first, and an upload leaves only once
    // its image work has ended, kept or not
    const rendering = this.deps.intake.render(image);
    const rendered = rendering.then(
      () => undefined,
      () => undefined,
    );
    const claim = await photos
      .claimSlot(lotId, { keys: keysFor(lotId, randomUUID()), created_by_user_id: actor.id }, room)
      .catch(async (err: Error) => {
        await rendered;
        throw err instanceof NoFreeSlotError ? limitReached(err.taken) : err;
      });

    try {
      // the lot may have been deleted between the first check and the claim
      const lot = await this.deps.lotsRepo.get(lotId);
      if (!lot || lot.deleted) throw new AppError('LOT_NOT_FOUND');

      const renditions = await rendering;
      await Promise.all(renditions.map((r) => store.put(claim.keys[r.size], r.data, 'image/webp')));
      const urls = urlsOf(claim.keys);
      const { width, height } = image;
      const photo = await photos.finish(
        claim,
        { urls, width, height, bytes: image.file.data.length },
        (p) => [createEvent(Events.PhotoUploaded, { photo_id: p.id, lot_id: lotId, urls }, actor)],
      );
      // the claim is gone: the lot was deleted while this photo was being processed
      if (!photo) throw new AppError('LOT_NOT_FOUND');
      return photo;
    } catch (err) {
      await rendered;
      await photos.releaseClaim(claim).catch((e: Error) => {
        logger.warn({ err: e.message, photoId: claim.id }, 'could not release photo slot');
      });
      await store.remove(Object.values(claim.keys)).catch((e: Error) => {
        logger.warn({ err: e.message, photoId: claim.id }, 'could not remove objects');
      });
      throw err;
    }
  }

  /**
   * A lot made of a donated item takes the item's photos (issue 28): each is copied under the
   * lot (lots/{id}/, so that it is served, listed, deleted and removed with the lot like any
   * other) and recorded with photo.uploaded, in the item's order. The donor's own objects stay
   * with the donation (its erasure removes them; the lot keeps its copies). Idempotent: a second
   * call answers the photos the first recorded. A photo whose objects are gone (the donation was
   * erased meanwhile) is left out.
   */
  async adopt(
    actor: Actor,
    lotId: number,
    sources: DonationStoredPhoto[],
  ): Promise<{ photo_id: number; urls: PhotoUrls }[]> {
    const out: { photo_id: number; urls: PhotoUrls }[] = [];
    for (const [position, source] of sources.entries()) {
      const from = keysOf(source.urls);
      if (!from.every((k) => DONATION_KEY_PATTERN.test(k))) continue;
      const keys = keysFor(lotId, source.id);
      const copied = await Promise.all(
        PhotoSizeNames.map((size, i) => this.deps.store.copy(from[i]!, keys[size])),
      );
      if (!copied.every(Boolean)) {
        await this.deps.store.remove(Object.values(keys));
        continue;
      }
      const urls = urlsOf(keys);
      const photo = await this.deps.photos.adopt(
        lotId,
        position,
        {
          keys,
          urls,
          width: source.width,
          height: source.height,
          bytes: source.bytes,
          created_by_user_id: actor.id,
        },
        (p) => [createEvent(Events.PhotoUploaded, { photo_id: p.id, lot_id: lotId, urls }, actor)],
      );
      if (photo) out.push({ photo_id: photo.id, urls: photo.urls });
    }
    return out;
  }

  async list(lotId: number): Promise<Photo[]> {
    await this.deps.lots.requireLot(lotId);
    return this.deps.photos.listReady(lotId);
  }

  async delete(actor: Actor, lotId: number, photoId: number): Promise<void> {
    const photo = await this.deps.photos.findReady(lotId, photoId);
    if (!photo) throw new AppError('PHOTO_NOT_FOUND');
    // objects first: if this fails the record stays and the deletion can simply be repeated
    await this.deps.store.remove(keysOf(photo.urls));
    const deleted = await this.deps.photos.delete(photo, [
      createEvent(
        Events.PhotoDeleted,
        { photo_id: photo.id, lot_id: lotId, urls: photo.urls },
        actor,
      ),
    ]);
    if (!deleted) throw new AppError('PHOTO_NOT_FOUND');
  }

  /**
   * lot.deleted: the lot stays deleted in the read model (no more uploads), and every photo of it
   * leaves the bucket, uploads in progress and stray objects included. No photo.deleted events:
   * the lot and its photo list are gone already. Safe to run again.
   */
  async lotDeleted(lot: LotSnapshot): Promise<number> {
    await this.deps.lotsRepo.markDeleted(lot);
    // every key of the lot lives under this prefix, claims' keys and strays included
    const removed = await this.deps.store.removePrefix(`lots/${lot.id}/`);
    await this.deps.photos.purgeLot(lot.id);
    return removed;
  }

  /** An object to serve, or PHOTO_NOT_FOUND. Keys outside our scheme never reach the store. */
  async open(key: string): Promise<{ info: ObjectInfo; body: () => Promise<Readable | null> }> {
    if (!KEY_PATTERN.test(key)) throw new AppError('PHOTO_NOT_FOUND');
    const info = await this.deps.store.stat(key);
    if (!info) throw new AppError('PHOTO_NOT_FOUND');
    return { info, body: () => this.deps.store.open(key) };
  }

  /** Claims left by a process that died mid-upload: free their slots and objects. */
  async cleanupStaleClaims(olderThanMs: number): Promise<number> {
    const stale = await this.deps.photos.staleClaims(new Date(Date.now() - olderThanMs));
    for (const claim of stale) {
      await this.deps.store.remove(Object.values(claim.keys));
      await this.deps.photos.releaseClaim(claim);
    }
    return stale.length;
  }
}

function limitReached(taken: number): AppError {
  const remaining = Math.max(0, Limits.photosPerLot - taken);
  return new AppError('PHOTO_LIMIT_REACHED', {
    params: { max: Limits.photosPerLot, remaining },
    extra: { max_photos: Limits.photosPerLot, remaining },
  });
}
