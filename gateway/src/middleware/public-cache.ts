import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';

/**
 * A short-lived shared cache of the public answers a service marks as shareable
 * (`Cache-Control: public, s-maxage=N`): the catalog's category list and lots of a
 * category. A hit is answered here, without the hop to the service (the proxy's own work was
 * more than half of a cached read's cost); a miss is proxied as always and its answer kept.
 *
 * Never kept: anything asked with an Authorization header (staff see archived lots), anything
 * but a 200 to a GET, an answer that sets a cookie or varies by more than Accept-Encoding, or
 * one larger than `maxEntryBytes`. Kept for the service's s-maxage, at most `maxMs`. Every
 * write that passes this gateway (any method but GET/HEAD/OPTIONS, to any service) drops
 * everything at once, and an answer asked for before a write is never stored; a change made
 * by an event (a lot reserved after an approval) or through another gateway replica is seen
 * after at most `maxMs`.
 */
export interface PublicCache {
  /** answers a hit (304 when the client holds the ETag); a miss goes on to the proxy */
  serve: RequestHandler;
  /** called with the service's answer of a proxied request: keeps it when it may */
  capture(proxyRes: IncomingMessage, req: Request): void;
}

interface Stored {
  headers: Record<string, string>;
  body: Buffer;
  storedAt: number;
}

/**
 * the answer headers that belong to one answer only (hop-by-hop, date, request id); every other
 * header the service sent (content type and encoding, ETag, Vary, a list's X-Total-Count) is kept
 */
const PER_ANSWER_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'date',
  'age',
  'x-request-id',
  'set-cookie',
  'proxy-connection',
  'trailer',
  'upgrade',
]);
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const KEY = Symbol('public-cache-key');

type Marked = Request & { [KEY]?: { key: string; generation: number } };

function sharedMaxAgeMs(cacheControl: string | undefined): number {
  if (!cacheControl || !/(^|,)\s*public\s*(,|$)/i.test(cacheControl)) return 0;
  if (/(^|,)\s*(no-store|no-cache|private)/i.test(cacheControl)) return 0;
  const m = /(^|,)\s*s-maxage=(\d+)/i.exec(cacheControl);
  return m ? Number(m[2]) * 1000 : 0;
}

/**
 * The messaging providers' status callbacks (issue 30; three per message) change no public
 * answer: they leave the cache as it is.
 */
const MESSAGE_CALLBACK = /^\/messages\/callbacks\//;

export function publicCache(opts: {
  maxMs: number;
  maxBytes: number;
  maxEntryBytes: number;
}): PublicCache {
  // each entry's size (its body and about its headers) is given where it is stored
  const entries = new LRUCache<string, Stored>({ maxSize: opts.maxBytes });
  let generation = 0;

  const serve: RequestHandler = (req, res, next) => {
    if (!READS.has(req.method) && !MESSAGE_CALLBACK.test(req.path)) {
      // a write through this gateway: whatever it changes is not served from here again
      generation++;
      entries.clear();
      return next();
    }
    if (opts.maxMs <= 0 || req.method !== 'GET' || req.headers.authorization) return next();
    // the services vary their shareable answers by Accept-Encoding only (gzip or not)
    const variant = req.acceptsEncodings('gzip', 'identity') === 'gzip' ? 'gzip' : 'identity';
    const key = `${variant} ${req.originalUrl}`;
    const hit = entries.get(key);
    if (!hit) {
      (req as Marked)[KEY] = { key, generation };
      return next();
    }
    res.setHeader('age', String(Math.floor((Date.now() - hit.storedAt) / 1000)));
    const etag = hit.headers.etag;
    if (etag && req.headers['if-none-match'] === etag) {
      res.setHeader('etag', etag);
      if (hit.headers['cache-control'])
        res.setHeader('cache-control', hit.headers['cache-control']);
      if (hit.headers.vary) res.setHeader('vary', hit.headers.vary);
      res.statusCode = 304;
      res.end();
      return;
    }
    res.writeHead(200, hit.headers);
    res.end(hit.body);
  };

  const capture = (proxyRes: IncomingMessage, req: Request): void => {
    const marked = (req as Marked)[KEY];
    if (!marked || proxyRes.statusCode !== 200) return;
    const h = proxyRes.headers;
    const ttl = Math.min(sharedMaxAgeMs(h['cache-control']), opts.maxMs);
    if (ttl <= 0 || h['set-cookie']) return;
    if (h.vary && !/^\s*accept-encoding\s*$/i.test(h.vary)) return;
    const length = Number(h['content-length'] ?? 0);
    if (length > opts.maxEntryBytes) return;
    const chunks: Buffer[] = [];
    let size = 0;
    proxyRes.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= opts.maxEntryBytes) chunks.push(chunk);
    });
    proxyRes.on('end', () => {
      if (size > opts.maxEntryBytes || marked.generation !== generation) return;
      if (!proxyRes.complete) return;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(h)) {
        if (typeof value === 'string' && !PER_ANSWER_HEADERS.has(name)) headers[name] = value;
      }
      const body = Buffer.concat(chunks, size);
      headers['content-length'] = String(body.length);
      entries.set(
        marked.key,
        { headers, body, storedAt: Date.now() },
        { ttl, size: body.length + 512 },
      );
    });
  };

  return { serve, capture };
}
