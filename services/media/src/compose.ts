import {
  OutboxRelay,
  ProcessedEvents,
  TokenVerifier,
  ensureIndexes,
  pingMongo,
  type Connection,
  type EventHandlers,
  type HealthCheck,
  type Logger,
  type Publisher,
} from '@furniture/platform';
import type { Collection, Document } from 'mongodb';
import { createApp } from './app';
import type { MediaConfig } from './config';
import { LotsRepository } from './data-access/lots-repository';
import { registerModels } from './data-access/models';
import { PhotosRepository } from './data-access/photos-repository';
import { Admission, WorkLimiter } from './domain/limits';
import { LotsService } from './domain/lots-service';
import { PhotosService } from './domain/photos-service';
import { lotEventHandlers } from './entry-points/messaging/lot-events';
import { httpCatalogClient, type CatalogClient } from './integrations/catalog-client';
import { sharpImageProcessor } from './integrations/image-processor';
import { s3ObjectStore } from './integrations/object-store';
import { Limits } from '@furniture/contracts';

type ComposeConfig = Pick<
  MediaConfig,
  | 'METRICS_ENABLED'
  | 's3'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'CATALOG_URL'
  | 'LOT_SNAPSHOT_PAGE_SIZE'
  | 'jwtPublicKey'
  | 'JWT_ISSUER'
  | 'JWT_AUDIENCE'
  | 'MEDIA_MAX_PARALLEL'
  | 'MEDIA_MAX_UPLOADS_IN_FLIGHT'
  | 'SHARP_CONCURRENCY'
  | 'MEDIA_MAX_INPUT_PIXELS'
  | 'MEDIA_PROCESSING_TIMEOUT_SECONDS'
  | 'MEDIA_UPLOAD_TIMEOUT_SECONDS'
  | 'PHOTO_MAX_BYTES'
  | 'WEBP_EFFORT'
>;

/** A claim older than this belongs to an upload whose process died (uploads take seconds). */
const STALE_CLAIM_MS = 30 * 60 * 1000;
const HOUSEKEEPING_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Wires the media service from its connections: used by start.ts and by the tests alike.
 * The bucket is created here when it is missing.
 */
export async function composeMedia(opts: {
  config: ComposeConfig;
  logger: Logger;
  conn: Connection;
  publisher: Publisher;
  brokerConnected?: HealthCheck;
  isAccepting?: () => boolean;
  relayIntervalMs?: number;
  catalog?: CatalogClient;
}) {
  const { config, logger, conn } = opts;
  const models = registerModels(conn);
  await ensureIndexes(conn);

  const store = s3ObjectStore({
    s3: config.s3,
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
  });
  await store.ensureBucket();

  const lotsRepo = new LotsRepository(models);
  const photosRepo = new PhotosRepository(conn, models, Limits.photosPerLot);
  const relay = new OutboxRelay({
    collections: [models.Photo.collection as unknown as Collection<Document>],
    publisher: opts.publisher,
    logger,
    intervalMs: opts.relayIntervalMs,
  });
  const lots = new LotsService({
    lots: lotsRepo,
    catalog: opts.catalog ?? httpCatalogClient({ baseUrl: config.CATALOG_URL }),
    logger,
    snapshotPageSize: config.LOT_SNAPSHOT_PAGE_SIZE,
  });
  const processing = new WorkLimiter(config.MEDIA_MAX_PARALLEL);
  const admission = new Admission(config.MEDIA_MAX_UPLOADS_IN_FLIGHT);
  const images = sharpImageProcessor({
    maxInputPixels: config.MEDIA_MAX_INPUT_PIXELS,
    timeoutSeconds: config.MEDIA_PROCESSING_TIMEOUT_SECONDS,
    concurrency: config.SHARP_CONCURRENCY,
    effort: config.WEBP_EFFORT,
  });
  const photos = new PhotosService({
    photos: photosRepo,
    lots,
    lotsRepo,
    store,
    images,
    processing,
    maxInputPixels: config.MEDIA_MAX_INPUT_PIXELS,
    maxBytes: config.PHOTO_MAX_BYTES,
    logger,
    onEvents: () => relay.kick(),
  });
  const processed = new ProcessedEvents(conn);
  const handlers: EventHandlers = processed.wrap(lotEventHandlers(lots, photos));

  const verifier = new TokenVerifier({
    publicKey: config.jwtPublicKey,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
  });
  const app = createApp({
    logger,
    verifier,
    photos,
    admission,
    maxBytes: config.PHOTO_MAX_BYTES,
    uploadTimeoutMs: config.MEDIA_UPLOAD_TIMEOUT_SECONDS * 1000,
    checks: { mongo: () => pingMongo(conn), s3: () => store.ping() },
    info: opts.brokerConnected ? { broker: opts.brokerConnected } : undefined,
    isAccepting: opts.isAccepting,
    metrics: config.METRICS_ENABLED,
  });

  // what a crashed upload left behind (TTL indexes would not remove the objects anyway)
  const housekeeping = setInterval(() => {
    photos
      .cleanupStaleClaims(STALE_CLAIM_MS)
      .catch((err: Error) => logger.warn({ err: err.message }, 'housekeeping failed'));
  }, HOUSEKEEPING_INTERVAL_MS);
  housekeeping.unref();

  return {
    app,
    relay,
    photos,
    lots,
    handlers,
    store,
    processing,
    admission,
    stop: async () => {
      clearInterval(housekeeping);
      await lots.stop();
      await relay.stop();
    },
  };
}
