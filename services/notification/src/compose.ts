import {
  TokenVerifier,
  ensureIndexes,
  metricsRegistry,
  pingMongo,
  type Connection,
  type HealthCheck,
  type Logger,
} from '@furniture/platform';
import { Counter } from 'prom-client';
import { createApp } from './app';
import type { NotificationConfig } from './config';
import { ActivityRepository } from './data-access/activity-repository';
import { MailRepository } from './data-access/mail-repository';
import { registerModels } from './data-access/models';
import { ActivityService } from './domain/activity-service';
import { MailSender, type SendOutcome } from './domain/mail-sender';
import { MailService } from './domain/mail-service';
import type { Mailer } from './domain/mail-types';
import { eventHandlers } from './entry-points/messaging/event-handlers';
import { createSmtpMailer, senderDomain } from './integrations/smtp-mailer';

type ComposeConfig = Omit<
  NotificationConfig,
  'PORT' | 'HOST' | 'MONGO_URL' | 'MONGO_DB' | 'AMQP_URL' | 'AMQP_EXCHANGE' | 'NODE_ENV'
>;

function outcomeCounter(): Counter {
  const registry = metricsRegistry('notification');
  return (
    (registry.getSingleMetric('notification_mail_attempts_total') as Counter | undefined) ??
    new Counter({
      name: 'notification_mail_attempts_total',
      help: 'Mail sending outcomes (sent, retry, failed, withdrawn)',
      labelNames: ['outcome'],
      registers: [registry],
    })
  );
}

/**
 * Wires the notification service from its connections: used by start.ts and by the tests alike.
 * The caller subscribes `handlers` to the bus and starts `sender`.
 */
export async function composeNotification(opts: {
  config: ComposeConfig;
  logger: Logger;
  conn: Connection;
  /** the SMTP side; built from SMTP_URL when not given */
  mailer?: Mailer;
  brokerConnected?: HealthCheck;
  isAccepting?: () => boolean;
}) {
  const { config, logger, conn } = opts;
  const models = registerModels(conn);
  await ensureIndexes(conn);

  const activityRepo = new ActivityRepository(conn, models);
  const mails = new MailRepository(conn, models);
  const mailer =
    opts.mailer ??
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
    approvalHoldMs: config.MAIL_APPROVAL_HOLD_MS,
    messageIdDomain: senderDomain(config.MAIL_FROM),
    onQueued: () => sender.kick(),
    logger,
  });
  const activity = new ActivityService({ activity: activityRepo, timeZone: config.TIMEZONE });

  const verifier = new TokenVerifier({
    publicKey: config.jwtPublicKey,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
  });
  const app = createApp({
    logger,
    verifier,
    activity,
    timeZone: config.TIMEZONE,
    csvDelimiter: config.CSV_DELIMITER,
    checks: { mongo: () => pingMongo(conn) },
    info: {
      ...(opts.brokerConnected ? { broker: opts.brokerConnected } : {}),
      smtp: () => sender.smtpHealthy(),
    },
    isAccepting: opts.isAccepting,
    metrics: config.METRICS_ENABLED,
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
  const housekeeping = setInterval(() => {
    purgeOldMails().then(
      (n) => n > 0 && logger.info({ deleted: n }, 'old mails deleted'),
      (err: Error) => logger.warn({ err: err.message }, 'mail housekeeping failed'),
    );
  }, 3600 * 1000);
  housekeeping.unref();

  return {
    app,
    purgeOldMails,
    handlers: eventHandlers({ activity, mail }),
    sender,
    activity,
    mail,
    mails,
    stop: async () => {
      clearInterval(housekeeping);
      await sender.stop();
      mailer.close();
    },
  };
}
