// The stand-in's HTTP server: the provider endpoints under /whatsapp/{version}/… and /sms/…,
// the control API under /api/… and the page at /.
import http from 'node:http';
import { json, type Reply, type StandInContext } from './context';
import { renderPage } from './page';
import { publicView, type Channel, type StoredMessage } from './store';
import { handleSms } from './sms';
import { graphError, handleWhatsApp } from './whatsapp';

const MAX_BODY = 1024 * 1024;

export interface StandInControl {
  inbound(channel: Channel, from: string, text: string): Promise<number>;
  setBehaviour(b: { whatsappUnreachable?: string[]; smsUndeliverable?: string[] }): void;
  setDown(channel: Channel, down: boolean): void;
  setWebhookUrls(urls: { whatsapp?: string; sms?: string }): void;
  clear(): void;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new HttpError(413, 'request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req);
  try {
    const v: unknown = JSON.parse(raw);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // below
  }
  throw new HttpError(400, 'body must be a JSON object');
}

function isChannel(v: unknown): v is Channel {
  return v === 'whatsapp' || v === 'sms';
}

function numberList(v: unknown, name: string): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
    throw new HttpError(400, `${name} must be an array of phone numbers`);
  return v;
}

function send(res: http.ServerResponse, reply: Reply): void {
  res.writeHead(reply.status, {
    'content-type': reply.contentType,
    'content-length': Buffer.byteLength(reply.body),
  });
  res.end(reply.body);
}

function digits(v: string): string {
  return v.replace(/\D/g, '');
}

function filtered(ctx: StandInContext, url: URL): StoredMessage[] {
  const to = url.searchParams.get('to');
  const channel = url.searchParams.get('channel');
  if (channel !== null && !isChannel(channel))
    throw new HttpError(400, 'channel must be whatsapp or sms');
  // '+' in a query string reads as a space: compare digits only
  const toDigits = to === null ? null : digits(to);
  return ctx.store.list(
    (m) =>
      (channel === null || m.channel === channel) &&
      (toDigits === null || digits(m.to) === toDigits),
  );
}

async function route(
  ctx: StandInContext,
  control: StandInControl,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = req.method ?? 'GET';
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const p = parts.join('/');
  const authorization = req.headers.authorization;

  if (parts[0] === 'whatsapp' || parts[0] === 'sms') {
    const channel = parts[0];
    if (ctx.down.has(channel)) {
      req.socket.destroy();
      return;
    }
    const raw = await readBody(req);
    if (channel === 'whatsapp') {
      if (!/^v\d+\.\d+$/.test(parts[1] ?? ''))
        return send(
          res,
          graphError(400, 2500, 'Unknown path components: /' + parts.slice(1).join('/')),
        );
      return send(res, handleWhatsApp(ctx, method, parts.slice(2), authorization, raw));
    }
    return send(res, handleSms(ctx, method, parts.slice(1), authorization, raw));
  }
  if ((p === 'livez' || p === 'readyz') && (method === 'GET' || method === 'HEAD'))
    return send(res, { status: 200, contentType: 'text/plain; charset=utf-8', body: 'ok' });
  if (p === 'api/messages' && method === 'GET')
    return send(res, json(200, { messages: filtered(ctx, url).map(publicView) }));
  if (p === 'api/messages' && method === 'DELETE') {
    control.clear();
    return send(res, json(200, { deleted: true }));
  }
  if (p === 'api/templates' && method === 'GET')
    return send(res, json(200, { templates: ctx.store.listTemplates() }));
  if (p === 'api/inbound' && method === 'POST') {
    const body = await readJson(req);
    if (!isChannel(body.channel)) throw new HttpError(400, 'channel must be whatsapp or sms');
    if (typeof body.from !== 'string' || !/^\+?\d{7,15}$/.test(body.from))
      throw new HttpError(400, 'from must be a phone number in E.164');
    if (typeof body.text !== 'string' || !body.text)
      throw new HttpError(400, 'text must be a non-empty string');
    let status: number;
    try {
      status = await control.inbound(body.channel, body.from, body.text);
    } catch (err) {
      throw new HttpError(502, err instanceof Error ? err.message : String(err));
    }
    return send(res, json(200, { status }));
  }
  if (p === 'api/behaviour' && method === 'PUT') {
    const body = await readJson(req);
    const b = {
      whatsappUnreachable: numberList(body.whatsapp_unreachable, 'whatsapp_unreachable'),
      smsUndeliverable: numberList(body.sms_undeliverable, 'sms_undeliverable'),
    };
    control.setBehaviour(b);
    return send(
      res,
      json(200, {
        whatsapp_unreachable: [...ctx.whatsappUnreachable],
        sms_undeliverable: [...ctx.smsUndeliverable],
      }),
    );
  }
  if (p === 'api/webhooks' && method === 'PUT') {
    const body = await readJson(req);
    const urls: { whatsapp?: string; sms?: string } = {};
    for (const key of ['whatsapp', 'sms'] as const) {
      const v = body[key];
      if (v === undefined) continue;
      if (typeof v !== 'string' || !/^https?:\/\/\S+$/.test(v))
        throw new HttpError(400, `${key} must be an http(s) URL`);
      urls[key] = v;
    }
    control.setWebhookUrls(urls);
    return send(
      res,
      json(200, { whatsapp: ctx.whatsapp.webhookUrl ?? null, sms: ctx.sms.inboundUrl ?? null }),
    );
  }
  if (p === 'api/down' && method === 'PUT') {
    const body = await readJson(req);
    if (!isChannel(body.channel)) throw new HttpError(400, 'channel must be whatsapp or sms');
    if (typeof body.down !== 'boolean') throw new HttpError(400, 'down must be true or false');
    control.setDown(body.channel, body.down);
    return send(res, json(200, { channel: body.channel, down: body.down }));
  }
  if (p === '' && method === 'GET')
    return send(res, {
      status: 200,
      contentType: 'text/html; charset=utf-8',
      body: renderPage(ctx.store.list(), ctx.down),
    });
  if (p === 'delete-all' && method === 'POST') {
    control.clear();
    res.writeHead(303, { location: '/' });
    res.end();
    return;
  }
  throw new HttpError(404, 'not found');
}

export function createStandInHttpServer(ctx: StandInContext, control: StandInControl): http.Server {
  return http.createServer((req, res) => {
    route(ctx, control, req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      const message = err instanceof Error ? err.message : String(err);
      if (res.headersSent || res.destroyed) res.destroy();
      else send(res, json(status, { error: message }));
    });
  });
}
