/**
 * Gateway limits across replicas (issue 43): two gateways, each its own OS process (the built
 * gateway, as in production), on one database: a client's budget of public writes is one budget
 * whichever replica its requests reach. And a body over the limit is answered with a 413 that the
 * client reads (the rest of the body is read and dropped), not a connection closed under it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createServer } from 'node:net';
import {
  dropDatabase,
  eventually,
  testKeys,
  testUrls,
  TEST_AUDIENCE,
  TEST_ISSUER,
  uniqueName,
} from '@furniture/platform/testing';

const ROOT = path.resolve(__dirname, '../..');
const database = uniqueName('gateway_limits');
const gateways: { url: string; child: ChildProcess; output: string[] }[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function startGateway(): Promise<(typeof gateways)[number]> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, [path.join(ROOT, 'gateway/dist/start.js')], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_ENABLED: 'false',
      MONGO_URL: testUrls().mongoUrl,
      MONGO_DB: database,
      JWT_PUBLIC_KEY: testKeys().publicKey,
      JWT_ISSUER: TEST_ISSUER,
      JWT_AUDIENCE: TEST_AUDIENCE,
      // no service listens: a write that passes the limit gets 503 from the gateway
      AUTH_URL: 'http://127.0.0.1:9',
      CATALOG_URL: 'http://127.0.0.1:9',
      APPLICATIONS_URL: 'http://127.0.0.1:9',
      MEDIA_URL: 'http://127.0.0.1:9',
      NOTIFICATION_URL: 'http://127.0.0.1:9',
      SPA_DIR: '/nonexistent',
      RATE_LIMIT_PUBLIC_WRITES: '6',
      RATE_LIMIT_PUBLIC_WRITES_WINDOW_SECONDS: '600',
      BODY_LIMIT_BYTES: String(64 * 1024),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b: Buffer) => output.push(b.toString()));
  child.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    async () => (await fetch(`${url}/health`)).ok && output.join('').includes('rate limits shared'),
    { timeoutMs: 30_000, what: `gateway on ${port} with its shared limits` },
  );
  const g = { url, child, output };
  gateways.push(g);
  return g;
}

beforeAll(async () => {
  // the built gateway (make test builds it; a test run alone builds it here, in seconds)
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/transpile-server.mjs')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`transpile failed: ${built.stderr}`);
}, 120_000);

afterAll(async () => {
  for (const g of gateways) {
    g.child.kill('SIGTERM');
    await new Promise((resolve) => g.child.once('exit', resolve));
  }
  await dropDatabase(testUrls().mongoUrl, database).catch(() => undefined);
});

const write = (url: string) =>
  fetch(`${url}/api/v1/applications/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });

test('when a client sends public writes to two gateway processes in turn, then it has one budget: the seventh is refused whichever replica it reaches', async () => {
  const [a, b] = [await startGateway(), await startGateway()];
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) statuses.push((await write(i % 2 === 0 ? a.url : b.url)).status);
  // six pass the limit (and find no service: 503), the rest are refused on either replica
  expect(statuses).toEqual([503, 503, 503, 503, 503, 503, 429, 429]);
  const refused = await write(b.url);
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(((await refused.json()) as { code: string }).code).toBe('RATE_LIMITED');
}, 90_000);

/**
 * A client writing a large body in chunks (a photo upload, curl): what it gets back, and
 * whether the connection failed under it while it was still writing.
 */
function sendLarge(
  url: string,
  bytes: number,
): Promise<{ status: number | null; error: string | null; body: string }> {
  return new Promise((resolve) => {
    const target = new URL('/api/v1/lots/1', url);
    const req = http.request({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'content-length': bytes },
    });
    let status: number | null = null;
    let error: string | null = null;
    let body = '';
    req.on('response', (res) => {
      status = res.statusCode ?? null;
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status, error, body }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      error = err.code ?? err.message;
      if (status === null) resolve({ status, error, body });
    });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

test('when a client streams a body far over the limit, then it reads the 413 and the connection is not closed under it (no EPIPE)', async () => {
  const g = gateways[0] ?? (await startGateway());
  for (let i = 0; i < 3; i++) {
    const got = await sendLarge(g.url, 48 * 1024 * 1024);
    expect([got.status, got.error]).toEqual([413, null]);
    expect((JSON.parse(got.body) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE');
  }
}, 60_000);
