import {
  defineService,
  ensureIndexes,
  metricsRegistry,
  type ServiceKit,
} from '@furniture/platform';
import { Counter } from 'prom-client';
import { createApp } from './app';
import { loadNotificationConfig, type NotificationConfig } from './config';
import { ActivityRepository } from './activity/data-access/activity-repository';
import { ImpactRepository } from './activity/data-access/impact-repository';
import { registerModels as registerActivityModels } from './activity/data-access/models';
import { ActivityService } from './activity/domain/activity-service';
import { ImpactService } from './activity/domain/impact-service';
import { eventHandlers } from './entry-points/messaging/handlers';
import { MailRepository } from './mail/data-access/mail-repository';
import { registerModels as registerMailModels } from './mail/data-access/models';
import { MailSender, type SendOutcome } from './mail/domain/mail-sender';
import { MailService } from './mail/domain/mail-service';
import type { Mailer } from './mail/domain/mail-types';
import { createSmtpMailer, senderDomain } from './mail/integrations/smtp-mailer';
import { NotificationPrivacyRepository } from './privacy/data-access/privacy-repository';
import { NotificationPrivacy } from './privacy/domain/privacy-service';

function outcomeCounter(): Counter {
  const registry = metricsRegistry('notification');
  return (
    (registry.getSingleMetric('notification_mail_attempts_total') as Counter | undefined) ??
    new Counter({
      name: 'notification_mail_attempts_total',
      help: 'Mail sending outcomes (sent, retry, failed)',
      labelNames: ['outcome'],
      registers: [registry],
    })
  );
}

export interface NotificationOptions {
  /** the SMTP side; built from SMTP_URL when not given */
  mailer?: Mailer;
}

/** Wires the notification service's domain on the kit (start.ts and the tests alike). */
export async function composeNotification(
  kit: ServiceKit<NotificationConfig>,
  options: NotificationOptions = {},
) {
  const { config, logger, conn } = kit;
  if (
    config.NODE_ENV === 'production' &&
    (!config.OFFICE_PHONE || config.OFFICE_EMAIL.endsWith('.local'))
  ) {
    logger.warn(
      'OFFICE_EMAIL / OFFICE_PHONE are not set: the mails to families carry placeholder contact details',
    );
  }
  const models = { ...registerActivityModels(conn), ...registerMailModels(conn) };
  await ensureIndexes(conn);

  const activityRepo = new ActivityRepository(conn, models, config.TIMEZONE);
  const activity = new ActivityService({
    activity: activityRepo,
    timeZone: config.TIMEZONE,
    csvDelimiter: config.CSV_DELIMITER,
  });
  /** the CSV export's rows of closed months, stored ahead of the next export */
  const storeExportMonths = async () => {
    const months = await activity.storeClosedMonths();
    if (months > 0) logger.info({ months }, 'activity export: closed months stored');
  };
  const storeFailed = (err: unknown) =>
    logger.error({ err }, 'storing the activity export months failed');
  // a minute (EXPORT_MONTHS_DELAY_SECONDS) after the start or the counts rebuild: the first
  // requests, and an export asked for at once, do not share the machine with it (an export
  // stores what it renders itself)
  let storeTimer: NodeJS.Timeout | undefined;
  const storeSoon = () => {
    storeTimer = setTimeout(
      () => void storeExportMonths().catch(storeFailed),
      config.EXPORT_MONTHS_DELAY_SECONDS * 1000,
    );
    storeTimer.unref();
  };
  kit.onStop(() => clearTimeout(storeTimer));
  if (await activityRepo.openCounts()) {
    // in the background: the service answers meanwhile, counting per request as before
    kit.onStart(() => {
      void activityRepo
        .rebuildCounts((msg) => logger.info(msg))
        .then(storeSoon, (err: unknown) =>
          logger.error({ err }, 'rebuilding the activity counts failed'),
        );
    });
  } else kit.onStart(storeSoon);
  // a month that ended, or whose stored rows went stale (a late entry, an erasure)
  kit.every('activity export months', 6 * 3600 * 1000, storeExportMonths);
  const mails = new MailRepository(conn, models);
  const mailer =
    options.mailer ??
    createSmtpMailer({
      url: config.SMTP_URL,
      from: config.MAIL_FROM,
      replyTo: config.MAIL_REPLY_TO || config.OFFICE_EMAIL || undefined,
      timeoutMs: config.SMTP_TIMEOUT_MS,
    });
  const outcomes = outcomeCounter();
  const sender = new MailSender({
    mails,
    mailer,
    logger,
    maxAttempts: config.MAIL_MAX_ATTEMPTS,
    retryBaseMs: config.MAIL_RETRY_BASE_MS,
    retryMaxMs: config.MAIL_RETRY_MAX_MS,
    concurrency: config.MAIL_CONCURRENCY,
    leaseMs: config.MAIL_LEASE_MS,
    wakeMaxMs: config.MAIL_WAKE_MAX_MS,
    probeIntervalMs: config.MAIL_PROBE_INTERVAL_MS,
    lockScope: conn.name,
    onOutcome: (outcome: SendOutcome) => outcomes.inc({ outcome }),
  });
  const mail = new MailService({
    mails,
    context: {
      siteName: config.SITE_NAME,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      office: {
        email: config.OFFICE_EMAIL,
        phone: config.OFFICE_PHONE,
        address: config.OFFICE_ADDRESS,
        hours: { de: config.OFFICE_HOURS_DE, uk: config.OFFICE_HOURS_UK },
      },
    },
    messageIdDomain: senderDomain(config.MAIL_FROM),
    onQueued: () => sender.kick(),
    logger,
  });
  const privacy = new NotificationPrivacy({
    repo: new NotificationPrivacyRepository(conn, models),
    logger,
  });
  const impactRepo = new ImpactRepository(conn);
  const impact = new ImpactService({ store: impactRepo, timeZone: config.TIMEZONE });
  // a redelivered event comes within minutes; the marks that prevent double counting need not last
  kit.every('old impact marks', 3600 * 1000, () =>
    impactRepo.purgeMarks(new Date(Date.now() - 30 * 24 * 3600 * 1000)),
  );

  /** Housekeeping: what a TTL index would do on MongoDB (FerretDB has none). */
  const purgeOldMails = async (now = new Date()): Promise<number> => {
    if (config.MAIL_RETENTION_DAYS === 0) return 0;
    const before = new Date(now.getTime() - config.MAIL_RETENTION_DAYS * 24 * 3600 * 1000);
    let total = 0;
    for (;;) {
      const deleted = await mails.purgeFinished(before);
      total += deleted;
      if (deleted === 0) return total;
    }
  };
  kit.every('old mails', 3600 * 1000, async () => {
    const n = await purgeOldMails();
    if (n > 0) logger.info({ deleted: n }, 'old mails deleted');
  });
  kit.onStart(() => sender.start());
  kit.onStop(async () => {
    await sender.stop();
    mailer.close();
  });

  const app = createApp({
    ...kit.appDeps(),
    // SMTP is reported but not required: mails wait in their queue while it is away
    info: { ...kit.appDeps().info, smtp: () => sender.smtpHealthy() },
    activity,
    impact,
    privacy,
    timeZone: config.TIMEZONE,
  });

  return {
    app,
    handlers: eventHandlers({ activity, mail, impact, privacy }),
    purgeOldMails,
    sender,
    activity,
    impact,
    mail,
    mails,
    privacy,
  };
}

export const notificationService = defineService({
  name: 'notification',
  loadConfig: loadNotificationConfig,
  compose: composeNotification,
});
