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
 * after at most `maxMs` — or, while this gateway hears the platform's events (`feed`), as soon as
 * the event arrives: every event that may change a public answer (a lot, its queue, a category)
 * drops them all, and meanwhile an answer may be kept for up to `liveMaxMs` (issue 48: a rush on
 * one popular lot then costs its services one request per half minute). When the feed is lost,
 * or comes back (events may have been missed), everything kept is dropped.
 */
export interface CacheFeed {
  /** the events reach this gateway now */
  live(): boolean;
  /** calls `drop` for every event that may change a public answer, and when the feed breaks */
  subscribe(drop: () => void): void;
}

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
const WAITED = Symbol('public-cache-waited');
/** how long a request waits for the same answer on its way, and how many may wait for one */
const WAIT_MS = 2000;
const MAX_WAITERS = 10_000;

type Marked = Request & { [KEY]?: { key: string; generation: number }; [WAITED]?: boolean };

function sharedMaxAgeMs(cacheControl: string | undefined): number {
  if (!cacheControl || !/(^|,)\s*public\s*(,|$)/i.test(cacheControl)) return 0;
  if (/(^|,)\s*(no-store|no-cache|private)/i.test(cacheControl)) return 0;
  const m = /(^|,)\s*s-maxage=(\d+)/i.exec(cacheControl);
  return m ? Number(m[2]) * 1000 : 0;
}

/**
 * Writes that may change a public answer: those to the catalog (lots, categories, donations),
 * the applications service (a lot's queue) and media (a lot's photos). A login, a log entry, a
 * provider's status callback (three per message) or anything else leaves the kept answers as
 * they are: under a rush, the staff's logins would otherwise drop them all every time.
 */
const CHANGES_PUBLIC_ANSWERS =
  /^\/(lots|categories|donations|applications|privacy|locations|slots|handovers)(\/|$)/;

export function publicCache(opts: {
  maxMs: number;
  /** how long an answer may be kept while the feed is live */
  liveMaxMs?: number;
  feed?: CacheFeed;
  maxBytes: number;
  maxEntryBytes: number;
}): PublicCache {
  // each entry's size (its body and about its headers) is given where it is stored
  const entries = new LRUCache<string, Stored>({ maxSize: opts.maxBytes });
  let generation = 0;
  /** per key whose answer is on its way from the service: the requests waiting for it */
  const pending = new Map<string, (() => void)[]>();
  /** keys whose last answer was not kept, and when: their requests go straight on for a while */
  const notKeptAt = new LRUCache<string, number>({ max: 10_000 });
  const dropAll = (): void => {
    generation++;
    entries.clear();
  };
  opts.feed?.subscribe(dropAll);
  /** a shareable answer's time here: its s-maxage (at most maxMs), or liveMaxMs while live */
  const keepMs = (sharedMs: number): number => {
    if (sharedMs <= 0 || opts.maxMs <= 0) return 0;
    const live = opts.feed?.live() ? (opts.liveMaxMs ?? 0) : 0;
    return Math.max(Math.min(sharedMs, opts.maxMs), live);
  };

  const serve: RequestHandler = (req, res, next) => {
    if (!READS.has(req.method)) {
      if (!CHANGES_PUBLIC_ANSWERS.test(req.path)) return next();
      // a write through this gateway: whatever it changes is not served from here again
      dropAll();
      return next();
    }
    if (opts.maxMs <= 0 || req.method !== 'GET' || req.headers.authorization) return next();
    // the services vary their shareable answers by Accept-Encoding only (gzip or not)
    const variant = req.acceptsEncodings('gzip', 'identity') === 'gzip' ? 'gzip' : 'identity';
    const key = `${variant} ${req.originalUrl}`;
    const hit = entries.get(key);
    if (!hit) {
      // a rush asks for the same few pages: while one request for this answer is on its way,
      // the others wait for it (a short while) instead of all going to the service
      const waiting = pending.get(key);
      const notKept = (notKeptAt.get(key) ?? 0) > Date.now() - WAIT_MS;
      if (waiting && !notKept && !(req as Marked)[WAITED] && waiting.length < MAX_WAITERS) {
        (req as Marked)[WAITED] = true;
        const timer = setTimeout(() => release(), WAIT_MS);
        const release = (): void => {
          clearTimeout(timer);
          const at = waiting.indexOf(release);
          if (at >= 0) waiting.splice(at, 1);
          // a visitor who gave up while waiting costs nothing more
          if (!res.destroyed) serve(req, res, next);
        };
        waiting.push(release);
        return;
      }
      (req as Marked)[KEY] = { key, generation };
      if (!waiting) {
        pending.set(key, []);
        res.once('close', () => {
          const waiters = pending.get(key) ?? [];
          pending.delete(key);
          // an answer that was not kept (not shareable, an error): others need not wait for it
          if (!entries.has(key)) notKeptAt.set(key, Date.now());
          for (const waiter of [...waiters]) waiter();
        });
      }
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
    const ttl = keepMs(sharedMaxAgeMs(h['cache-control']));
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
