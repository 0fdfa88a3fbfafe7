// A Twilio-compatible SMS API subset, answering like Twilio's REST API:
// POST /2010-04-01/Accounts/{AccountSid}/Messages.json (form-encoded, Basic auth) → 201 and
// form-encoded status callbacks to the message's StatusCallback, signed with X-Twilio-Signature.
import { randomBytes } from 'node:crypto';
import type { WebhookRequest } from './callbacks';
import { e164, json, type Reply, type StandInContext } from './context';
import { twilioSignature } from './signatures';
import { timeKey, type StoredMessage } from './store';

const API_VERSION = '2010-04-01';

export function twilioError(status: number, code: number, message: string): Reply {
  return json(status, {
    code,
    message,
    more_info: `https://www.twilio.com/docs/errors/${code}`,
    status,
  });
}

function authorized(ctx: StandInContext, authorization: string | undefined): boolean {
  const m = /^Basic\s+(.+)$/i.exec(authorization ?? '');
  if (!m?.[1]) return false;
  const decoded = Buffer.from(m[1].trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return (
    colon > 0 &&
    decoded.slice(0, colon) === ctx.sms.accountSid &&
    decoded.slice(colon + 1) === ctx.sms.authToken
  );
}

const E164 = /^\+[1-9]\d{6,14}$/;
/** Alphanumeric sender id: up to 11 letters, digits and spaces, at least one letter. */
const SENDER_ID = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/;

/** Cyrillic → 'uk', otherwise 'de' (the platform writes in German or Ukrainian). */
export function guessLanguage(text: string): string {
  return /[\u0400-\u04FF]/.test(text) ? 'uk' : 'de';
}

function segments(body: string): number {
  // GSM-7 is approximated by ASCII; anything else is UCS-2 (70 / 67 per segment)
  const gsm = /^[\x20-\x7E\n\r]*$/.test(body);
  const single = gsm ? 160 : 70;
  const multi = gsm ? 153 : 67;
  const length = [...body].length;
  return length <= single ? 1 : Math.ceil(length / multi);
}

function rfc2822(d: Date): string {
  return d.toUTCString().replace('GMT', '+0000');
}

function resource(ctx: StandInContext, m: StoredMessage, body: string): object {
  const date = rfc2822(new Date(m.created_at));
  const status = m.status === 'accepted' ? 'queued' : m.status;
  return {
    account_sid: ctx.sms.accountSid,
    api_version: API_VERSION,
    body,
    date_created: date,
    date_sent: m.status === 'accepted' ? null : date,
    date_updated: rfc2822(new Date()),
    direction: 'outbound-api',
    error_code: m.errorCode,
    error_message: null,
    from: m.from,
    messaging_service_sid: null,
    num_media: '0',
    num_segments: String(segments(body)),
    price: null,
    price_unit: 'USD',
    sid: m.id,
    status,
    subresource_uris: {
      media: `/${API_VERSION}/Accounts/${ctx.sms.accountSid}/Messages/${m.id}/Media.json`,
    },
    to: m.to,
    uri: `/${API_VERSION}/Accounts/${ctx.sms.accountSid}/Messages/${m.id}.json`,
  };
}

/** parts: after /sms: ['2010-04-01', 'Accounts', sid, 'Messages.json' | 'Messages', '<sid>.json'] */
export function handleSms(
  ctx: StandInContext,
  method: string,
  parts: string[],
  authorization: string | undefined,
  rawBody: string,
): Reply {
  if (parts[0] !== API_VERSION || parts[1] !== 'Accounts' || !parts[2])
    return twilioError(404, 20404, 'The requested resource was not found');
  if (!authorized(ctx, authorization) || parts[2] !== ctx.sms.accountSid)
    return twilioError(401, 20003, 'Authenticate');
  if (parts.length === 4 && parts[3] === 'Messages.json') {
    if (method === 'POST') return sendSms(ctx, new URLSearchParams(rawBody));
    if (method === 'GET')
      return json(200, {
        messages: ctx.store.list((m) => m.channel === 'sms').map((m) => resource(ctx, m, m.text)),
      });
  }
  if (parts.length === 5 && parts[3] === 'Messages' && method === 'GET') {
    const sid = (parts[4] ?? '').replace(/\.json$/, '');
    const m = ctx.store.get(sid);
    if (!m || m.channel !== 'sms')
      return twilioError(404, 20404, `The requested resource /${parts.join('/')} was not found`);
    return json(200, resource(ctx, m, m.text));
  }
  return twilioError(405, 20004, 'Method not allowed');
}

function sendSms(ctx: StandInContext, form: URLSearchParams): Reply {
  const to = form.get('To')?.trim() ?? '';
  const from = form.get('From')?.trim() ?? '';
  const body = form.get('Body') ?? '';
  const statusCallback = form.get('StatusCallback')?.trim() || null;
  if (!to) return twilioError(400, 21604, "A 'To' phone number is required.");
  if (!E164.test(to)) return twilioError(400, 21211, "Invalid 'To' Phone Number");
  if (!from && !form.get('MessagingServiceSid'))
    return twilioError(400, 21603, "A 'From' phone number is required.");
  if (from && !E164.test(from) && !SENDER_ID.test(from))
    return twilioError(400, 21212, "Invalid 'From' Phone Number");
  if (!body.trim()) return twilioError(400, 21602, 'Message body is required.');
  if ([...body].length > 1600)
    return twilioError(
      400,
      21617,
      'The concatenated message body exceeds the 1600 character limit.',
    );
  if (statusCallback !== null) {
    try {
      const u = new URL(statusCallback);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
    } catch {
      return twilioError(400, 21609, 'Invalid StatusCallback URL');
    }
  }
  if (from) ctx.lastSmsFrom = from;
  const id = `SM${randomBytes(16).toString('hex')}`;
  const m: StoredMessage = {
    key: timeKey(),
    id,
    channel: 'sms',
    to: e164(to),
    language: guessLanguage(body),
    template: null,
    text: body,
    status: 'accepted',
    created_at: new Date().toISOString(),
    from: from || null,
    callbackData: null,
    statusCallback,
    errorCode: null,
  };
  ctx.store.add(m);
  const undeliverable = ctx.smsUndeliverable.has(m.to);
  const steps: Array<'sent' | 'delivered' | 'undelivered'> = undeliverable
    ? ['sent', 'undelivered']
    : ['sent', 'delivered'];
  ctx.statusChain(
    steps.map((status) => () => {
      const errorCode = status === 'undelivered' ? 30003 : null;
      ctx.store.update(id, { status, errorCode });
      return statusCallbackRequest(ctx, m, status, errorCode);
    }),
    'SMS status callback',
  );
  return json(201, resource(ctx, m, body));
}

/** A form POST signed as Twilio signs it (URL + sorted params). */
export function signedForm(
  ctx: StandInContext,
  url: string,
  params: Record<string, string>,
): WebhookRequest {
  return {
    url,
    body: new URLSearchParams(params).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
      'x-twilio-signature': twilioSignature(ctx.sms.authToken, url, params),
      'user-agent': 'TwilioProxy/1.1',
    },
  };
}

function statusCallbackRequest(
  ctx: StandInContext,
  m: StoredMessage,
  status: 'sent' | 'delivered' | 'undelivered',
  errorCode: number | null,
): WebhookRequest | null {
  if (!m.statusCallback) return null;
  const params: Record<string, string> = {
    AccountSid: ctx.sms.accountSid,
    ApiVersion: API_VERSION,
    From: m.from ?? '',
    MessageSid: m.id,
    MessageStatus: status,
    SmsSid: m.id,
    SmsStatus: status,
    To: m.to,
  };
  if (errorCode !== null) params.ErrorCode = String(errorCode);
  return signedForm(ctx, m.statusCallback, params);
}

/** An inbound SMS as Twilio posts it to the number's incoming URL (signed). */
export function inboundSms(
  ctx: StandInContext,
  url: string,
  from: string,
  text: string,
): WebhookRequest {
  const sid = `SM${randomBytes(16).toString('hex')}`;
  return signedForm(ctx, url, {
    AccountSid: ctx.sms.accountSid,
    ApiVersion: API_VERSION,
    Body: text,
    From: e164(from),
    MessageSid: sid,
    NumMedia: '0',
    NumSegments: '1',
    SmsMessageSid: sid,
    SmsSid: sid,
    SmsStatus: 'received',
    To: ctx.sms.number ?? ctx.lastSmsFrom ?? '+4930123456789',
  });
}
