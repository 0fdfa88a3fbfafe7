import { createHmac, timingSafeEqual } from 'node:crypto';
import type {
  CallbackContent,
  CallbackReader,
  InboundMessage,
  StatusReport,
} from '../domain/message-types';

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Meta's X-Hub-Signature-256: "sha256=" + hex HMAC-SHA256 of the raw body with the app secret. */
export function hubSignature(appSecret: string, raw: Buffer): string {
  return `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}

export function verifyHubSignature(
  appSecret: string,
  raw: Buffer,
  header: string | undefined,
): boolean {
  if (!appSecret || !header) return false;
  return sameText(hubSignature(appSecret, raw), header.trim());
}

/**
 * Twilio's X-Twilio-Signature: base64 HMAC-SHA1 (auth token) of the full URL the request was
 * posted to followed by every form parameter's name and value, sorted by name.
 */
export function twilioSignature(
  authToken: string,
  url: string,
  params: Iterable<[string, string]>,
): string {
  const sorted = [...params].sort(([a, av], [b, bv]) =>
    a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0,
  );
  const data = url + sorted.map(([k, v]) => k + v).join('');
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

export function verifyTwilioSignature(
  authToken: string,
  url: string,
  params: Iterable<[string, string]>,
  header: string | undefined,
): boolean {
  if (!authToken || !header) return false;
  return sameText(twilioSignature(authToken, url, params), header.trim());
}

const e164 = (digits: string) => `+${digits.replace(/\D/g, '')}`;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The WhatsApp webhook (statuses and inbound messages), signed with the app secret. */
export function whatsappCallbacks(appSecret: string): CallbackReader {
  return {
    channel: 'whatsapp',
    verify: (raw, signature) => verifyHubSignature(appSecret, raw, signature),
    read(raw): CallbackContent | null {
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return null;
      }
      if (!isObj(body) || !Array.isArray(body.entry)) return null;
      const reports: StatusReport[] = [];
      const inbound: InboundMessage[] = [];
      for (const entry of arr(body.entry)) {
        if (!isObj(entry)) continue;
        for (const change of arr(entry.changes)) {
          if (!isObj(change) || !isObj(change.value)) continue;
          for (const s of arr(change.value.statuses)) {
            if (!isObj(s)) continue;
            const id = str(s.id);
            const status = str(s.status);
            if (!id || !status || !['sent', 'delivered', 'read', 'failed'].includes(status))
              continue;
            const err = arr(s.errors).find(isObj);
            const ours = Number(str(s.biz_opaque_callback_data));
            reports.push({
              channel: 'whatsapp',
              providerId: id.slice(0, 200),
              ...(Number.isSafeInteger(ours) && ours > 0 ? { messageId: ours } : {}),
              status: status as StatusReport['status'],
              error:
                status === 'failed'
                  ? `undelivered: ${String(err?.code ?? '')} ${String(err?.title ?? '')}`
                      .trim()
                      .slice(0, 200)
                  : null,
            });
          }
          for (const m of arr(change.value.messages)) {
            if (!isObj(m)) continue;
            const from = str(m.from);
            const text =
              (isObj(m.text) ? str(m.text.body) : null) ??
              (isObj(m.button) ? str(m.button.text) : null);
            if (from && /\d{6,}/.test(from) && text !== null)
              inbound.push({ channel: 'whatsapp', from: e164(from), text: text.slice(0, 200) });
          }
        }
      }
      return { reports, inbound };
    },
  };
}

const SMS_STATUS: Record<string, StatusReport['status']> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  undelivered: 'failed',
  failed: 'failed',
};

/**
 * Twilio's status callbacks and inbound SMS (form posts to one URL), signed with the auth token
 * over `url` (where the provider posts: MESSAGES_CALLBACK_BASE_URL + the callback's path).
 */
export function smsCallbacks(authToken: string, url: string): CallbackReader {
  const paramsOf = (raw: Buffer) => new URLSearchParams(raw.toString('utf8'));
  return {
    channel: 'sms',
    verify: (raw, signature) =>
      verifyTwilioSignature(authToken, url, paramsOf(raw).entries(), signature),
    read(raw): CallbackContent | null {
      const p = paramsOf(raw);
      const sid = p.get('MessageSid') ?? p.get('SmsSid');
      if (!sid) return null;
      const status = p.get('MessageStatus');
      if (status) {
        const mapped = SMS_STATUS[status];
        if (!mapped) return { reports: [], inbound: [] };
        const code = p.get('ErrorCode');
        return {
          reports: [
            {
              channel: 'sms',
              providerId: sid.slice(0, 200),
              status: mapped,
              error: mapped === 'failed' ? `undelivered: ${code ?? status}`.slice(0, 200) : null,
            },
          ],
          inbound: [],
        };
      }
      const from = p.get('From');
      const text = p.get('Body');
      if (!from || text === null || !/\d{6,}/.test(from)) return { reports: [], inbound: [] };
      return {
        reports: [],
        inbound: [{ channel: 'sms', from: e164(from), text: text.slice(0, 200) }],
      };
    },
  };
}
