/**
 * Service-to-service authentication (issue 43): every /internal route of every service, called
 * as a stranger would (no credential, a forged one, a real service that the route does not list)
 * and as its callers do. The table of routes and callers is contracts' InternalCallers, so a new
 * internal route is tested here by being declared.
 */
import {
  InternalCallers,
  ServiceNames,
  type InternalRoute,
  type ServiceName,
} from '@furniture/contracts';
import { internalAuthorization } from '@furniture/platform';
import { api, testInternalSecrets } from '@furniture/platform/testing';
import { startSystem, type System } from '../src/stack';

let s: System;
beforeAll(async () => {
  s = await startSystem({ full: true });
});
afterAll(async () => {
  await s?.stop();
});

const serviceUrl = (service: ServiceName): string => {
  const started = { auth: s.auth, catalog: s.catalog, media: s.media }[service as string];
  if (!started) throw new Error(`${service} serves no internal route in this stack`);
  return started.url;
};

/** A request to the route as its template names it, with a body the route would accept. */
function request(route: InternalRoute): { method: string; path: string; body?: unknown } {
  const [method, template] = route.split(' ') as [string, string];
  const path = template
    .replace('{photoId}', '6f1c2b7e-3d4a-4e5f-8a9b-0c1d2e3f4a5b')
    .replace(/\{\w+\}/g, '7')
    .replace('/revocations', `/revocations?since=${encodeURIComponent(new Date().toISOString())}`)
    .replace('/lots/snapshot', '/lots/snapshot?after_id=0&limit=10');
  const bodies: Partial<Record<InternalRoute, unknown>> = {
    'POST /internal/donations/{id}/items/{itemId}/photo-claims': {
      token: 'x',
      photo_id: '6f1c2b7e-3d4a-4e5f-8a9b-0c1d2e3f4a5b',
    },
    'POST /internal/donations/contacts': { ids: [7] },
    'POST /internal/privacy/donations': { phone: '+4917600000000' },
  };
  return { method, path, body: method === 'POST' ? (bodies[route] ?? {}) : undefined };
}

async function call(route: InternalRoute, headers: Record<string, string>) {
  const { service } = InternalCallers[route];
  const { method, path, body } = request(route);
  const http = api(serviceUrl(service));
  const opts = { headers };
  switch (method) {
    case 'GET':
      return http.get(path, opts);
    case 'DELETE':
      return http.delete(path, opts);
    default:
      return http.post(path, body, opts);
  }
}

const routes = Object.keys(InternalCallers) as InternalRoute[];
const secretOf = (caller: ServiceName) => testInternalSecrets()[caller];
const basic = (caller: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${caller}:${secret}`).toString('base64')}`,
});

describe.each(routes)('%s', (route) => {
  const { callers } = InternalCallers[route];

  test('when it is called without a credential, with a forged one or with a bearer token, then 401 AUTH_REQUIRED', async () => {
    const caller = callers[0];
    for (const headers of [
      {},
      basic(caller, 'not-the-secret-of-this-service-at-all-0123456789'),
      basic('gateway', secretOf(caller)),
      { authorization: `Bearer ${secretOf(caller)}` },
    ]) {
      const res = await call(route, headers);
      expect([route, res.status, res.body.code]).toEqual([route, 401, 'AUTH_REQUIRED']);
    }
  });

  test('when a service the route does not list calls it with its own credential, then 403 FORBIDDEN', async () => {
    const others = ServiceNames.filter((n) => !(callers as readonly string[]).includes(n));
    // a route every service calls has no such stranger
    if (others.length === 0) expect([...callers].sort()).toEqual([...ServiceNames].sort());
    for (const other of others) {
      const res = await call(route, {
        authorization: internalAuthorization({ caller: other, secret: secretOf(other) }),
      });
      expect([route, other, res.status, res.body.code]).toEqual([route, other, 403, 'FORBIDDEN']);
    }
  });

  test('when each of its callers calls it with its credential, then it is let through (the route answers, neither 401 nor 403)', async () => {
    for (const caller of callers) {
      const res = await call(route, {
        authorization: internalAuthorization({ caller, secret: secretOf(caller) }),
      });
      expect([route, caller, [401, 403].includes(res.status)]).toEqual([route, caller, false]);
      expect(res.status).toBeLessThan(500);
    }
  });
});
