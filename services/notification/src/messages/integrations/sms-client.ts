import {
  ProviderError,
  type MessageProvider,
  type OutgoingMessage,
  type ProviderFailure,
} from '../domain/message-types';
import { probeUrl, providerFetch } from './http';

export interface SmsOptions {
  /** https://api.twilio.com or a compatible API */
  apiUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
  /** where the provider posts the message's status (its signature covers this URL) */
  statusCallbackUrl: string;
  timeoutMs: number;
}

/** 429, 5xx and 20429 (too many requests): try again later; anything else is refused for good. */
export function classifySms(status: number, body: unknown): ProviderFailure {
  const code = (body as { code?: number } | null)?.code;
  if (status === 429 || status >= 500 || code === 20429) return 'temporary';
  return 'permanent';
}

/** SMS by a Twilio-compatible Messages API. */
export class SmsClient implements MessageProvider {
  readonly channel = 'sms' as const;

  constructor(private readonly opts: SmsOptions) {}

  async send(m: OutgoingMessage): Promise<{ providerId: string }> {
    const { apiUrl, accountSid, authToken } = this.opts;
    const form = new URLSearchParams({
      To: m.to,
      From: this.opts.from,
      Body: m.text,
      StatusCallback: this.opts.statusCallbackUrl,
    });
    const res = await providerFetch(
      `${apiUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: form.toString(),
      },
      this.opts.timeoutMs,
    );
    const answer = res.body as { sid?: string; code?: number; message?: string } | null;
    if (res.status >= 200 && res.status < 300 && typeof answer?.sid === 'string')
      return { providerId: answer.sid };
    throw new ProviderError(
      `SMS ${res.status}${answer?.code !== undefined ? ` code ${answer.code}` : ''}: ${String(answer?.message ?? 'no message sid').slice(0, 200)}`,
      res.status >= 200 && res.status < 300 ? 'temporary' : classifySms(res.status, res.body),
      answer?.code !== undefined ? String(answer.code) : null,
    );
  }

  probe(): Promise<void> {
    return probeUrl(this.opts.apiUrl, this.opts.timeoutMs);
  }
}
