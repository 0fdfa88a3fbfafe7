import { MESSAGE_CALLBACK_PATHS, type MessageChannel } from '@furniture/contracts';
import { localDay, metricsRegistry, type ServiceKit } from '@furniture/platform';
import { Counter } from 'prom-client';
import type { ActivityService } from '../activity/domain/activity-service';
import type { NotificationConfig } from '../config';
import type { MailService } from '../mail/domain/mail-service';
import { ModulePrivacy, type ErasedFamilies } from '../privacy/domain/privacy-service';
import { AnonymousQuotaRepository } from './data-access/anonymous-quota-repository';
import { MessageRepository } from './data-access/message-repository';
import type { Models } from './data-access/models';
import { BudgetWarningRepository, OptOutRepository } from './data-access/opt-out-repository';
import { MessagePrivacyRepository } from './data-access/privacy-repository';
import { AnonymousMessages } from './domain/anonymous-messages';
import { phoneHash } from './domain/channels';
import { MessageOutcomes } from './domain/message-outcomes';
import type { MessageActivity, MessageMail } from './domain/message-ports';
import { MessageSender, type MessageOutcome } from './domain/message-sender';
import { MessageService } from './domain/message-service';
import type { CallbackReader, MessageProvider } from './domain/message-types';
import { messageHandlers } from './entry-points/messaging/handlers';
import { smsCallbacks, whatsappCallbacks } from './integrations/callbacks';
import { SmsClient } from './integrations/sms-client';
import { WhatsAppClient } from './integrations/whatsapp-client';

function attemptCounter(): Counter {
  const registry = metricsRegistry('notification');
  return (
    (registry.getSingleMetric('notification_message_attempts_total') as Counter | undefined) ??
    new Counter({
      name: 'notification_message_attempts_total',
      help: 'Message sending outcomes by channel (sent, retry, failed, skipped)',
      labelNames: ['channel', 'outcome'],
      registers: [registry],
    })
  );
}

/**
 * The messages module (issue 30): every mailed event (and every prepared message) also as a
 * WhatsApp template message or an SMS, in the family's language, tracked through the providers'
 * signed callbacks; opt-outs, a monthly budget per channel, nothing lost and nothing twice.
 * A channel whose keys are not set is off.
 */
export function composeMessages(
  kit: ServiceKit<NotificationConfig>,
  deps: {
    models: Models;
    erased: ErasedFamilies;
    activity: ActivityService;
    mail: MailService;
  },
) {
  const { config, logger, conn } = kit;
  const messages = new MessageRepository(kit.store, conn);
  const optOuts = new OptOutRepository(kit.store);
  const warnings = new BudgetWarningRepository(kit.store);

  const whatsappOn = !!(config.WHATSAPP_TOKEN && config.WHATSAPP_PHONE_NUMBER_ID);
  const smsOn = !!(config.SMS_ACCOUNT_SID && config.SMS_AUTH_TOKEN && config.SMS_FROM);
  const whatsapp = whatsappOn
    ? new WhatsAppClient({
        apiUrl: config.WHATSAPP_API_URL,
        token: config.WHATSAPP_TOKEN,
        phoneNumberId: config.WHATSAPP_PHONE_NUMBER_ID,
        timeoutMs: config.MESSAGE_TIMEOUT_MS,
      })
    : null;
  const smsCallbackUrl = `${config.MESSAGES_CALLBACK_BASE_URL}${MESSAGE_CALLBACK_PATHS.sms}`;
  const sms = smsOn
    ? new SmsClient({
        apiUrl: config.SMS_API_URL,
        accountSid: config.SMS_ACCOUNT_SID,
        authToken: config.SMS_AUTH_TOKEN,
        from: config.SMS_FROM,
        statusCallbackUrl: smsCallbackUrl,
        timeoutMs: config.MESSAGE_TIMEOUT_MS,
      })
    : null;
  const providers: Partial<Record<MessageChannel, MessageProvider>> = {
    ...(whatsapp ? { whatsapp } : {}),
    ...(sms ? { sms } : {}),
  };
  const callbacks: Partial<Record<MessageChannel, CallbackReader>> = {
    ...(config.WHATSAPP_APP_SECRET
      ? { whatsapp: whatsappCallbacks(config.WHATSAPP_APP_SECRET) }
      : {}),
    ...(config.SMS_AUTH_TOKEN ? { sms: smsCallbacks(config.SMS_AUTH_TOKEN, smsCallbackUrl) } : {}),
  };
  if (whatsappOn && !config.WHATSAPP_APP_SECRET)
    logger.warn('WHATSAPP_APP_SECRET is not set: WhatsApp callbacks are refused');

  const activity: MessageActivity = { record: (e) => deps.activity.recordEntry(e) };
  const mail: MessageMail = {
    queue: async (m) => {
      await deps.mail.queueNotice({
        eventId: m.eventId,
        eventName: m.eventName,
        to: m.to,
        facts: {
          kind: m.kind,
          language: m.language,
          name: m.name,
          subject: m.subject,
          paragraphs: m.paragraphs,
        },
        applicationId: m.applicationId,
        lotId: m.lotId,
        occurredAt: m.occurredAt,
      });
    },
  };
  const quota = new AnonymousQuotaRepository(kit.store);
  const outcomes = new MessageOutcomes({
    messages,
    optOuts,
    warnings,
    channels: {
      whatsapp: { enabled: whatsappOn, budget: config.WHATSAPP_MONTHLY_BUDGET },
      sms: { enabled: smsOn, budget: config.SMS_MONTHLY_BUDGET },
    },
    anonymousPercent: config.ANONYMOUS_MESSAGE_BUDGET_PERCENT,
    quota,
    activity,
    mail,
    timeZone: config.TIMEZONE,
    siteName: config.SITE_NAME,
    officeEmail: config.OFFICE_EMAIL,
    logger,
  });
  const attempts = attemptCounter();
  const sender = new MessageSender({
    messages,
    providers,
    outcomes,
    anonymous: new AnonymousMessages({
      countries: new Set(config.ANONYMOUS_MESSAGE_COUNTRIES),
      quota,
      dayOf: (at) => localDay(at, config.TIMEZONE),
    }),
    logger,
    maxAttempts: config.MESSAGE_MAX_ATTEMPTS,
    retryBaseMs: config.MESSAGE_RETRY_BASE_MS,
    retryMaxMs: config.MESSAGE_RETRY_MAX_MS,
    concurrency: config.MESSAGE_CONCURRENCY,
    leaseMs: config.MESSAGE_LEASE_MS,
    wakeMaxMs: config.MESSAGE_WAKE_MAX_MS,
    probeIntervalMs: config.MESSAGE_PROBE_INTERVAL_MS,
    onOutcome: (channel, outcome: MessageOutcome) => attempts.inc({ channel, outcome }),
  });
  const service = new MessageService({
    messages,
    optOuts,
    outcomes,
    activity,
    context: {
      siteName: config.SITE_NAME,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      timeZone: config.TIMEZONE,
      contact: config.OFFICE_PHONE || config.OFFICE_EMAIL,
    },
    callbacks,
    verifyToken: config.WHATSAPP_VERIFY_TOKEN,
    reachable: (channel) => sender.isReachable(channel),
    onQueued: () => sender.kick(),
    logger,
  });
  const privacy = new ModulePrivacy({
    repo: new MessagePrivacyRepository(kit.store),
    logger,
    counted: 'messages',
    what: 'messages',
  });
  const optOutRecords = (phones: string[]) => optOuts.ofHashes(phones.map(phoneHash));

  /** Housekeeping: finished messages deleted after MESSAGE_RETENTION_DAYS. */
  const purgeOldMessages = async (now = new Date()): Promise<number> => {
    if (config.MESSAGE_RETENTION_DAYS === 0) return 0;
    const before = new Date(now.getTime() - config.MESSAGE_RETENTION_DAYS * 24 * 3600 * 1000);
    let total = 0;
    for (;;) {
      const deleted = await messages.purgeFinished(before);
      total += deleted;
      if (deleted === 0) return total;
    }
  };
  kit.every('old messages', 3600 * 1000, async () => {
    const n = await purgeOldMessages();
    if (n > 0) logger.info({ deleted: n }, 'old messages deleted');
  });

  /** The templates the business account lacks are submitted first (best effort). */
  const syncTemplates = async () => {
    if (!whatsapp || !config.WHATSAPP_BUSINESS_ACCOUNT_ID) return;
    try {
      const done = await whatsapp.syncTemplates(
        config.WHATSAPP_BUSINESS_ACCOUNT_ID,
        config.SITE_NAME,
        logger,
      );
      logger.info(done, 'WhatsApp templates checked');
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'WhatsApp templates not checked');
    }
  };
  let started: Promise<void> | undefined;
  kit.onStart(() => {
    logger.info({ whatsapp: whatsappOn, sms: smsOn }, 'message channels');
    started = syncTemplates().then(() => sender.start());
  });
  kit.onStop(async () => {
    await started;
    await sender.stop();
  });

  return {
    handlers: messageHandlers({ messages: service, privacy, erased: deps.erased }),
    service,
    sender,
    privacy,
    optOutRecords,
    purgeOldMessages,
    /** resolves once the templates are checked and the sender runs */
    ready: () => started ?? Promise.resolve(),
    enabled: { whatsapp: whatsappOn, sms: smsOn },
  };
}
