import { Limits } from '@furniture/contracts';
import { baseConfigShape, serviceAddress, envBool, envInt, loadConfig } from '@furniture/platform';
import { z } from 'zod';

/** Every key of the applications service; see README "Configuration". */
export function loadApplicationsConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    {
      ...baseConfigShape,
      PORT: envInt(4003),
      MONGO_DB: z.string().default('furniture_applications'),
      /**
       * the catalog service: its internal lot snapshot (read model rebuild) and the donations of
       * a number (the privacy lookup and erasure)
       */
      CATALOG_URL: serviceAddress.default('http://127.0.0.1:4002'),
      /**
       * the key the handover's bearer secrets are derived from (a family's booking link, a
       * location's feed key; or LINK_SECRET_FILE): they are never stored, only their digests
       * (docs/security.md, "Bearer secrets"). Required in production: another key makes every
       * link shown and sent before it invalid. Elsewhere unset: a new one at each start
       */
      LINK_SECRET: z.string().min(32).optional(),
      LINK_SECRET_FILE: z.string().optional(),
      /** open (pending or approved) applications one phone number may hold across all lots */
      MAX_OPEN_APPLICATIONS_PER_PHONE: envInt(5, { min: 1 }),
      /** when to load the lot read model from the catalog's snapshot at start */
      LOT_SNAPSHOT_SYNC: z.enum(['empty', 'always', 'never']).default('empty'),
      /** lots per snapshot page */
      LOT_SNAPSHOT_PAGE_SIZE: envInt(500, { min: 1, max: 1000 }),
      /** most applications the public status check answers for one phone */
      STATUS_CHECK_MAX_RESULTS: envInt(100, { min: 1, max: 1000 }),
      /** an approval's default pickup date: this many days after the approval */
      PICKUP_DAYS: envInt(7, { min: 1, max: 90 }),
      /** the family is reminded this many days before its pickup date */
      PICKUP_REMINDER_DAYS: envInt(2, { min: 0, max: 30 }),
      /**
       * when a pickup lapses, approve the next family of the queue at once (true), or only
       * show staff who is next (false, the default: a person decides)
       */
      PICKUP_LAPSE_AUTO_APPROVE: envBool.default(false),
      /** how often pickup dates are looked at (reminders, overdue notices) */
      PICKUP_CHECK_INTERVAL_MS: envInt(15 * 60 * 1000, { min: 1000 }),
      /**
       * anonymous lookups by phone number (check-status, can-apply, applications-info with a
       * phone) per client address and window, counted in the database (all replicas together)
       */
      PHONE_LOOKUPS_PER_IP: envInt(120, { min: 1 }),
      PHONE_LOOKUPS_WINDOW_SECONDS: envInt(600, { min: 1 }),
      /**
       * public writes (applications and wishes) per client address and window, counted in the
       * database: generous, since the families of one shelter share its address (issue 15)
       */
      PUBLIC_WRITES_PER_IP: envInt(60, { min: 1 }),
      PUBLIC_WRITES_PER_IP_WINDOW_SECONDS: envInt(600, { min: 1 }),
      /** public writes per phone number (the application's phone, the wish's WhatsApp) */
      PUBLIC_WRITES_PER_PHONE: envInt(3, { min: 1 }),
      PUBLIC_WRITES_PER_PHONE_WINDOW_SECONDS: envInt(600, { min: 1 }),
      /**
       * data protection: closed applications (rejected, completed) and wishes (fulfilled,
       * cancelled) lose the family's name, numbers, e-mail, address and free texts this many
       * days after their last change (docs/privacy.md; the public privacy page states it)
       */
      PERSONAL_DATA_RETENTION_DAYS: envInt(Limits.personalDataRetentionDays, { min: 1, max: 3650 }),
      /** how often the retention job looks for closed records past the period */
      RETENTION_CHECK_INTERVAL_MS: envInt(60 * 60 * 1000, { min: 1000 }),
      /**
       * the erasure ledger (docs/privacy.md, "Backups"): an absolute file path beside the
       * backups, or s3://bucket/prefix/ (with S3_URL); every erasure on request is recorded there
       * before it happens, and erased again at start if a restored backup brought it back
       */
      ERASURE_LEDGER: z.string().optional(),
      /** the S3 server of an s3:// ledger, with credentials (or S3_URL_FILE) */
      S3_URL: z.string().optional(),
      S3_URL_FILE: z.string().optional(),
      S3_REGION: z.string().default('us-east-1'),
      /** the office's time zone: a pickup date is a calendar day there */
      TIMEZONE: z.string().default('Europe/Berlin'),
      /**
       * the public site (issue 29): the family's booking link (`/handover/{token}`) and the
       * locations' iCal feeds are made from it
       */
      PUBLIC_BASE_URL: z
        .url()
        .default('http://localhost:8080')
        .transform((v) => v.replace(/\/+$/, '')),
      /** issue 44: a referral still pending after this many days closes as expired */
      REFERRAL_VALID_DAYS: envInt(Limits.referralValidDays, { min: 1, max: 365 }),
      /**
       * issue 44: referrals one referrer may make per office day (429 REFERRAL_DAILY_LIMIT after):
       * what a stolen referrer account can make the platform send is bounded by it
       */
      REFERRALS_PER_REFERRER_PER_DAY: envInt(Limits.referralsPerReferrerPerDay, {
        min: 1,
        max: 10_000,
      }),
      /** a family may book, change or cancel its slot up to this many hours before it */
      HANDOVER_CHANGE_HOURS: envInt(Limits.handoverChangeHours, { min: 0, max: 24 * 14 }),
      /** a booked slot without an outcome this long after its end counts as missed */
      HANDOVER_MISSED_GRACE_MINUTES: envInt(120, { min: 0, max: 7 * 24 * 60 }),
      /** how often booked slots are looked at (reminders the day before, missed slots) */
      HANDOVER_CHECK_INTERVAL_MS: envInt(5 * 60 * 1000, { min: 1000 }),
    },
    env,
  );
}
export type ApplicationsConfig = ReturnType<typeof loadApplicationsConfig>;
