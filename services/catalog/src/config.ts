import { Limits } from '@furniture/contracts';
import { baseConfigShape, serviceAddress, envInt, loadConfig } from '@furniture/platform';
import { z } from 'zod';

/** Every key of the catalog service; see README "Configuration". */
export function loadCatalogConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    {
      ...baseConfigShape,
      PORT: z.coerce.number().int().default(4002),
      MONGO_DB: z.string().default('furniture_catalog'),
      /** the media service, which copies a donated item's photos into the lot made of it */
      MEDIA_URL: serviceAddress.default('http://127.0.0.1:4004'),
      /**
       * public donations per client address and window, counted in the database (all replicas
       * together): generous, since the people of one shelter share its address
       */
      PUBLIC_WRITES_PER_IP: envInt(60, { min: 1 }),
      PUBLIC_WRITES_PER_IP_WINDOW_SECONDS: envInt(600, { min: 1 }),
      /** public donations per phone number and window (the donor's number) */
      PUBLIC_WRITES_PER_PHONE: envInt(3, { min: 1 }),
      PUBLIC_WRITES_PER_PHONE_WINDOW_SECONDS: envInt(600, { min: 1 }),
      /** the donors' lookups by phone number per client address and window */
      PHONE_LOOKUPS_PER_IP: envInt(120, { min: 1 }),
      PHONE_LOOKUPS_WINDOW_SECONDS: envInt(600, { min: 1 }),
      /** how often open donations whose available-until day has passed are marked expired */
      DONATION_EXPIRY_INTERVAL_MS: envInt(15 * 60 * 1000, { min: 1000 }),
      /**
       * data protection: closed donations (declined, collected, cancelled, expired) lose the
       * donor's name, numbers, e-mail, address and photos this many days after their last change
       * (docs/privacy.md; the same period as the applications service's)
       */
      PERSONAL_DATA_RETENTION_DAYS: envInt(Limits.personalDataRetentionDays, { min: 1, max: 3650 }),
      /** how often the retention job looks for closed donations past the period */
      RETENTION_CHECK_INTERVAL_MS: envInt(60 * 60 * 1000, { min: 1000 }),
      /**
       * the erasure ledger (docs/privacy.md, "Backups"), the applications service's: the
       * retention job's erasures are recorded there before they happen, and at start the
       * donations it names that a restored backup brought back are erased again
       */
      ERASURE_LEDGER: z.string().optional(),
      /** the S3 server of an s3:// ledger, with credentials (or S3_URL_FILE) */
      S3_URL: z.string().optional(),
      S3_URL_FILE: z.string().optional(),
      S3_REGION: z.string().default('us-east-1'),
      /** the public site: a label's QR code opens its back-office scan page (issue 45) */
      PUBLIC_BASE_URL: z
        .url()
        .default('http://localhost:8080')
        .transform((v) => v.replace(/\/+$/, '')),
      /** how often lots of earlier versions are looked for that have no label code yet */
      LABEL_BACKFILL_INTERVAL_MS: envInt(60 * 1000, { min: 1000 }),
    },
    env,
  );
}
export type CatalogConfig = ReturnType<typeof loadCatalogConfig>;
