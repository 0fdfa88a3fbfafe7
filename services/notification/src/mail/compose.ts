import { metricsRegistry, type ServiceKit } from '@furniture/platform';
import { Counter } from 'prom-client';
import type { NotificationConfig } from '../config';
import { ModulePrivacy, type ErasedFamilies } from '../privacy/domain/privacy-service';
import { MailRepository } from './data-access/mail-repository';
import type { Models } from './data-access/models';
import { MailPrivacyRepository } from './data-access/privacy-repository';
import { MailSender, type SendOutcome } from './domain/mail-sender';
import { MailService } from './domain/mail-service';
import type { Mailer } from './domain/mail-types';
import { mailHandlers } from './entry-points/messaging/handlers';
import { createSmtpMailer, senderDomain } from './integrations/smtp-mailer';

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

/**
 * The mail module: families' mails rendered from application and wish events, queued in `mails`
 * and sent over SMTP by the sender loop; finished mails deleted after MAIL_RETENTION_DAYS.
 */
export function composeMail(
  kit: ServiceKit<NotificationConfig>,
  deps: {
    models: Models;
    erased: ErasedFamilies;
    /** the SMTP side; built from SMTP_URL when not given */
    mailer?: Mailer;
  },
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
  const mails = new MailRepository(kit.store, conn);
  const mailer =
    deps.mailer ??
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
    onOutcome: (outcome: SendOutcome) => outcomes.inc({ outcome }),
  });
  const mail = new MailService({
    mails,
    context: {
      siteName: config.SITE_NAME,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      timeZone: config.TIMEZONE,
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
  const privacy = new ModulePrivacy({
    repo: new MailPrivacyRepository(kit.store),
    logger,
    counted: 'mails',
    what: 'mails',
  });

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

  return {
    handlers: mailHandlers({ mail, privacy, erased: deps.erased }),
    mail,
    sender,
    privacy,
    purgeOldMails,
  };
}
