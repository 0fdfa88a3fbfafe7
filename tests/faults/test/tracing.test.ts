/**
 * Distributed tracing (issue 18) on the built platform: every process exports its spans to an
 * OTLP receiver in this test (OTLP/HTTP with JSON, the standard OTEL_EXPORTER_OTLP_ENDPOINT),
 * and one approval, asked for through the gateway, is found as ONE trace that spans the gateway,
 * the applications service, the catalog (over RabbitMQ), the notification service and its SMTP
 * delivery; the services' log lines of that request carry its trace id.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  chooseFerretBackend,
  dropFerretDatabase,
  ensureTool,
  freePort,
  freePortRun,
  startFerret,
  startPlatform,
  SERVICE_NAMES,
  TEST_DATA_DIR,
  type FerretBackend,
  type Platform,
  type RunningFerret,
} from '@furniture/infra';
import { deleteBrokerObjects } from '@furniture/platform/testing';
import { topologyQueues } from '@furniture/platform';
import { BUILT } from '../src/lab';

interface Span {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
}

/** An OTLP/HTTP receiver: collects the spans every process exports. */
async function startReceiver() {
  const spans: Span[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: {
              spans: { traceId: string; spanId: string; parentSpanId?: string; name: string }[];
            }[];
          }[];
        };
        for (const rs of body.resourceSpans ?? []) {
          const service =
            rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '?';
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              spans.push({
                service,
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId ?? '',
                name: s.name,
              });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const env = (key: string) => {
  const value = process.env[key];
  if (!value) throw new Error(`${key} is not set: run through jest (its global setup)`);
  return value;
};

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let ferret: RunningFerret;
let backend: FerretBackend;
let platform: Platform;
let api: string;
let exchange: string;
let dataDir: string;
const ADMIN = {
  email: 'admin@tracing.moebelbruecke.test',
  password: `tracing-admin-${randomBytes(4).toString('hex')}`,
};

beforeAll(async () => {
  const missing = BUILT.filter((f) => !fs.existsSync(path.resolve(__dirname, '../../..', f)));
  if (missing.length > 0) throw new Error(`build first: ${missing.join(', ')}`);
  receiver = await startReceiver();
  dataDir = path.join(TEST_DATA_DIR, 'tracing');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dataDir, 'logs'), { recursive: true });
  // its own database server: the service databases have fixed names
  backend = await chooseFerretBackend({ dataDir, fresh: true, log: () => undefined });
  ferret = await startFerret({
    binary: await ensureTool('ferretdb', () => undefined),
    dataDir,
    backend,
    port: await freePort(),
    log: () => undefined,
  });
  const tag = randomBytes(3).toString('hex');
  exchange = `furniture.tracing.${tag}`;
  const gatewayPort = await freePort();
  platform = await startPlatform({
    infraEnv: {
      MONGO_URL: ferret.url,
      AMQP_URL: env('AMQP_URL'),
      S3_URL: env('S3_URL'),
      SMTP_URL: env('SMTP_URL'),
    },
    dataDir,
    gatewayPort,
    servicePortBase: await freePortRun(SERVICE_NAMES.length),
    publicUrl: `http://127.0.0.1:${gatewayPort}`,
    admin: ADMIN,
    overrides: {
      AMQP_EXCHANGE: exchange,
      S3_BUCKET: `furniture-tracing-${tag}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '200',
    },
    print: () => undefined,
    readyTimeoutMs: 150_000,
  });
  api = `http://127.0.0.1:${gatewayPort}/api/v1`;
}, 240_000);

afterAll(async () => {
  await platform?.stop().catch(() => undefined);
  await ferret?.stop().catch(() => undefined);
  if (backend) await dropFerretDatabase(backend).catch(() => undefined);
  if (exchange)
    await deleteBrokerObjects(env('AMQP_URL'), exchange, topologyQueues(exchange)).catch(
      () => undefined,
    );
  await receiver?.close();
});

async function call<T>(method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${api}${url}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

test('when staff approve an application, then one trace spans the gateway, applications, catalog (over RabbitMQ), notification and the SMTP delivery, and the log lines carry its id', async () => {
  const { access_token: token } = await call<{ access_token: string }>('POST', '/auth/login', {
    email: ADMIN.email,
    password: ADMIN.password,
  });
  const lot = await call<{ id: number }>(
    'POST',
    '/lots/',
    {
      name: { de: 'Sessel', uk: 'Крісло' },
      description: { de: 'Bequem', uk: 'Зручне' },
      category_id: 1,
      status: 'available',
    },
    token,
  );
  const application = await until('the lot in the applications service', () =>
    call<{ id: number }>('POST', '/applications/', {
      applicant_name: 'Olena Kovalenko',
      applicant_phone: '+49 176 0000 7001',
      applicant_email: 'olena.tracing@familie.example',
      lot_id: lot.id,
      language: 'de',
    }),
  );

  // the approval, with a trace of our own so that it is easy to find
  const traceId = randomBytes(16).toString('hex');
  const res = await fetch(`${api}/applications/${application.id}/status`, {
    method: 'PATCH',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
    },
    body: JSON.stringify({ status: 'approved' }),
  });
  expect(res.status).toBe(202);

  const trace = await until('the whole approval in one trace', async () => {
    const spans = receiver.spans.filter((s) => s.traceId === traceId);
    const services = new Set(spans.map((s) => s.service));
    const names = spans.map((s) => s.name);
    // every span's parent is in the trace, but for the gateway's, whose parent is our caller
    const ids = new Set(spans.map((s) => s.spanId));
    const orphans = spans.filter((s) => s.parentSpanId && !ids.has(s.parentSpanId));
    return ['gateway', 'applications', 'catalog', 'notification'].every((s) => services.has(s)) &&
      names.includes('application.approval_requested process') &&
      names.includes('lot.reserved process') &&
      names.includes('application.approved process') &&
      names.includes('smtp send') &&
      orphans.length === 1 &&
      orphans[0]!.service === 'gateway'
      ? spans
      : undefined;
  });
  const bySpan = new Map(trace.map((s) => [s.spanId, s]));
  const chain = (span: Span): string[] => {
    const parent = bySpan.get(span.parentSpanId);
    return parent ? [...chain(parent), span.service] : [span.service];
  };
  const smtp = trace.find((s) => s.name === 'smtp send')!;
  // the mail's delivery descends from the gateway's request through every service
  expect(new Set(chain(smtp))).toEqual(
    new Set(['gateway', 'applications', 'catalog', 'notification']),
  );

  // the request's log lines carry its trace id
  const log = fs.readFileSync(path.join(dataDir, 'logs', 'applications.log'), 'utf8');
  expect(log).toContain(`"trace_id":"${traceId}"`);
});
