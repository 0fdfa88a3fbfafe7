import { Limits } from '@furniture/contracts';
import {
  LotReadModel,
  LotReadModelSync,
  catalogSnapshotSource,
  defineService,
  ensureIndexes,
  WorkLimiter,
  type LotSnapshotSource,
  type ServiceKit,
} from '@furniture/platform';
import { createApp } from './app';
import { loadMediaConfig, type MediaConfig } from './config';
import { DonationUploadsRepository } from './data-access/donation-uploads-repository';
import { registerModels } from './data-access/models';
import { PhotosRepository } from './data-access/photos-repository';
import { DonationPhotosService, type DonationClaims } from './domain/donation-photos-service';
import { Admission } from './domain/limits';
import { LotsService } from './domain/lots-service';
import { PhotoIntake } from './domain/photo-intake';
import { PhotosService } from './domain/photos-service';
import { eventHandlers } from './entry-points/messaging/handlers';
import { catalogDonationClaims } from './integrations/catalog-donations';
import { sharpImageProcessor } from './integrations/image-processor';
import { s3ObjectStore } from './integrations/object-store';

/** A claim older than this belongs to an upload whose process died (uploads take seconds). */
const STALE_CLAIM_MS = 30 * 60 * 1000;
const HOUSEKEEPING_INTERVAL_MS = 5 * 60 * 1000;

export interface MediaOptions {
  /** where lots are looked up (the catalog's internal snapshot endpoint by default) */
  catalog?: LotSnapshotSource;
  /** the catalog's claims around a donor's photo (its internal calls by default) */
  donationClaims?: DonationClaims;
  /** first retry of the read-model rebuild while the catalog is unreachable */
  rebuildRetryMs?: number;
}

/**
 * Wires the media service's domain on the kit (start.ts and the tests alike). The bucket is
 * created here when it is missing.
 */
export async function composeMedia(kit: ServiceKit<MediaConfig>, options: MediaOptions = {}) {
  const { config, logger, conn } = kit;
  const models = registerModels(conn);
  await ensureIndexes(conn);
  const lotsRepo = new LotReadModel(conn);
  await lotsRepo.ensureIndexes();

  const store = s3ObjectStore({
    s3: config.s3,
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
  });
  await store.ensureBucket();
  kit.check('s3', () => store.ping());

  const photosRepo = new PhotosRepository(kit.store, conn, Limits.photosPerLot);
  // its writes go through the store, which asks this relay to publish after each with events
  kit.outbox([models.Photo]);
  const catalogCalls = kit.internalClient('catalog', config.CATALOG_URL);
  const catalog = options.catalog ?? catalogSnapshotSource(catalogCalls);
  const lots = new LotsService({ lots: lotsRepo, catalog, logger });
  const sync = new LotReadModelSync({
    lots: lotsRepo,
    source: catalog,
    logger,
    pageSize: config.LOT_SNAPSHOT_PAGE_SIZE,
    firstRetryMs: options.rebuildRetryMs,
  });
  kit.onStart(() => sync.start('empty'));
  kit.onStop(() => sync.stop());

  const processing = new WorkLimiter(config.MEDIA_MAX_PARALLEL);
  const admission = new Admission(config.MEDIA_MAX_UPLOADS_IN_FLIGHT);
  const images = sharpImageProcessor({
    maxInputPixels: config.MEDIA_MAX_INPUT_PIXELS,
    timeoutSeconds: config.MEDIA_PROCESSING_TIMEOUT_SECONDS,
    concurrency: config.SHARP_CONCURRENCY,
    effort: config.WEBP_EFFORT,
  });
  const intake = new PhotoIntake({
    images,
    processing,
    maxInputPixels: config.MEDIA_MAX_INPUT_PIXELS,
    maxBytes: config.PHOTO_MAX_BYTES,
  });
  const photos = new PhotosService({
    photos: photosRepo,
    lots,
    lotsRepo,
    store,
    intake,
    logger,
  });

  const donationPhotos = new DonationPhotosService({
    claims: options.donationClaims ?? catalogDonationClaims(catalogCalls),
    uploads: new DonationUploadsRepository(kit.store),
    store,
    intake,
    logger,
  });

  // what a crashed upload left behind (TTL indexes would not remove the objects anyway)
  kit.every('stale upload claims', HOUSEKEEPING_INTERVAL_MS, () =>
    photos.cleanupStaleClaims(STALE_CLAIM_MS),
  );
  kit.every('stale donor photo uploads', HOUSEKEEPING_INTERVAL_MS, () =>
    donationPhotos.cleanupStale(STALE_CLAIM_MS),
  );

  const app = createApp({
    ...kit.appDeps(),
    photos,
    donationPhotos,
    admission,
    maxBytes: config.PHOTO_MAX_BYTES,
    uploadTimeoutMs: config.MEDIA_UPLOAD_TIMEOUT_SECONDS * 1000,
  });
  return {
    app,
    handlers: eventHandlers(lots, photos, donationPhotos),
    photos,
    donationPhotos,
    processing,
    admission,
  };
}

export const mediaService = defineService({
  name: 'media',
  loadConfig: loadMediaConfig,
  compose: composeMedia,
  describe: (config) => ({
    bucket: config.S3_BUCKET,
    maxParallel: config.MEDIA_MAX_PARALLEL,
    sharpConcurrency: config.SHARP_CONCURRENCY,
  }),
});
