import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { MESSAGE_CALLBACK_PATHS, type DomainEvent } from '@furniture/contracts';
import { startMessagesStandIn, type CapturedMessage, type MessagesStandIn } from '@furniture/infra';
import { eventually } from '@furniture/platform/testing';
import { startNotification, type NotificationUnderTest } from './harness';

/** A number no other test of this process uses (E.164, German mobile). */
export function freshNumber(): string {
  return `+49151${String(randomBytes(4).readUInt32BE() % 10_000_000).padStart(7, '0')}`;
}

/** The same event with the family's (or donor's) numbers, as the services send them now. */
export function withNumbers<E extends DomainEvent>(
  event: E,
  n: { phone?: string | null; whatsapp?: string | null },
): E {
  const p = event.payload as Record<string, unknown>;
  const numbers = { applicant_phone: n.phone ?? null, applicant_whatsapp: n.whatsapp ?? null };
  if ('donor_name' in p) return { ...event, payload: { ...p, donor_phone: n.phone ?? null } };
  if (p.family && typeof p.family === 'object')
    return { ...event, payload: { ...p, family: { ...(p.family as object), ...numbers } } };
  return { ...event, payload: { ...p, ...numbers } };
}

/**
 * The notification service wired to a stand-in of its own (both providers), its callbacks
 * reaching the service over a real port: the stand-in posts where the service told it to, and
 * signs for that URL.
 */
export async function startMessaging(env: Record<string, string> = {}) {
  const secret = () => randomBytes(8).toString('hex');
  const creds = {
    token: secret(),
    phoneNumberId: String(100000 + (randomBytes(3).readUIntBE(0, 3) % 900000)),
    businessAccountId: String(200000 + (randomBytes(3).readUIntBE(0, 3) % 800000)),
    appSecret: secret(),
    accountSid: `AC${randomBytes(16).toString('hex')}`,
    authToken: secret(),
    from: '+4930123456789',
  };
  const standIn: MessagesStandIn = await startMessagesStandIn({
    whatsapp: {
      token: creds.token,
      phoneNumberId: creds.phoneNumberId,
      businessAccountId: creds.businessAccountId,
      appSecret: creds.appSecret,
    },
    sms: { accountSid: creds.accountSid, authToken: creds.authToken, number: creds.from },
    callbackDelayMs: 50,
  });
  // the port first (the service's callback URL names it), the service's app behind it after
  const behind: { handler?: Parameters<typeof createServer>[1] } = {};
  const callbacks: Server = createServer((req, res) => {
    if (behind.handler) behind.handler(req, res);
    else {
      res.statusCode = 503;
      res.end();
    }
  });
  await new Promise<void>((r) => callbacks.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(callbacks.address() as AddressInfo).port}`;
  let svc: NotificationUnderTest;
  try {
    svc = await startNotification({
      WHATSAPP_API_URL: standIn.whatsappApiUrl,
      WHATSAPP_TOKEN: creds.token,
      WHATSAPP_PHONE_NUMBER_ID: creds.phoneNumberId,
      WHATSAPP_BUSINESS_ACCOUNT_ID: creds.businessAccountId,
      WHATSAPP_APP_SECRET: creds.appSecret,
      WHATSAPP_VERIFY_TOKEN: 'verify-me',
      SMS_API_URL: standIn.smsApiUrl,
      SMS_ACCOUNT_SID: creds.accountSid,
      SMS_AUTH_TOKEN: creds.authToken,
      SMS_FROM: creds.from,
      MESSAGES_CALLBACK_BASE_URL: base,
      MESSAGE_RETRY_BASE_MS: '200',
      MESSAGE_RETRY_MAX_MS: '2000',
      MESSAGE_PROBE_INTERVAL_MS: '300',
      MESSAGE_TIMEOUT_MS: '3000',
      MESSAGE_LEASE_MS: '10000',
      ...env,
    });
  } catch (err) {
    await standIn.stop();
    callbacks.close();
    throw err;
  }
  behind.handler = svc.service.app as unknown as Parameters<typeof createServer>[1];
  standIn.setWebhookUrls({
    whatsapp: `${base}${MESSAGE_CALLBACK_PATHS.whatsapp}`,
    sms: `${base}${MESSAGE_CALLBACK_PATHS.sms}`,
  });
  await svc.service.messages.ready();

  const recordsOf = (filter: Record<string, unknown>) =>
    svc.conn.collection('messages').find(filter).sort({ id: 1 }).toArray();

  return {
    svc,
    standIn,
    creds,
    callbackBase: base,
    recordsOf,
    /** the stand-in's captured messages to a number (newest first) */
    to: (number: string): CapturedMessage[] => standIn.messages().filter((m) => m.to === number),
    /** waits until `count` messages reached the number at the stand-in */
    async waitFor(number: string, count = 1, timeoutMs = 20000): Promise<CapturedMessage[]> {
      return eventually(
        () => {
          const found = standIn.messages().filter((m) => m.to === number);
          return found.length >= count ? found : undefined;
        },
        { timeoutMs, what: `${count} message(s) to ${number}` },
      );
    },
    /** waits until the event's message record satisfies `check` */
    async record(
      event: DomainEvent,
      check: (m: Record<string, unknown>) => boolean = () => true,
      // a message that fails over from WhatsApp to SMS waits for two providers' callbacks and
      // the retries between them: seconds alone, more beside the browser suites on two cores
      timeoutMs = 45000,
    ) {
      return eventually(
        async () => {
          const m = await svc.conn.collection('messages').findOne({ _id: event.eventId as never });
          return m && check(m) ? m : undefined;
        },
        { timeoutMs, what: `message of ${event.name}` },
      );
    },
    async stop() {
      await svc.stop();
      await standIn.stop();
      callbacks.closeAllConnections();
      await new Promise<void>((r) => callbacks.close(() => r()));
    },
  };
}
export type MessagingUnderTest = Awaited<ReturnType<typeof startMessaging>>;
