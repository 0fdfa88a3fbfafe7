import { gzipSync } from 'node:zlib';
import express from 'express';
import { listen, signTestToken } from '@furniture/platform/testing';
import { startTestGateway } from './harness';

/**
 * A stand-in catalog: its public lists say a shared cache may keep them for a second (as the
 * real catalog does for anonymous callers); counts what reaches it.
 */
async function catalog() {
  const hits: string[] = [];
  let version = 1;
  const app = express();
  app.get('/ready', (_req, res) => res.json({ status: 'ready', checks: { mongo: true } }));
  app.use((req, res, next) => {
    hits.push(`${req.method} ${req.originalUrl}`);
    next();
  });
  app.get('/api/v1/categories/', (req, res) => {
    const body = Buffer.from(JSON.stringify({ success: true, data: [{ id: 1, version }] }));
    res.setHeader('cache-control', 'public, max-age=0, s-maxage=1');
    res.setHeader('etag', `W/"v${version}"`);
    res.setHeader('x-total-count', '625');
    res.vary('Accept-Encoding');
    res.type('application/json');
    if (req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      res.setHeader('content-encoding', 'gzip');
      res.send(gzipSync(body));
    } else res.send(body);
  });
  app.get('/api/v1/lots/slow', (_req, res) => {
    setTimeout(() => {
      res.setHeader('cache-control', 'public, max-age=0, s-maxage=1');
      res.json({ version });
    }, 300);
  });
  app.get('/api/v1/lots/private', (_req, res) => {
    res.setHeader('cache-control', 'private, max-age=60');
    res.json({ version });
  });
  app.get('/api/v1/lots/cookie', (_req, res) => {
    res.setHeader('cache-control', 'public, s-maxage=1');
    res.setHeader('set-cookie', 'x=1');
    res.json({ version });
  });
  app.get('/api/v1/lots/missing', (_req, res) => {
    res.setHeader('cache-control', 'public, s-maxage=1');
    res.status(404).json({ version });
  });
  app.post('/api/v1/lots/', (_req, res) => {
    version += 1;
    res.status(201).json({ version });
  });
  app.post('/api/v1/activity-logs/', (_req, res) => {
    res.status(201).json({ logged: true });
  });
  const server = await listen(app);
  return { ...server, hits };
}

/** long enough for a few calls on a busy machine */
const KEEP_MS = 1500;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const countOf = (hits: string[], line: string) => hits.filter((h) => h === line).length;

describe('the gateway keeps shareable public answers for a moment', () => {
  let service: Awaited<ReturnType<typeof catalog>>;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  beforeAll(async () => {
    service = await catalog();
    gateway = await startTestGateway(
      { CATALOG_URL: service.url, NOTIFICATION_URL: service.url },
      { PUBLIC_CACHE_MAX_MS: String(KEEP_MS) },
    );
  });
  afterAll(async () => {
    await gateway.close();
    await service.close();
  });
  beforeEach(() => {
    service.hits.length = 0;
  });

  test('when a shareable list is asked again within its time, then the gateway answers it itself, per encoding, with its ETag, its other headers and the security headers', async () => {
    const plain = await fetch(`${gateway.url}/api/v1/categories/`, {
      headers: { 'accept-encoding': 'identity' },
    });
    const plainBody = await plain.text();
    const again = await fetch(`${gateway.url}/api/v1/categories/`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(await again.text()).toBe(plainBody);
    expect(again.headers.get('etag')).toBe(plain.headers.get('etag'));
    expect(again.headers.get('x-total-count')).toBe('625');
    expect(again.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(again.headers.get('x-request-id')).toBeTruthy();
    expect(again.headers.get('x-request-id')).not.toBe(plain.headers.get('x-request-id'));
    // fetch decodes gzip: the gzip variant is kept apart and decodes to the same JSON
    const zipped = await fetch(`${gateway.url}/api/v1/categories/`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    await fetch(`${gateway.url}/api/v1/categories/`, { headers: { 'accept-encoding': 'gzip' } });
    expect(await zipped.text()).toBe(plainBody);
    expect(countOf(service.hits, 'GET /api/v1/categories/')).toBe(2);

    const notModified = await fetch(`${gateway.url}/api/v1/categories/`, {
      headers: { 'accept-encoding': 'identity', 'if-none-match': plain.headers.get('etag')! },
    });
    expect(notModified.status).toBe(304);
    expect(countOf(service.hits, 'GET /api/v1/categories/')).toBe(2);
  });

  test('when the time is over, then the service is asked again', async () => {
    await pause(KEEP_MS + 100); // whatever an earlier test left has expired
    await fetch(`${gateway.url}/api/v1/categories/`);
    await fetch(`${gateway.url}/api/v1/categories/`);
    expect(countOf(service.hits, 'GET /api/v1/categories/')).toBe(1);
    await pause(KEEP_MS + 100);
    await fetch(`${gateway.url}/api/v1/categories/`);
    expect(countOf(service.hits, 'GET /api/v1/categories/')).toBe(2);
  });

  test('when anything is written through the gateway, then the next read reaches the service and shows the change', async () => {
    const first = (await (await fetch(`${gateway.url}/api/v1/categories/`)).json()) as {
      data: { version: number }[];
    };
    const token = signTestToken({ id: 1, role: 'admin' });
    const created = await fetch(`${gateway.url}/api/v1/lots/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(created.status).toBe(201);
    const next = (await (await fetch(`${gateway.url}/api/v1/categories/`)).json()) as {
      data: { version: number }[];
    };
    expect(next.data[0]!.version).toBe(first.data[0]!.version + 1);
  });

  test('when many ask for the same answer at once, then one request reaches the service and the others get its answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        fetch(`${gateway.url}/api/v1/lots/slow`).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as { version: number },
        })),
      ),
    );
    expect(answers.every((a) => a.status === 200 && a.body.version >= 1)).toBe(true);
    expect(countOf(service.hits, 'GET /api/v1/lots/slow')).toBe(1);
  });

  test('when a write cannot change a public answer (a log entry, a login), then what is kept stays', async () => {
    await pause(KEEP_MS + 100);
    await fetch(`${gateway.url}/api/v1/categories/`);
    const token = signTestToken({ id: 1, role: 'admin' });
    const logged = await fetch(`${gateway.url}/api/v1/activity-logs/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(logged.status).toBe(201);
    await fetch(`${gateway.url}/api/v1/categories/`);
    expect(countOf(service.hits, 'GET /api/v1/categories/')).toBe(1);
  });

  test('when staff ask, or the answer is private, sets a cookie or is not a 200, then nothing is kept', async () => {
    const token = signTestToken({ id: 1, role: 'admin' });
    for (let i = 0; i < 2; i++) {
      await fetch(`${gateway.url}/api/v1/categories/`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await fetch(`${gateway.url}/api/v1/lots/private`);
      await fetch(`${gateway.url}/api/v1/lots/cookie`);
      await fetch(`${gateway.url}/api/v1/lots/missing`);
    }
    expect(countOf(service.hits, 'GET /api/v1/categories/')).toBe(2);
    expect(countOf(service.hits, 'GET /api/v1/lots/private')).toBe(2);
    expect(countOf(service.hits, 'GET /api/v1/lots/cookie')).toBe(2);
    expect(countOf(service.hits, 'GET /api/v1/lots/missing')).toBe(2);
  });
});

describe('with PUBLIC_CACHE_MAX_MS=0', () => {
  test('then every read reaches the service', async () => {
    const service = await catalog();
    const gateway = await startTestGateway(
      { CATALOG_URL: service.url },
      { PUBLIC_CACHE_MAX_MS: '0' },
    );
    try {
      await fetch(`${gateway.url}/api/v1/categories/`);
      await fetch(`${gateway.url}/api/v1/categories/`);
      expect(countOf(service.hits, 'GET /api/v1/categories/')).toBe(2);
    } finally {
      await gateway.close();
      await service.close();
    }
  });
});

describe('while the gateway hears the platform’s events', () => {
  /** a feed the test drives: live or not, and an event that drops what is kept */
  function manualFeed() {
    const drops: (() => void)[] = [];
    let live = true;
    return {
      feed: { live: () => live, subscribe: (drop: () => void) => void drops.push(drop) },
      event: () => drops.forEach((drop) => drop()),
      setLive: (value: boolean) => (live = value),
    };
  }

  test('when no event says the answer changed, then it is kept past PUBLIC_CACHE_MAX_MS; an event drops it at once', async () => {
    const service = await catalog();
    const events = manualFeed();
    const gateway = await startTestGateway(
      { CATALOG_URL: service.url },
      { PUBLIC_CACHE_MAX_MS: '200', PUBLIC_CACHE_LIVE_MAX_MS: '30000' },
      undefined,
      { cacheFeed: events.feed },
    );
    try {
      await fetch(`${gateway.url}/api/v1/categories/`);
      await pause(600);
      await fetch(`${gateway.url}/api/v1/categories/`);
      expect(countOf(service.hits, 'GET /api/v1/categories/')).toBe(1);
      events.event(); // e.g. lot.updated, handled by the cache feed
      await fetch(`${gateway.url}/api/v1/categories/`);
      expect(countOf(service.hits, 'GET /api/v1/categories/')).toBe(2);
      // without the feed the second's rule holds again
      events.setLive(false);
      events.event();
      await fetch(`${gateway.url}/api/v1/categories/`);
      await pause(600);
      await fetch(`${gateway.url}/api/v1/categories/`);
      expect(countOf(service.hits, 'GET /api/v1/categories/')).toBe(4);
    } finally {
      await gateway.close();
      await service.close();
    }
  });
});
