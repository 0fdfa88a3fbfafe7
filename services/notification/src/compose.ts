import {
  combineHandlers,
  defineService,
  ensureIndexes,
  type ServiceKit,
} from '@furniture/platform';
import { composeActivity } from './activity/compose';
import { registerModels as registerActivityModels } from './activity/data-access/models';
import { createApp } from './app';
import { loadNotificationConfig, type NotificationConfig } from './config';
import { composeMail } from './mail/compose';
import { registerModels as registerMailModels } from './mail/data-access/models';
import type { Mailer } from './mail/domain/mail-types';
import { composeMessages } from './messages/compose';
import { registerModels as registerMessageModels } from './messages/data-access/models';
import { ErasedTargetsRepository } from './privacy/data-access/erased-targets-repository';
import { ErasedFamilies, NotificationPrivacy } from './privacy/domain/privacy-service';
import { privacyHandlers } from './privacy/entry-points/messaging/handlers';

export interface NotificationOptions {
  /** the SMTP side; built from SMTP_URL when not given */
  mailer?: Mailer;
}

/**
 * Wires the notification service's modules on the kit (start.ts and the tests alike): mail
 * (src/mail), messages by WhatsApp and SMS (src/messages) and the activity log with its export
 * and the impact counters (src/activity), each with its own handlers, and the privacy part they
 * share (src/privacy).
 */
export async function composeNotification(
  kit: ServiceKit<NotificationConfig>,
  options: NotificationOptions = {},
) {
  const { config, conn } = kit;
  const activityModels = registerActivityModels(conn);
  const mailModels = registerMailModels(conn);
  const messageModels = registerMessageModels(conn);
  await ensureIndexes(conn);

  const erased = new ErasedFamilies(new ErasedTargetsRepository(kit.store));
  const activity = await composeActivity(kit, { models: activityModels, erased });
  const mail = composeMail(kit, { models: mailModels, erased, mailer: options.mailer });
  const messages = composeMessages(kit, {
    models: messageModels,
    erased,
    activity: activity.activity,
    mail: mail.mail,
  });
  const privacy = new NotificationPrivacy({
    mails: mail.privacy,
    activity: activity.privacy,
    messages: messages.privacy,
    optOuts: messages.optOutRecords,
  });

  const app = createApp({
    ...kit.appDeps(),
    // SMTP and the message providers are reported but not required: what they send waits
    info: {
      ...kit.appDeps().info,
      smtp: () => mail.sender.smtpHealthy(),
      ...(messages.enabled.whatsapp
        ? { whatsapp: () => messages.sender.isReachable('whatsapp') }
        : {}),
      ...(messages.enabled.sms ? { sms: () => messages.sender.isReachable('sms') } : {}),
    },
    activity: activity.activity,
    impact: activity.impact,
    privacy,
    messages: messages.service,
    timeZone: config.TIMEZONE,
  });

  return {
    app,
    // one event, in this order: an erasure is remembered before the modules erase what they keep;
    // a family's mail is queued before the event's log entry is written
    handlers: combineHandlers(
      privacyHandlers(erased),
      mail.handlers,
      messages.handlers,
      activity.handlers,
    ),
    purgeOldMails: mail.purgeOldMails,
    /** the WhatsApp and SMS side (issue 30) */
    messages,
    sender: mail.sender,
    /** the failed mails and their resending (the admin command line) */
    mails: mail.mail,
    activity: activity.activity,
  };
}

export const notificationService = defineService({
  name: 'notification',
  loadConfig: loadNotificationConfig,
  compose: composeNotification,
});
