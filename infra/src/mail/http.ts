// HTTP side of the mail catcher: a Mailpit-compatible JSON API subset plus a small HTML page.
import http from 'node:http';
import { matcher } from './search';
import { detail, summarize, type MailStore, type StoredMessage } from './store';
import { renderList, renderMessage } from './pages';

const MAX_BODY = 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const data = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(data),
  });
  res.end(data);
}

function sendText(
  res: http.ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
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

function intParam(url: URL, name: string, fallback: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new HttpError(400, `${name} must be a non-negative integer`);
  return n;
}

/** Mailpit's list/search response. */
function page(url: URL, all: StoredMessage[], total: number): object {
  const start = intParam(url, 'start', 0);
  const limit = intParam(url, 'limit', 50);
  const messages = all.slice(start, limit === 0 ? undefined : start + limit).map(summarize);
  return {
    total,
    unread: all.filter((m) => !m.Read).length,
    count: messages.length,
    messages_count: all.length,
    messages_unread: all.filter((m) => !m.Read).length,
    start,
    tags: [],
    messages,
  };
}

function findMessage(store: MailStore, id: string): StoredMessage {
  const m = store.get(id);
  if (!m) throw new HttpError(404, 'message not found');
  return m;
}

async function route(
  store: MailStore,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = req.method ?? 'GET';
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const p = parts.join('/');

  if ((p === 'livez' || p === 'readyz') && (method === 'GET' || method === 'HEAD')) {
    return sendText(res, 200, 'text/plain; charset=utf-8', 'ok');
  }
  if (p === 'api/v1/messages' && method === 'GET')
    return sendJson(res, 200, page(url, store.list(), store.size));
  if (p === 'api/v1/messages' && method === 'DELETE') {
    const body = (await readBody(req)).trim();
    let ids: string[] | undefined;
    if (body) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new HttpError(400, 'body must be JSON: {"IDs": ["..."]}');
      }
      const raw = (parsed as { IDs?: unknown }).IDs;
      if (raw !== undefined && !(Array.isArray(raw) && raw.every((x) => typeof x === 'string'))) {
        throw new HttpError(400, 'IDs must be an array of strings');
      }
      ids = raw && raw.length > 0 ? raw : undefined;
    }
    store.delete(ids);
    return sendText(res, 200, 'text/plain; charset=utf-8', 'ok');
  }
  if (p === 'api/v1/search' && method === 'GET') {
    const matches = store.list(matcher(url.searchParams.get('query') ?? ''));
    return sendJson(res, 200, page(url, matches, store.size));
  }
  if (p === 'api/v1/search' && method === 'DELETE') {
    const query = url.searchParams.get('query') ?? '';
    if (!query.trim()) throw new HttpError(400, 'query is required');
    store.delete(store.list(matcher(query)).map((m) => m.ID));
    return sendText(res, 200, 'text/plain; charset=utf-8', 'ok');
  }
  if (
    parts[0] === 'api' &&
    parts[1] === 'v1' &&
    parts[2] === 'message' &&
    parts[3] &&
    method === 'GET'
  ) {
    const m = findMessage(store, parts[3]);
    if (parts.length === 4) {
      m.Read = true;
      return sendJson(res, 200, detail(m));
    }
    if (parts.length === 5 && parts[4] === 'headers') return sendJson(res, 200, m.Headers);
    if (parts.length === 5 && parts[4] === 'raw') {
      const raw = store.raw(m.ID);
      if (!raw) throw new HttpError(404, 'raw message not available');
      return sendText(res, 200, 'text/plain; charset=utf-8', raw);
    }
  }
  if (p === '' && method === 'GET')
    return sendText(res, 200, 'text/html; charset=utf-8', renderList(store.list()));
  if (parts[0] === 'view' && parts.length === 2 && parts[1] && method === 'GET') {
    const m = findMessage(store, parts[1]);
    m.Read = true;
    return sendText(res, 200, 'text/html; charset=utf-8', renderMessage(m));
  }
  if (p === 'delete-all' && method === 'POST') {
    store.delete();
    res.writeHead(303, { location: '/' });
    res.end();
    return;
  }
  throw new HttpError(404, 'not found');
}

export function createMailHttpServer(store: MailStore): http.Server {
  return http.createServer((req, res) => {
    route(store, req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      const message = err instanceof Error ? err.message : String(err);
      if (res.headersSent) res.destroy();
      else sendJson(res, status, { error: message });
    });
  });
}
