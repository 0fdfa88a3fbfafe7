import { baseConfigShape, envInt, loadConfig } from '@furniture/platform';
import { z } from 'zod';

const urlString = z.string().trim().pipe(z.url());

/** Every key of the notification service; see README "Configuration". */
export function loadNotificationConfig(env: NodeJS.ProcessEnv = process.env) {
  const c = loadConfig(
    {
      ...baseConfigShape,
      PORT: envInt(4005),
      MONGO_DB: z.string().default('furniture_notification'),

      /** SMTP server: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://host:465 */
      SMTP_URL: urlString.default('smtp://127.0.0.1:1025'),
      /** connect, greeting and idle-socket timeout of one SMTP conversation */
      SMTP_TIMEOUT_MS: envInt(10000, { min: 100 }),
      /** sender of every mail, "Name <address>" */
      MAIL_FROM: z.string().trim().min(3).default('"Möbelbrücke" <noreply@moebelbruecke.local>'),
      /** where replies go; the office address when empty */
      MAIL_REPLY_TO: z.string().trim().default(''),
      /** signature and greeting of the mails */
      SITE_NAME: z.string().trim().min(1).default('Möbelbrücke'),
      /** public site, for the check-status and lot links in the mails */
      PUBLIC_BASE_URL: urlString.default('http://localhost:8080'),

      /** office contact written into the mails (public-site §2 Terms page: contact) */
      OFFICE_EMAIL: z.string().trim().default('kontakt@moebelbruecke.local'),
      /** omitted from the mails when empty */
      OFFICE_PHONE: z.string().trim().default(''),
      /** pick-up address; omitted from the mails when empty */
      OFFICE_ADDRESS: z.string().trim().default(''),
      OFFICE_HOURS_DE: z.string().trim().default('Montag bis Freitag, 9:00–18:00 Uhr'),
      OFFICE_HOURS_UK: z.string().trim().default('з понеділка по пʼятницю, 9:00–18:00'),

      /** sending attempts of one mail before it is marked failed */
      MAIL_MAX_ATTEMPTS: envInt(12, { min: 1, max: 100 }),
      /** delay after the first failed attempt; doubles per attempt up to MAIL_RETRY_MAX_MS */
      MAIL_RETRY_BASE_MS: envInt(30_000, { min: 1 }),
      MAIL_RETRY_MAX_MS: envInt(3_600_000, { min: 1 }),
      /** while the SMTP server is unreachable, how often to look whether it answers again */
      MAIL_PROBE_INTERVAL_MS: envInt(5000, { min: 100 }),
      /** mails sent at the same time */
      MAIL_CONCURRENCY: envInt(4, { min: 1, max: 50 }),
      /**
       * a mail left "sending" this long (a crash mid-send) is tried again; must be longer than a
       * whole SMTP conversation (3 × SMTP_TIMEOUT_MS)
       */
      MAIL_LEASE_MS: envInt(60_000, { min: 1000 }),
      /** sent, failed and withdrawn mails are deleted after this many days (0: kept) */
      MAIL_RETENTION_DAYS: envInt(180, { min: 0 }),
      /** longest sleep of the sender between two looks at its own queue */
      MAIL_WAKE_MAX_MS: envInt(60_000, { min: 100 }),

      /** time zone of calendar-day filters (date_from=2025-03-01) and of the CSV's local times */
      TIMEZONE: z.string().default('Europe/Berlin'),
      /** CSV field separator; ';' is what spreadsheet programs expect in German locales */
      CSV_DELIMITER: z.enum([';', ',', '\t']).default(';'),
      /**
       * seconds after the start (or the counts rebuild) before the closed months' CSV rows are
       * stored ahead of the next export (then every 6 hours)
       */
      EXPORT_MONTHS_DELAY_SECONDS: envInt(60, { min: 0 }),
      /** POST /activity-logs: entries one staff member may post per window (every replica) */
      ACTIVITY_POSTS_PER_USER: envInt(120, { min: 1 }),
      ACTIVITY_POSTS_WINDOW_SECONDS: envInt(600, { min: 1 }),
    },
    env,
  );
  try {
    new Intl.DateTimeFormat('de-DE', { timeZone: c.TIMEZONE });
  } catch {
    throw new Error(`Invalid configuration:\n  TIMEZONE: unknown time zone ${c.TIMEZONE}`);
  }
  if (c.MAIL_LEASE_MS <= 3 * c.SMTP_TIMEOUT_MS) {
    throw new Error(
      `Invalid configuration:\n  MAIL_LEASE_MS: must be longer than 3 × SMTP_TIMEOUT_MS (${3 * c.SMTP_TIMEOUT_MS})`,
    );
  }
  return { ...c, PUBLIC_BASE_URL: c.PUBLIC_BASE_URL.replace(/\/+$/, '') };
}
export type NotificationConfig = ReturnType<typeof loadNotificationConfig>;
