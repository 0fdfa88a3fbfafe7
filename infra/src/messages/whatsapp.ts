// The WhatsApp Cloud API subset the platform uses, answering like Meta's Graph API:
// POST /{phone-number-id}/messages (template and free text), GET/POST
// /{business-account-id}/message_templates; status webhooks signed with X-Hub-Signature-256.
import { randomBytes } from 'node:crypto';
import type { WebhookRequest } from './callbacks';
import { digitsOf, json, nowSeconds, type Reply, type StandInContext } from './context';
import { whatsappSignature } from './signatures';
import { timeKey, type StoredMessage, type StoredTemplate, type TemplateComponent } from './store';

const TEMPLATE_CATEGORIES = new Set(['UTILITY', 'MARKETING', 'AUTHENTICATION']);
const DAY_MS = 24 * 60 * 60 * 1000;

function fbtrace(): string {
  return randomBytes(9).toString('base64url');
}

export function graphError(
  status: number,
  code: number,
  message: string,
  extra: { type?: string; error_subcode?: number; error_user_msg?: string; details?: string } = {},
): Reply {
  const { details, ...rest } = extra;
  return json(status, {
    error: {
      message,
      type: rest.type ?? 'OAuthException',
      code,
      ...(rest.error_subcode !== undefined ? { error_subcode: rest.error_subcode } : {}),
      ...(rest.error_user_msg ? { error_user_msg: rest.error_user_msg } : {}),
      ...(details ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
      fbtrace_id: fbtrace(),
    },
  });
}

function invalidParameter(details: string): Reply {
  return graphError(400, 100, '(#100) Invalid parameter', { details });
}

function authorized(ctx: StandInContext, authorization: string | undefined): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
  return m?.[1]?.trim() === ctx.whatsapp.token;
}

function placeholders(text: string): number[] {
  return [...text.matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1]));
}

function bodyOf(t: StoredTemplate): TemplateComponent | undefined {
  return t.components.find((c) => String(c.type).toUpperCase() === 'BODY');
}

function parseJson(raw: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function handleWhatsApp(
  ctx: StandInContext,
  method: string,
  parts: string[],
  authorization: string | undefined,
  rawBody: string,
): Reply {
  // parts: [objectId, edge]
  if (!authorized(ctx, authorization))
    return graphError(401, 190, 'Invalid OAuth access token - Cannot parse access token');
  const [objectId, edge] = parts;
  if (parts.length !== 2 || !objectId || !edge)
    return graphError(400, 100, 'Unsupported request - method type: ' + method.toLowerCase(), {
      type: 'GraphMethodException',
      error_subcode: 33,
    });
  if (edge === 'messages' && objectId === ctx.whatsapp.phoneNumberId && method === 'POST')
    return sendMessage(ctx, rawBody);
  if (edge === 'message_templates' && objectId === ctx.whatsapp.businessAccountId) {
    if (method === 'GET') return json(200, listTemplates(ctx));
    if (method === 'POST') return createTemplate(ctx, rawBody);
  }
  return graphError(
    400,
    100,
    `Unsupported ${method.toLowerCase()} request. Object with ID '${objectId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    { type: 'GraphMethodException', error_subcode: 33 },
  );
}

function listTemplates(ctx: StandInContext): object {
  return {
    data: ctx.store.listTemplates().map((t) => ({
      name: t.name,
      language: t.language,
      status: t.status,
      category: t.category,
      components: t.components,
      id: t.id,
    })),
    paging: { cursors: { before: 'MAZDZD', after: 'MAZDZD' } },
  };
}

function createTemplate(ctx: StandInContext, rawBody: string): Reply {
  const body = parseJson(rawBody);
  if (!body) return invalidParameter('The request body must be a JSON object.');
  const { name, language, category, components } = body;
  if (typeof name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(name))
    return invalidParameter('name: lowercase letters, digits and underscores only.');
  if (typeof language !== 'string' || !/^[a-z]{2,3}(_[A-Z]{2})?$/.test(language))
    return invalidParameter('language: a language code such as de or uk.');
  if (typeof category !== 'string' || !TEMPLATE_CATEGORIES.has(category.toUpperCase()))
    return invalidParameter('category: UTILITY, MARKETING or AUTHENTICATION.');
  if (!Array.isArray(components) || components.length === 0)
    return invalidParameter('components: a non-empty array.');
  const list = components as TemplateComponent[];
  if (list.some((c) => !c || typeof c !== 'object' || typeof c.type !== 'string'))
    return invalidParameter('components: each needs a type.');
  const bodies = list.filter((c) => c.type.toUpperCase() === 'BODY');
  const body0 = bodies[0];
  if (bodies.length !== 1 || !body0 || typeof body0.text !== 'string' || !body0.text.trim())
    return invalidParameter('components: exactly one BODY with a text.');
  if (body0.text.length > 1024) return invalidParameter('BODY text: at most 1024 characters.');
  const numbers = placeholders(body0.text);
  const count = new Set(numbers).size;
  if (numbers.some((n) => n < 1 || n > count))
    return invalidParameter('BODY text: variables must be numbered {{1}}, {{2}}, … without gaps.');
  if (count > 0) {
    const example = (body0.example as { body_text?: unknown } | undefined)?.body_text;
    const first = Array.isArray(example) ? (example[0] as unknown) : undefined;
    if (!Array.isArray(first) || first.length !== count)
      return graphError(400, 100, 'Invalid parameter', {
        error_subcode: 2388043,
        error_user_msg: `Message template "components" param is missing expected field(s): example.body_text with ${count} value(s).`,
      });
  }
  if (ctx.store.findTemplate(name, language))
    return graphError(400, 100, 'Invalid parameter', {
      error_subcode: 2388024,
      error_user_msg: `Content in this language already exists: there is already ${language} content for this template.`,
    });
  const t: StoredTemplate = {
    id: String(1e15 + Math.floor(Math.random() * 9e15)),
    name,
    language,
    category: category.toUpperCase(),
    status: 'APPROVED',
    components: list,
  };
  ctx.store.addTemplate(t);
  ctx.log(`messages stand-in: template ${name} (${language}) approved`);
  return json(200, { id: t.id, status: t.status, category: t.category });
}

interface SendParameter {
  type?: unknown;
  text?: unknown;
}

function sendMessage(ctx: StandInContext, rawBody: string): Reply {
  const body = parseJson(rawBody);
  if (!body) return invalidParameter('The request body must be a JSON object.');
  if (body.messaging_product !== 'whatsapp')
    return invalidParameter('messaging_product must be "whatsapp".');
  if (typeof body.to !== 'string' || !/^\+?\d{7,15}$/.test(body.to.replace(/[\s-]/g, '')))
    return graphError(400, 131009, '(#131009) Parameter value is not valid', {
      details: 'to: a phone number in international format.',
    });
  const digits = digitsOf(body.to);
  const callbackData =
    typeof body.biz_opaque_callback_data === 'string' ? body.biz_opaque_callback_data : null;
  let text: string;
  let template: string | null = null;
  let language: string | null = null;
  let failure: { code: number; title: string } | null = null;

  if (body.type === 'template') {
    const t = body.template as
      { name?: unknown; language?: { code?: unknown }; components?: unknown } | undefined;
    if (!t || typeof t.name !== 'string' || typeof t.language?.code !== 'string')
      return invalidParameter('template: name and language.code are required.');
    const found = ctx.store.findTemplate(t.name, t.language.code);
    if (!found || found.status !== 'APPROVED')
      return graphError(404, 132001, '(#132001) Template name does not exist in the translation', {
        details: `template name (${t.name}) does not exist in ${t.language.code}`,
      });
    const components = Array.isArray(t.components)
      ? (t.components as Array<{ type?: unknown; parameters?: unknown }>)
      : [];
    const bodyComponent = components.find((c) => String(c?.type).toLowerCase() === 'body');
    const params = Array.isArray(bodyComponent?.parameters)
      ? (bodyComponent.parameters as SendParameter[])
      : [];
    if (params.some((p) => p?.type !== 'text' || typeof p.text !== 'string'))
      return invalidParameter('body parameters: each needs type "text" and a text.');
    const templateText = String(bodyOf(found)?.text ?? '');
    const expected = new Set(placeholders(templateText)).size;
    if (params.length !== expected)
      return graphError(
        400,
        132000,
        '(#132000) Number of parameters does not match the expected number of params',
        {
          details: `body: number of localizable_params (${params.length}) does not match the expected number of params (${expected})`,
        },
      );
    if (params.some((p) => !String(p.text).trim() || /[\n\t]| {5,}/.test(String(p.text))))
      return graphError(400, 131008, '(#131008) Required parameter is missing', {
        details:
          'Param text cannot have new-line/tab characters or more than 4 consecutive spaces, and cannot be empty.',
      });
    text = templateText.replace(/\{\{(\d+)\}\}/g, (_m, n: string) =>
      String(params[Number(n) - 1]?.text ?? ''),
    );
    template = found.name;
    language = found.language;
  } else if (body.type === 'text' || body.type === undefined) {
    const t = body.text as { body?: unknown } | undefined;
    if (!t || typeof t.body !== 'string' || !t.body.trim())
      return invalidParameter('text.body is required.');
    text = t.body;
    const last = ctx.lastInbound.get(digits);
    if (last === undefined || Date.now() - last > DAY_MS)
      failure = {
        code: 131047,
        title: 'Re-engagement message',
      };
  } else {
    return invalidParameter(`type ${String(body.type)} is not supported by the stand-in.`);
  }
  if (ctx.whatsappUnreachable.has(`+${digits}`))
    failure = { code: 131026, title: 'Message undeliverable' };

  const id = `wamid.${Buffer.from(`${digits}${randomBytes(12).toString('hex')}`).toString('base64')}`;
  const m: StoredMessage = {
    key: timeKey(),
    id,
    channel: 'whatsapp',
    to: `+${digits}`,
    language,
    template,
    text,
    status: 'accepted',
    created_at: new Date().toISOString(),
    from: ctx.whatsapp.phoneNumberId,
    callbackData,
    statusCallback: null,
    errorCode: null,
  };
  ctx.store.add(m);
  const steps: Array<'sent' | 'delivered' | 'read' | 'failed'> = failure
    ? ['failed']
    : ['sent', 'delivered', 'read'];
  ctx.statusChain(
    steps.map((status) => () => {
      ctx.store.update(id, {
        status,
        errorCode: status === 'failed' ? (failure?.code ?? null) : null,
      });
      return statusWebhook(ctx, m, status, status === 'failed' ? failure : null);
    }),
    `WhatsApp status callback`,
  );
  return json(200, {
    messaging_product: 'whatsapp',
    contacts: [{ input: body.to, wa_id: digits }],
    messages: [{ id, ...(template ? { message_status: 'accepted' } : {}) }],
  });
}

function envelope(ctx: StandInContext, value: Record<string, unknown>): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: ctx.whatsapp.businessAccountId,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: '4930123456789',
                phone_number_id: ctx.whatsapp.phoneNumberId,
              },
              ...value,
            },
            field: 'messages',
          },
        ],
      },
    ],
  });
}

function signed(ctx: StandInContext, url: string, body: string): WebhookRequest {
  return {
    url,
    body,
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': whatsappSignature(ctx.whatsapp.appSecret, body),
      'user-agent': 'facebookexternalua',
    },
  };
}

function statusWebhook(
  ctx: StandInContext,
  m: StoredMessage,
  status: 'sent' | 'delivered' | 'read' | 'failed',
  failure: { code: number; title: string } | null,
): WebhookRequest | null {
  const url = ctx.whatsapp.webhookUrl;
  if (!url) return null;
  const recipient = m.to.slice(1);
  const entry: Record<string, unknown> = {
    id: m.id,
    status,
    timestamp: nowSeconds(),
    recipient_id: recipient,
    ...(m.callbackData !== null ? { biz_opaque_callback_data: m.callbackData } : {}),
  };
  if (status === 'sent' || status === 'delivered')
    Object.assign(entry, {
      conversation: {
        id: randomBytes(16).toString('hex'),
        origin: { type: 'utility' },
      },
      pricing: { billable: true, pricing_model: 'CBP', category: 'utility' },
    });
  if (failure)
    entry.errors = [
      {
        code: failure.code,
        title: failure.title,
        message: failure.title,
        error_data: { details: failure.title },
      },
    ];
  return signed(ctx, url, envelope(ctx, { statuses: [entry] }));
}

/** An inbound text message from `from` as Meta posts it (signed). */
export function inboundWebhook(
  ctx: StandInContext,
  url: string,
  from: string,
  text: string,
): WebhookRequest {
  const digits = digitsOf(from);
  ctx.lastInbound.set(digits, Date.now());
  return signed(
    ctx,
    url,
    envelope(ctx, {
      contacts: [{ profile: { name: 'Stand-in' }, wa_id: digits }],
      messages: [
        {
          from: digits,
          id: `wamid.${Buffer.from(`${digits}${randomBytes(12).toString('hex')}`).toString('base64')}`,
          timestamp: nowSeconds(),
          type: 'text',
          text: { body: text },
        },
      ],
    }),
  );
}
