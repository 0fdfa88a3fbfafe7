// Local stand-in for the WhatsApp Cloud API and a Twilio-compatible SMS API, for development
// (make run) and tests (jest global setup), like Mailpit for mail: it speaks the
// providers' HTTP APIs, answers like them, posts signed status callbacks back, captures the
// messages (GET /api/messages, a page at /) and can play a provider that is down, a number that
// is not on WhatsApp, an undeliverable SMS and a family answering STOP.
import type net from 'node:net';
import { type Log, noLog } from './util';
import { postOnce } from './messages/callbacks';
import { e164, StandInContext } from './messages/context';
import { createStandInHttpServer, type StandInControl } from './messages/http';
import { inboundSms } from './messages/sms';
import { MessageStore, publicView, type CapturedMessage, type Channel } from './messages/store';
import { inboundWebhook } from './messages/whatsapp';

export type { CapturedMessage } from './messages/store';
export { twilioSignature, whatsappSignature } from './messages/signatures';

export const WHATSAPP_API_VERSION = 'v21.0';

export interface MessagesStandInOptions {
  /** 0 or absent: a free port. */
  httpPort?: number;
  host?: string;
  /** Folder for captured messages and templates (JSON); without it they live in memory only. */
  dir?: string;
  whatsapp: {
    token: string;
    phoneNumberId: string;
    businessAccountId: string;
    appSecret: string;
    webhookUrl?: string;
  };
  sms: {
    accountSid: string;
    authToken: string;
    inboundUrl?: string;
    /** The platform's sender number, the To of inbound SMS (default: the last From sent). */
    number?: string;
  };
  /** delay between the status callbacks sent → delivered → read (default 300 ms) */
  callbackDelayMs?: number;
  /** Attempts per status callback when the receiver is unreachable or answers 5xx (default 6). */
  callbackAttempts?: number;
  log?: Log;
}

export interface MessagesStandIn {
  /** http://host:port */
  apiUrl: string;
  /** `${apiUrl}/whatsapp/v21.0` (what WHATSAPP_API_URL is set to) */
  whatsappApiUrl: string;
  /** `${apiUrl}/sms` (what SMS_API_URL is set to) */
  smsApiUrl: string;
  httpPort: number;
  setWebhookUrls(urls: { whatsapp?: string; sms?: string }): void;
  /** provider endpoints of that channel drop every connection while down; /api/* and the page stay up */
  setDown(channel: Channel, down: boolean): void;
  /** E.164 numbers: not on WhatsApp (accepted, then `failed` 131026) / SMS undeliverable (30003) */
  setBehaviour(b: { whatsappUnreachable?: string[]; smsUndeliverable?: string[] }): void;
  /** posts a signed inbound message from `from` (E.164) to the platform's webhook; resolves to its HTTP status */
  inbound(channel: Channel, from: string, text: string): Promise<number>;
  /** newest first */
  messages(): CapturedMessage[];
  clear(): void;
  stop(): Promise<void>;
}

function portOf(server: net.Server): number {
  const address = server.address();
  if (!address || typeof address === 'string')
    throw new Error('server is not listening on a TCP port');
  return address.port;
}

export async function startMessagesStandIn(opts: MessagesStandInOptions): Promise<MessagesStandIn> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? noLog;
  const ctx = new StandInContext(
    new MessageStore(opts.dir),
    { ...opts.whatsapp },
    { ...opts.sms },
    opts.callbackDelayMs ?? 300,
    opts.callbackAttempts ?? 6,
    log,
  );

  const control: StandInControl = {
    setWebhookUrls(urls) {
      if (urls.whatsapp !== undefined) ctx.whatsapp.webhookUrl = urls.whatsapp;
      if (urls.sms !== undefined) ctx.sms.inboundUrl = urls.sms;
    },
    setDown(channel, down) {
      if (down) ctx.down.add(channel);
      else ctx.down.delete(channel);
      log(`messages stand-in: ${channel} ${down ? 'down' : 'up'}`);
    },
    setBehaviour(b) {
      if (b.whatsappUnreachable) ctx.whatsappUnreachable = new Set(b.whatsappUnreachable.map(e164));
      if (b.smsUndeliverable) ctx.smsUndeliverable = new Set(b.smsUndeliverable.map(e164));
    },
    async inbound(channel, from, text) {
      const url = channel === 'whatsapp' ? ctx.whatsapp.webhookUrl : ctx.sms.inboundUrl;
      if (!url) throw new Error(`no ${channel} webhook URL configured`);
      const req =
        channel === 'whatsapp'
          ? inboundWebhook(ctx, url, from, text)
          : inboundSms(ctx, url, from, text);
      return postOnce(req, ctx.signal);
    },
    clear() {
      ctx.store.clear();
    },
  };

  const server = createStandInHttpServer(ctx, control);
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void =>
      reject(
        (err as NodeJS.ErrnoException).code === 'EADDRINUSE'
          ? new Error(`messages stand-in: port ${host}:${opts.httpPort ?? 0} is already in use`)
          : err,
      );
    server.once('error', onError);
    server.listen(opts.httpPort ?? 0, host, () => {
      server.removeListener('error', onError);
      resolve();
    });
  });
  const httpPort = portOf(server);
  const apiUrl = `http://${host}:${httpPort}`;

  return {
    apiUrl,
    whatsappApiUrl: `${apiUrl}/whatsapp/${WHATSAPP_API_VERSION}`,
    smsApiUrl: `${apiUrl}/sms`,
    httpPort,
    setWebhookUrls: control.setWebhookUrls,
    setDown: control.setDown,
    setBehaviour: control.setBehaviour,
    inbound: control.inbound,
    messages: () => ctx.store.list().map(publicView),
    clear: control.clear,
    async stop() {
      await ctx.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
