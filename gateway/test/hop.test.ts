// The hop from the gateway to a service (issue 46): one kept connection to the service whatever
// the client says of its own, and a service that does not answer in PROXY_TIMEOUT_MS is answered
// 503.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestGateway } from './harness';

interface Seen {
  url: string;
  connection: string | undefined;
  /** the gateway's end of the connection the request came on */
  port: number;
}

/** A stand-in catalog on node's own server: what reaches it, and two ways of answering. */
async function service() {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/ready') return void res.end('{"status":"ready"}');
    seen.push({
      url: req.url ?? '',
      connection: req.headers.connection,
      port: req.socket.remotePort!,
    });
    if (req.url === '/api/v1/lots/hang') return; // never answers
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ url: req.url }));
  });
  server.keepAliveTimeout = 65000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One request on a connection of its own, as an HTTP/1.1 client that says it will close it. */
function closingGet(
  url: string,
): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, connection: res.headers.connection, body }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

describe('the hop to a service', () => {
  let catalog: Awaited<ReturnType<typeof service>>;
  let gateway: Awaited<ReturnType<typeof startTestGateway>>;
  beforeAll(async () => {
    catalog = await service();
    gateway = await startTestGateway(
      { CATALOG_URL: catalog.url },
      { PROXY_TIMEOUT_MS: '300', PUBLIC_CACHE_MAX_MS: '0' },
    );
  });
  afterAll(async () => {
    await gateway?.close();
    await catalog?.close();
  });
  beforeEach(() => {
    catalog.seen.length = 0;
  });

  test('when clients close their connection after each request, then the gateway keeps its one connection to the service', async () => {
    for (let i = 0; i < 4; i++) {
      const answer = await closingGet(`${gateway.url}/api/v1/lots/?page=${i}`);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ url: `/api/v1/lots/?page=${i}` });
      // the client is told its own connection closes, not what the service said of the gateway's
      expect(answer.connection).toBe('close');
    }
    expect(catalog.seen.map((s) => s.url)).toEqual(
      [0, 1, 2, 3].map((i) => `/api/v1/lots/?page=${i}`),
    );
    expect(catalog.seen.every((s) => s.connection !== 'close')).toBe(true);
    expect(new Set(catalog.seen.map((s) => s.port)).size).toBe(1);
  });

  test('when a service does not answer within PROXY_TIMEOUT_MS, then 503 SERVICE_UNAVAILABLE', async () => {
    const res = await fetch(`${gateway.url}/api/v1/lots/hang`, {
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
    expect(catalog.seen.map((s) => s.url)).toEqual(['/api/v1/lots/hang']);
    // the next request finds a working connection again
    expect((await fetch(`${gateway.url}/api/v1/lots/`)).status).toBe(200);
  });
});
