/**
 * Revocation reaches every service (issue 14): the auth service's user events feed each
 * process's revoked set, which its token verifier checks. A token of a session that was logged
 * out, or of a user whose password or role changed, is refused everywhere within moments, not
 * after its 15 minutes.
 */
import { eventually } from '@furniture/platform/testing';
import { startSystem, SYSTEM_ADMIN, type System } from '../src/stack';

let s: System;
beforeAll(async () => {
  s = await startSystem({ full: true });
});
afterAll(async () => {
  await s?.stop();
});

async function login(email: string, password: string): Promise<string> {
  const res = await s.http.post('/api/v1/auth/login', { email, password });
  if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  return res.body.access_token as string;
}

/** One staff call at each of the four services besides auth. */
const calls = (lotId: number) => [
  ['catalog', `/api/v1/lots/${lotId}`],
  ['applications', '/api/v1/applications?limit=1'],
  ['media', `/api/v1/lots/${lotId}/photos`],
  ['notification', '/api/v1/activity-logs?limit=1'],
];

async function statuses(token: string, lotId: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [service, path] of calls(lotId))
    out[service!] = (await s.http.get(path!, { token })).status;
  return out;
}

const ALL_OK = { catalog: 200, applications: 200, media: 200, notification: 200 };
const ALL_REFUSED = { catalog: 401, applications: 401, media: 401, notification: 401 };

test('when staff log out, then the old token is refused by catalog, applications, media and notification within seconds', async () => {
  const lot = await s.createLot();
  const token = await login(SYSTEM_ADMIN.email, SYSTEM_ADMIN.password);
  const other = await login(SYSTEM_ADMIN.email, SYSTEM_ADMIN.password);
  expect(await statuses(token, lot)).toEqual(ALL_OK);

  expect((await s.http.post('/api/v1/auth/logout', undefined, { token })).status).toBe(200);
  await eventually(
    async () => JSON.stringify(await statuses(token, lot)) === JSON.stringify(ALL_REFUSED),
    { what: 'the logged-out token refused everywhere', timeoutMs: 5000 },
  );
  // the same user's other session is untouched
  expect(await statuses(other, lot)).toEqual(ALL_OK);
});

test('when an admin is demoted, then the tokens of that user issued before are refused everywhere', async () => {
  const lot = await s.createLot('Schrank');
  const admin = await login(SYSTEM_ADMIN.email, SYSTEM_ADMIN.password);
  const email = `demoted-${Date.now()}@example.org`;
  const password = 'Kastanien-Allee-42';
  const created = await s.http.post(
    '/api/v1/users',
    { name: 'Demo', email, role: 'admin', password },
    { token: admin },
  );
  expect(created.status).toBe(201);
  const token = await login(email, password);
  expect(await statuses(token, lot)).toEqual(ALL_OK);
  // tokens carry whole seconds: the change must come in a later second than the login
  await new Promise((r) => setTimeout(r, 1100));
  const demoted = await s.http.patch(
    `/api/v1/users/${created.body.id}`,
    { role: 'volunteer' },
    { token: admin },
  );
  expect(demoted.status).toBe(200);
  await eventually(
    async () => JSON.stringify(await statuses(token, lot)) === JSON.stringify(ALL_REFUSED),
    { what: 'the demoted admin token refused everywhere', timeoutMs: 5000 },
  );
});
