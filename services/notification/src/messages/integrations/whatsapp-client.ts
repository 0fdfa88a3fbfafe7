import type { Logger } from '@furniture/platform/domain';
import {
  ProviderError,
  type MessageProvider,
  type OutgoingMessage,
  type ProviderFailure,
} from '../domain/message-types';
import {
  MessageKinds,
  MessageTemplates,
  ParamExamples,
  templateBody,
  templateName,
} from '../domain/message-templates';
import { probeUrl, providerFetch } from './http';

export interface WhatsAppOptions {
  /** the Graph API's base including its version: https://graph.facebook.com/v21.0 */
  apiUrl: string;
  token: string;
  phoneNumberId: string;
  timeoutMs: number;
}

/** Error codes the Cloud API gives for "not now" (rate limits, its own trouble). */
const TEMPORARY_CODES = new Set([4, 80007, 130429, 131000, 131016, 131048, 131056, 133004]);

interface GraphError {
  error?: { message?: string; code?: number; error_subcode?: number; type?: string };
}

/** 429, 5xx and the rate-limit codes: try again later; anything else is refused for good. */
export function classifyWhatsApp(status: number, body: unknown): ProviderFailure {
  const code = (body as GraphError | null)?.error?.code;
  if (status === 429 || status >= 500) return 'temporary';
  if (typeof code === 'number' && TEMPORARY_CODES.has(code)) return 'temporary';
  return 'permanent';
}

/** The WhatsApp Business Cloud API: template messages in the family's language. */
export class WhatsAppClient implements MessageProvider {
  readonly channel = 'whatsapp' as const;

  constructor(private readonly opts: WhatsAppOptions) {}

  private get headers() {
    return { authorization: `Bearer ${this.opts.token}`, 'content-type': 'application/json' };
  }

  async send(m: OutgoingMessage): Promise<{ providerId: string }> {
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: m.to.replace(/\D/g, ''),
      type: 'template',
      template: {
        name: m.template,
        language: { code: m.language },
        components: [
          { type: 'body', parameters: m.params.map((text) => ({ type: 'text', text })) },
        ],
      },
      biz_opaque_callback_data: String(m.id),
    };
    const res = await providerFetch(
      `${this.opts.apiUrl}/${encodeURIComponent(this.opts.phoneNumberId)}/messages`,
      { method: 'POST', headers: this.headers, body: JSON.stringify(body) },
      this.opts.timeoutMs,
    );
    const answer = res.body as { messages?: { id?: string }[] } & GraphError;
    const id = answer?.messages?.[0]?.id;
    if (res.status >= 200 && res.status < 300 && typeof id === 'string') return { providerId: id };
    const code = answer?.error?.code;
    throw new ProviderError(
      `WhatsApp ${res.status}${code !== undefined ? ` code ${code}` : ''}: ${String(answer?.error?.message ?? 'no message id').slice(0, 200)}`,
      res.status >= 200 && res.status < 300 ? 'temporary' : classifyWhatsApp(res.status, res.body),
      code !== undefined ? String(code) : null,
    );
  }

  probe(): Promise<void> {
    return probeUrl(this.opts.apiUrl, this.opts.timeoutMs);
  }

  /**
   * Submits every template (kind × language) the business account does not have yet (category
   * UTILITY, with example values); best effort: answers what it did, throws when the API cannot
   * be read at all.
   */
  async syncTemplates(
    businessAccountId: string,
    siteName: string,
    logger: Logger,
  ): Promise<{ existing: number; created: number; failed: number }> {
    const base = `${this.opts.apiUrl}/${encodeURIComponent(businessAccountId)}/message_templates`;
    const have = new Set<string>();
    let next: string | null = `${base}?limit=200&fields=name,language,status`;
    for (let page = 0; next && page < 20; page++) {
      const res = await providerFetch(
        next,
        { method: 'GET', headers: this.headers },
        this.opts.timeoutMs,
      );
      if (res.status !== 200) throw new Error(`listing templates answered ${res.status}`);
      const answer = res.body as {
        data?: { name?: string; language?: string }[];
        paging?: { next?: string };
      };
      for (const t of answer?.data ?? []) have.add(`${t.name}:${t.language}`);
      next = typeof answer?.paging?.next === 'string' ? answer.paging.next : null;
    }
    let created = 0;
    let failed = 0;
    for (const kind of MessageKinds) {
      for (const lang of ['de', 'uk'] as const) {
        const name = templateName(kind);
        if (have.has(`${name}:${lang}`)) continue;
        const res = await providerFetch(
          base,
          {
            method: 'POST',
            headers: this.headers,
            body: JSON.stringify({
              name,
              language: lang,
              category: 'UTILITY',
              components: [
                {
                  type: 'BODY',
                  text: templateBody(kind, lang, siteName),
                  example: {
                    body_text: [MessageTemplates[kind].params.map((p) => ParamExamples[p])],
                  },
                },
              ],
            }),
          },
          this.opts.timeoutMs,
        ).catch((err: Error) => ({ status: 0, body: err.message }));
        if (res.status >= 200 && res.status < 300) created++;
        else {
          failed++;
          logger.warn(
            { template: name, language: lang, status: res.status },
            'template not submitted',
          );
        }
      }
    }
    return { existing: have.size, created, failed };
  }
}
