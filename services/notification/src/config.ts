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

      /**
       * WhatsApp Business (Cloud API, template messages; issue 30). On when WHATSAPP_TOKEN and
       * WHATSAPP_PHONE_NUMBER_ID are set. The base URL includes the Graph API version.
       */
      WHATSAPP_API_URL: urlString.default('https://graph.facebook.com/v21.0'),
      WHATSAPP_TOKEN: z.string().trim().default(''),
      WHATSAPP_PHONE_NUMBER_ID: z.string().trim().default(''),
      /** the business account: missing templates are submitted at start when set */
      WHATSAPP_BUSINESS_ACCOUNT_ID: z.string().trim().default(''),
      /** the app secret the webhook's X-Hub-Signature-256 is made with */
      WHATSAPP_APP_SECRET: z.string().trim().default(''),
      /** the token Meta's webhook verification (GET) must present */
      WHATSAPP_VERIFY_TOKEN: z.string().trim().default(''),
      /** SMS by a Twilio-compatible API: on when SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM are set */
      SMS_API_URL: urlString.default('https://api.twilio.com'),
      SMS_ACCOUNT_SID: z.string().trim().default(''),
      SMS_AUTH_TOKEN: z.string().trim().default(''),
      /** the sending number (E.164) or sender id */
      SMS_FROM: z.string().trim().default(''),
      /**
       * where the providers reach the gateway (their callbacks; the SMS status callback URL and
       * the URL its signature covers); PUBLIC_BASE_URL when empty
       */
      MESSAGES_CALLBACK_BASE_URL: z.string().trim().default(''),
      /** messages per channel and calendar month (0: no budget); a warning at 80 % */
      WHATSAPP_MONTHLY_BUDGET: envInt(0, { min: 0 }),
      SMS_MONTHLY_BUDGET: envInt(0, { min: 0 }),
      /**
       * the messages an anonymous submission triggers (an application's or a donation's
       * "received"; docs/security.md, "No budget for a bot") go only to numbers of these
       * countries (ISO 3166 codes, comma-separated), at most one per number and day
       */
      ANONYMOUS_MESSAGE_COUNTRIES: z
        .string()
        .default('DE,UA,PL')
        .transform((v) =>
          v
            .split(/[\s,]+/)
            .filter(Boolean)
            .map((c) => c.toUpperCase()),
        )
        .pipe(z.array(z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2 codes, e.g. DE,UA,PL'))),
      /** …and out of this share (percent) of each channel's monthly budget; 0: none at all */
      ANONYMOUS_MESSAGE_BUDGET_PERCENT: envInt(20, { min: 0, max: 100 }),
      /** one request to a provider */
      MESSAGE_TIMEOUT_MS: envInt(10000, { min: 100 }),
      /** sending attempts of one message on one channel before the channel counts as failed */
      MESSAGE_MAX_ATTEMPTS: envInt(8, { min: 1, max: 100 }),
      /** delay after the first failed attempt; doubles per attempt up to MESSAGE_RETRY_MAX_MS */
      MESSAGE_RETRY_BASE_MS: envInt(30_000, { min: 1 }),
      MESSAGE_RETRY_MAX_MS: envInt(1_800_000, { min: 1 }),
      /** while a provider is unreachable, how often to look whether it answers again */
      MESSAGE_PROBE_INTERVAL_MS: envInt(5000, { min: 100 }),
      /** messages sent at the same time */
      MESSAGE_CONCURRENCY: envInt(4, { min: 1, max: 50 }),
      /** a message left "sending" this long (a crash mid-send) is tried again (> 2 × MESSAGE_TIMEOUT_MS) */
      MESSAGE_LEASE_MS: envInt(60_000, { min: 1000 }),
      /** longest sleep of the sender between two looks at its own queue */
      MESSAGE_WAKE_MAX_MS: envInt(60_000, { min: 100 }),
      /**
       * finished messages are deleted after this many days (0: kept); at least 32, so that the
       * month's budget counts them
       */
      MESSAGE_RETENTION_DAYS: envInt(180, { min: 0 }),

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
  if (c.MESSAGE_LEASE_MS <= 2 * c.MESSAGE_TIMEOUT_MS) {
    throw new Error(
      `Invalid configuration:\n  MESSAGE_LEASE_MS: must be longer than 2 × MESSAGE_TIMEOUT_MS (${2 * c.MESSAGE_TIMEOUT_MS})`,
    );
  }
  if (c.MESSAGE_RETENTION_DAYS > 0 && c.MESSAGE_RETENTION_DAYS < 32) {
    throw new Error(
      "Invalid configuration:\n  MESSAGE_RETENTION_DAYS: 0 (kept) or at least 32 (the month's budget counts the messages)",
    );
  }
  const publicBase = c.PUBLIC_BASE_URL.replace(/\/+$/, '');
  const callbackBase = (c.MESSAGES_CALLBACK_BASE_URL || publicBase).replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s]+$/.test(callbackBase)) {
    throw new Error('Invalid configuration:\n  MESSAGES_CALLBACK_BASE_URL: not an http(s) URL');
  }
  return {
    ...c,
    PUBLIC_BASE_URL: publicBase,
    MESSAGES_CALLBACK_BASE_URL: callbackBase,
    WHATSAPP_API_URL: c.WHATSAPP_API_URL.replace(/\/+$/, ''),
    SMS_API_URL: c.SMS_API_URL.replace(/\/+$/, ''),
  };
}
export type NotificationConfig = ReturnType<typeof loadNotificationConfig>;
