// The published API: the OpenAPI document generated from the contracts is valid OpenAPI 3.1,
// names every route of every service (read from the real express apps) and nothing else, is
// served by the gateway with its reference page, and the gateway routes every documented call to
// the service that answers it. (That the answers match it is checked by every service test:
// @furniture/platform/testing's api() validates each answer against this document.)
import { execFile } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import express, { type Express } from 'express';
import { createOpenApiDocument, operations } from '@furniture/contracts/openapi';
import { TokenVerifier } from '@furniture/platform';
import {
  api,
  listen,
  silentLogger,
  TEST_AUDIENCE,
  TEST_ISSUER,
  testKeys,
} from '@furniture/platform/testing';
import { createApp as authApp } from '../../services/auth/src/app';
import { createApp as catalogApp } from '../../services/catalog/src/app';
import { createApp as applicationsApp } from '../../services/applications/src/app';
import { createApp as mediaApp } from '../../services/media/src/app';
import { createApp as notificationApp } from '../../services/notification/src/app';
import { createGatewayApp } from '../src/app';
import { loadGatewayConfig } from '../src/config';
import { serviceFor } from '../src/routes';

const V1 = '/api/v1';

/** What this test reads of an operation object of the generated document. */
interface DocumentedOperation {
  operationId?: string;
  security: Record<string, string[]>[];
  responses: Record<string, { content: Record<string, { schema: unknown }> }>;
  'x-roles'?: string[];
}

/**
 * Runs @apidevtools/swagger-parser's validate() (the OpenAPI 3.1 JSON schema plus its own rules)
 * on a document, in a plain node process: its parser is an ES module jest cannot load here.
 */
async function validateOpenApi(doc: unknown): Promise<string> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-')), 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  const script = `require('@apidevtools/swagger-parser').validate(${JSON.stringify(file)}).then(
    () => console.log('valid'),
    (err) => console.log(err.message),
  )`;
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], {
      cwd: __dirname,
      timeout: 60000,
    });
    return stdout.trim();
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

// ---- the routes the express apps really have ------------------------------------------------

interface RouterLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
  rawPath?: string | string[];
}

/** Every METHOD path an express 5 app answers, with express paths in OpenAPI's {param} form. */
function routesOf(app: Express): string[] {
  const out: string[] = [];
  const walk = (stack: RouterLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const p of paths) {
          const full = `${prefix}${p}`
            .replace(/:(\w+)/g, '{$1}')
            .replace(/\/\*(\w+)$/, '/{$1*}')
            .replace(/(.)\/$/, '$1');
          for (const method of Object.keys(layer.route.methods)) {
            if (method !== '_all') out.push(`${method.toUpperCase()} ${full || '/'}`);
          }
        }
      } else if (layer.handle?.stack) {
        const mount = Array.isArray(layer.rawPath) ? layer.rawPath[0] : layer.rawPath;
        walk(layer.handle.stack, `${prefix}${mount === '/' || !mount ? '' : mount}`);
      }
    }
  };
  walk((app as unknown as { router: { stack: RouterLayer[] } }).router.stack, '');
  return [...new Set(out)].sort();
}

/** The apps as createApp builds them; the domain objects are never called here. */
function serviceApps(): Record<string, Express> {
  const verifier = new TokenVerifier({
    publicKey: testKeys().publicKey,
    issuer: TEST_ISSUER,
    audience: TEST_AUDIENCE,
  });
  const base = { logger: silentLogger, verifier, metrics: true };
  const unused = {} as never;
  return {
    auth: authApp({ ...base, auth: unused, users: unused, partners: unused }),
    catalog: catalogApp({
      ...base,
      categories: unused,
      lots: unused,
      donations: unused,
      donationLots: unused,
      donationPhotos: unused,
      donationPrivacy: unused,
      warehouse: unused,
    }),
    applications: applicationsApp({
      ...base,
      publicApplications: unused,
      moderation: unused,
      wishes: unused,
      messageRequests: unused,
      privacy: unused,
      handovers: unused,
      referrals: unused,
    }),
    media: mediaApp({
      ...base,
      photos: unused,
      donationPhotos: unused,
      admission: unused,
      maxBytes: 1024,
      uploadTimeoutMs: 1000,
    }),
    notification: notificationApp({
      ...base,
      activity: unused,
      impact: unused,
      privacy: unused,
      messages: unused,
      timeZone: 'Europe/Berlin',
    }),
  };
}

const documented = (service: string): string[] =>
  operations
    .filter((op) => op.service === service)
    .map((op) => `${op.method.toUpperCase()} ${op.path}`)
    .sort();
/** The probes every service app has from createServiceApp (metrics: their own port). */
const PROBES = ['GET /health', 'GET /ready'];

describe('the OpenAPI document', () => {
  test('when it is generated, then a validator accepts it as OpenAPI 3.1, the internal calls included or not', async () => {
    for (const internal of [false, true]) {
      const doc = createOpenApiDocument({ internal });
      expect(doc.openapi).toBe('3.1.0');
      expect(await validateOpenApi(doc)).toBe('valid');
    }
  });

  test('when a document breaks the OpenAPI rules, then the validator refuses it', async () => {
    const doc = createOpenApiDocument();
    (doc.paths[`${V1}/lots`]!.get as Record<string, unknown>).responses = 'none';
    expect(await validateOpenApi(doc)).toMatch(/responses must be object/);
  });

  test.each(['auth', 'catalog', 'applications', 'media', 'notification'])(
    'when the %s app is built, then every route it has is in the document and every documented route of it exists',
    (service) => {
      const app = serviceApps()[service]!;
      // parameter names may differ ({ref} is {id} where OpenAPI needs one name per path)
      const shape = (r: string) => r.replace(/\{\w+\}/g, '{}');
      const actual = routesOf(app).flatMap((r) =>
        // GET /media/{key*}: the keys it serves are lots/<id>/<file> and a donated item's
        (r === 'GET /media/{key*}'
          ? ['GET /media/lots/{lotId}/{file}', 'GET /media/donations/{id}/{itemId}/{file}']
          : [r]
        ).map(shape),
      );
      expect(actual.sort()).toEqual([...documented(service), ...PROBES].map(shape).sort());
    },
  );

  test('when the document is read, then every operation says who may call it and what it answers', () => {
    const doc = createOpenApiDocument({ internal: true });
    const ops = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.entries(item).map(([m, op]) => ({
        path: p,
        method: m,
        op: op as DocumentedOperation,
      })),
    );
    expect(ops.length).toBe(operations.length);
    for (const { path, method, op } of ops) {
      const where = `${method} ${path}`;
      expect([where, typeof op.operationId]).toEqual([where, 'string']);
      expect([where, Array.isArray(op.security)]).toEqual([where, true]);
      const statuses = Object.keys(op.responses);
      expect([where, statuses.some((s) => /^2\d\d$/.test(s))]).toEqual([where, true]);
      const answers = operations
        .find((o) => o.method === method && o.path === path)!
        .also?.map((a) => String(a.status));
      for (const status of statuses.filter((s) => /^[45]/.test(s) && !answers?.includes(s))) {
        const schema = op.responses[status]!.content['application/json']!.schema;
        const body = JSON.stringify(schema);
        for (const field of ['success', 'code', 'message', 'detail'])
          expect([where, status, body.includes(`"${field}"`)]).toEqual([where, status, true]);
      }
      if (op.security.length === 1 && op.security[0]!.bearerAuth) {
        expect([where, statuses]).toEqual([where, expect.arrayContaining(['401'])]);
        expect([where, op['x-roles']]).toEqual([where, expect.any(Array)]);
      }
    }
    const components = doc.components as { securitySchemes: Record<string, unknown> };
    expect(components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const usersDelete = doc.paths[`${V1}/users/{id}`]!.delete as Record<string, unknown>;
    expect(usersDelete['x-roles']).toEqual(['admin']);
    expect(Object.keys(usersDelete.responses as object)).toEqual(
      expect.arrayContaining(['200', '401', '403', '404', '409', '422']),
    );
  });

  test('when the gateway routes a documented call, then it goes to the service the document names', () => {
    for (const op of operations) {
      if (op.service === 'gateway' || op.path.startsWith('/internal/')) continue;
      const concrete = op.path
        .replace('{phone}', '+4917612345678')
        .replace('{file}', 'abc-large.webp')
        .replace(/\{\w+\}/g, '7');
      expect([op.method, op.path, serviceFor(concrete)]).toEqual([op.method, op.path, op.service]);
    }
    expect(serviceFor('/internal/lots/snapshot')).toBeUndefined();
  });
});

describe('the gateway serving it', () => {
  let gateway: Awaited<ReturnType<typeof listen>>;
  let services: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    // every service is ready: the health report is the gateway's own answer
    const stub = express();
    stub.get('/ready', (_req, res) => {
      res.json({ status: 'ready', service: 'stub', checks: { mongo: true } });
    });
    services = await listen(stub);
    const config = loadGatewayConfig({
      AUTH_URL: services.url,
      CATALOG_URL: services.url,
      APPLICATIONS_URL: services.url,
      MEDIA_URL: services.url,
      NOTIFICATION_URL: services.url,
      JWT_PUBLIC_KEY: testKeys().publicKey,
      JWT_ISSUER: TEST_ISSUER,
      JWT_AUDIENCE: TEST_AUDIENCE,
      SPA_DIR: '/nonexistent',
    });
    gateway = await listen(createGatewayApp({ config, logger: silentLogger }));
  });
  afterAll(async () => {
    await gateway?.close();
    await services?.close();
  });

  test('when /api/v1/openapi.json is asked for, then the public document comes: every public call, no internal one', async () => {
    const res = await api(gateway.url).get(`${V1}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const paths = Object.keys(res.body.paths as object);
    expect(paths).toEqual(expect.arrayContaining([`${V1}/lots`, `${V1}/lots/{id}/photos`]));
    expect(paths.filter((p) => p.startsWith('/internal') || p === '/metrics')).toEqual([]);
    // (node:http: fetch adds cache-control: no-cache to a conditional request)
    const again = await new Promise<number>((resolve, reject) => {
      http
        .get(
          `${gateway.url}${V1}/openapi.json`,
          { headers: { 'if-none-match': res.headers.get('etag')! } },
          (answer) => {
            answer.resume();
            resolve(answer.statusCode ?? 0);
          },
        )
        .on('error', reject);
    });
    expect(again).toBe(304);
  });

  test('when /api/docs is opened, then the page and Swagger UI come from the gateway itself, under a CSP without eval', async () => {
    const page = await fetch(`${gateway.url}/api/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-eval');
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs).toEqual(
      expect.arrayContaining(['/api/docs/swagger-ui-bundle.js', '/api/docs/init.js']),
    );
    for (const ref of refs) {
      expect(ref.startsWith('/')).toBe(true); // no CDN
      const asset = await fetch(`${gateway.url}${ref}`);
      expect([ref, asset.status]).toEqual([ref, 200]);
      await asset.arrayBuffer();
    }
    const init = await (await fetch(`${gateway.url}/api/docs/init.js`)).text();
    expect(init).toContain("url: '/api/v1/openapi.json'");
    expect(init).toContain('validatorUrl: null');
    // only the files the page needs: not the package's demo page pointing at the petstore
    expect((await fetch(`${gateway.url}/api/docs/swagger-initializer.js`)).status).toBe(404);
  });

  test("when the gateway answers itself (health, unknown API paths), then the answers are the document's", async () => {
    const http = api(gateway.url); // checks each answer against the document
    const health = await http.get(`${V1}/health`);
    expect(health.status).toBe(200);
    expect((await http.get(`${V1}/nothing-here`)).status).toBe(404);
  });
});
