// The gateway under a rush (issue 48): the real, built gateway as its own process, in front of a
// slow stand-in service, its connection pool to the service far smaller than the crowd (as 512
// sockets are against 1,000 visitors), driven by clients that abort, send their bodies slowly or
// never finish them. Before issue 48 a request that waited for a pooled socket had its headers
// flushed before http-proxy's `proxyReq` event, where the gateway then set X-Forwarded-For:
// ERR_HTTP_HEADERS_SENT, uncaught, and the process was gone.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import express from 'express';
import {
  listen,
  signTestToken,
  testKeys,
  TEST_AUDIENCE,
  TEST_ISSUER,
} from '@furniture/platform/testing';

const GATEWAY = path.resolve(__dirname, '../dist/start.js');

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A service that reads every body whole and answers after `delayMs`. */
async function slowService(delayMs: number) {
  let seen = 0;
  const app = express();
  app.get('/ready', (_req, res) => res.json({ status: 'ready' }));
  app.use((req, res) => {
    req.resume();
    req.on('end', () => {
      seen++;
      setTimeout(() => {
        if (!res.destroyed) res.json({ ok: true, forwarded_for: req.headers['x-forwarded-for'] });
      }, delayMs);
    });
  });
  const server = await listen(app);
  return { ...server, seen: () => seen };
}

async function startGateway(serviceUrl: string, env: Record<string, string>) {
  const port = await freePort();
  const output: string[] = [];
  const child: ChildProcess = spawn(process.execPath, [GATEWAY], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_ENABLED: 'false',
      OTEL_SDK_DISABLED: 'true',
      AUTH_URL: serviceUrl,
      CATALOG_URL: serviceUrl,
      APPLICATIONS_URL: serviceUrl,
      MEDIA_URL: serviceUrl,
      NOTIFICATION_URL: serviceUrl,
      JWT_PUBLIC_KEY: testKeys().publicKey,
      JWT_ISSUER: TEST_ISSUER,
      JWT_AUDIENCE: TEST_AUDIENCE,
      // no broker needed: the kept answers live a second at most
      PUBLIC_CACHE_LIVE_MAX_MS: '0',
      RATE_LIMIT_PUBLIC_WRITES: '100000',
      // the clients are not a trusted proxy: what they write in X-Forwarded-For is not believed
      TRUST_PROXY: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`gateway exited at start: ${output.join('')}`);
    const up = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 200) throw new Error('gateway did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, port, child, output };
}

/** A raw client: sends `head` and part of a body, then aborts or stops sending. */
function rudeClient(
  port: number,
  mode: 'abort-mid-body' | 'stall' | 'abort-after-headers' | 'complete',
): Promise<void> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ note: 'x'.repeat(2000) });
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /api/v1/wishes/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Forwarded-For: 6.6.6.6\r\n\r\n`,
      );
      if (mode === 'abort-after-headers') setTimeout(() => socket.destroy(), 5);
      else if (mode === 'abort-mid-body') {
        socket.write(body.slice(0, 500));
        setTimeout(() => socket.destroy(), 20);
      } else if (mode === 'stall') {
        socket.write(body.slice(0, 500));
        setTimeout(() => socket.destroy(), 1500);
      } else socket.write(body);
    });
    socket.on('data', () => undefined);
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
    setTimeout(() => {
      socket.destroy();
      resolve();
    }, 5000);
  });
}

describe('the gateway under a rush', () => {
  let service: Awaited<ReturnType<typeof slowService>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;

  beforeAll(async () => {
    service = await slowService(150);
    gateway = await startGateway(service.url, {
      // a pool far smaller than the crowd, as 512 sockets are against 1,000 visitors
      UPSTREAM_MAX_SOCKETS: '4',
      MAX_CONCURRENT_REQUESTS: '200',
      MAX_REQUEST_WAIT_MS: '20000',
    });
  });

  afterAll(async () => {
    gateway?.child.kill('SIGKILL');
    await service?.close();
  });

  test('when many clients wait for the pool and abort, stall or finish, then the gateway stays up and answers', async () => {
    const modes = ['complete', 'abort-mid-body', 'stall', 'abort-after-headers'] as const;
    const rude = Array.from({ length: 120 }, (_, i) => rudeClient(gateway.port, modes[i % 4]!));
    // polite ones with bodies too, queued behind the pool like the rest
    const polite = Array.from({ length: 40 }, () =>
      fetch(`${gateway.url}/api/v1/wishes/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '6.6.6.6' },
        body: JSON.stringify({ note: 'a wish' }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as object })),
    );
    const answers = await Promise.all(polite);
    await Promise.all(rude);

    expect(gateway.child.exitCode).toBeNull();
    expect(gateway.output.join('')).not.toMatch(/ERR_HTTP_HEADERS_SENT/);
    // every polite client got its answer, and the service saw the gateway's address, not the
    // chain the client wrote
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(answers[0]!.body).toEqual({ ok: true, forwarded_for: '127.0.0.1' });
    const health = await fetch(`${gateway.url}/health`);
    expect(health.status).toBe(200);
    const after = await fetch(`${gateway.url}/api/v1/categories/`);
    expect(after.status).toBe(200);
  }, 60_000);

  test('when more wait than can be served within the wait bound, then they are answered 503 at once with Retry-After', async () => {
    const busy = await startGateway(service.url, {
      UPSTREAM_MAX_SOCKETS: '2',
      MAX_CONCURRENT_REQUESTS: '2',
      MAX_REQUEST_WAIT_MS: '300',
    });
    try {
      const started = performance.now();
      const staff = fetch(`${busy.url}/api/v1/lots/1`, {
        headers: { authorization: `Bearer ${signTestToken({ id: 1, role: 'volunteer' })}` },
      });
      const answers = await Promise.all(
        Array.from({ length: 60 }, () =>
          fetch(`${busy.url}/api/v1/lots/1`).then(async (res) => ({
            status: res.status,
            retryAfter: res.headers.get('retry-after'),
            body: (await res.json()) as { code?: string },
            ms: performance.now() - started,
          })),
        ),
      );
      const shed = answers.filter((a) => a.status === 503);
      const served = answers.filter((a) => a.status === 200);
      expect(shed.length).toBeGreaterThan(0);
      expect(served.length).toBeGreaterThan(0);
      expect(shed.length + served.length).toBe(60);
      for (const a of shed) {
        expect(a.retryAfter).toMatch(/^\d+$/);
        expect(a.body.code).toBe('SERVICE_BUSY');
      }
      // a staff call (a bearer token) still finds its place: the public share leaves room
      expect((await staff).status).toBe(200);
      expect(busy.child.exitCode).toBeNull();
    } finally {
      busy.child.kill('SIGKILL');
    }
  }, 60_000);
});
