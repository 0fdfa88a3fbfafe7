import { Limits } from '@furniture/contracts';
import {
  baseConfigShape,
  serviceAddress,
  envInt,
  loadConfig,
  readSecret,
} from '@furniture/platform';
import { z } from 'zod';
import { defaultParallel } from './parallelism';

export interface S3Settings {
  endPoint: string;
  port: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
}

/** S3_URL is http(s)://ACCESS_KEY:SECRET_KEY@host:port (the same form the infra launcher prints). */
export function parseS3Url(raw: string): S3Settings {
  const invalid = (why: string) => new Error(`Invalid configuration:\n  S3_URL: ${why}`);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw invalid('not a URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw invalid('must start with http:// or https://');
  if (!u.username || !u.password)
    throw invalid('must carry credentials (http://ACCESS_KEY:SECRET_KEY@host:port)');
  const useSSL = u.protocol === 'https:';
  return {
    endPoint: u.hostname,
    port: u.port ? Number(u.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: decodeURIComponent(u.username),
    secretKey: decodeURIComponent(u.password),
  };
}

/** Every key of the media service; see README "Configuration". */
export function loadMediaConfig(env: NodeJS.ProcessEnv = process.env) {
  const c = loadConfig(
    {
      ...baseConfigShape,
      PORT: envInt(4004),
      MONGO_DB: z.string().default('furniture_media'),
      /** S3 server with credentials (or S3_URL_FILE); local default = the launcher's MinIO */
      S3_URL: z.string().optional(),
      S3_URL_FILE: z.string().optional(),
      /** bucket of the photo objects; created at start when missing */
      S3_BUCKET: z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'S3 bucket names: 3-63 of a-z 0-9 . -')
        .default('furniture-media'),
      S3_REGION: z.string().default('us-east-1'),
      /** catalog service, for the lot read model's snapshot (GET /internal/lots/snapshot) */
      CATALOG_URL: serviceAddress.default('http://127.0.0.1:4002'),
      /** lots per page when the lot read model is rebuilt from the catalog's snapshot */
      LOT_SNAPSHOT_PAGE_SIZE: envInt(500, { min: 1, max: 1000 }),
      /**
       * images decoded and encoded at the same time in this process; more wait in line. Default:
       * two per CPU core, at most 8 (parallelism.ts)
       */
      MEDIA_MAX_PARALLEL: envInt(defaultParallel(), { min: 1, max: 64 }),
      /**
       * uploads accepted at once (receiving, waiting or processing); each holds at most one file
       * in memory, so memory stays below about this × PHOTO_MAX_BYTES plus the images being
       * processed. More are refused at once with 503 PHOTO_UPLOADS_BUSY and Retry-After.
       */
      MEDIA_MAX_UPLOADS_IN_FLIGHT: envInt(16, { min: 1, max: 1000 }),
      /**
       * libvips worker threads per image (sharp.concurrency); 0 = one per CPU core. One: images
       * in parallel fill the cores (MEDIA_MAX_PARALLEL), which scales better than more threads
       * within one image (a JPEG's decode and a WebP's encode run on one thread anyway)
       */
      SHARP_CONCURRENCY: envInt(1, { min: 0, max: 64 }),
      /** images with more pixels are refused from their header, before decoding */
      MEDIA_MAX_INPUT_PIXELS: envInt(50_000_000, { min: 90000 }),
      /** a decode + three encodes that take longer are stopped and refused (sharp timeout) */
      MEDIA_PROCESSING_TIMEOUT_SECONDS: envInt(30, { min: 1, max: 600 }),
      /** an upload body that has not fully arrived after this long is cut off */
      MEDIA_UPLOAD_TIMEOUT_SECONDS: envInt(120, { min: 1, max: 3600 }),
      /** largest accepted file (the spec's 10 MB) */
      PHOTO_MAX_BYTES: envInt(Limits.photoMaxBytes, { min: 1024 }),
      /**
       * WebP encoder effort 0 (fastest) .. 6 (smallest files). 2 encodes 2-3 times faster than
       * libwebp's default 4 for files 2-4 % larger (measured, see README)
       */
      WEBP_EFFORT: envInt(2, { min: 0, max: 6 }),
    },
    env,
  );
  const s3Url =
    c.S3_URL || c.S3_URL_FILE
      ? readSecret(c.S3_URL, c.S3_URL_FILE, 'S3_URL').trim()
      : 'http://furniture:furniture-local-secret@127.0.0.1:9000';
  return {
    ...c,
    s3: parseS3Url(s3Url),
  };
}
export type MediaConfig = ReturnType<typeof loadMediaConfig>;

const MB = 1024 * 1024;
/** the process with no upload in flight: Node, its clients, sharp and libvips (about 130 MB) */
const BASE_MB = 160;
/** one image in processing: the decode's buffers, the 1600 px pixels and the three encoders */
const PER_IMAGE_MB = 64;

/**
 * The memory the process stays within at these settings, in MB (README "Bounded work and
 * memory"): its base, every admitted upload's body (held as it arrives and once more as one
 * buffer), and every image in processing. bench:media reports its peak against it.
 */
export function memoryBoundMb(
  c: Pick<MediaConfig, 'MEDIA_MAX_UPLOADS_IN_FLIGHT' | 'PHOTO_MAX_BYTES' | 'MEDIA_MAX_PARALLEL'>,
): number {
  const bodies = c.MEDIA_MAX_UPLOADS_IN_FLIGHT * Math.ceil((2 * c.PHOTO_MAX_BYTES) / MB);
  return BASE_MB + bodies + c.MEDIA_MAX_PARALLEL * PER_IMAGE_MB;
}
