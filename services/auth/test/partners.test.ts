import path from 'node:path';
import { Events } from '@furniture/contracts';
import { api, raceProcesses, testUrls } from '@furniture/platform/testing';
import jwt from 'jsonwebtoken';
import { ADMIN, startAuth } from './harness';

let svc: Awaited<ReturnType<typeof startAuth>>;
let http: ReturnType<typeof api>;
let admin: string;

beforeAll(async () => {
  svc = await startAuth({ PUBLIC_BASE_URL: 'https://moebel.example.org/' });
  http = api(svc.url);
  admin = await login(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await svc?.stop();
});

async function login(email: string, password: string): Promise<string> {
  const res = await http.post('/api/v1/auth/login', { email, password });
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

let seq = 0;
async function newAgency(name = `Caritas ${Date.now()} ${seq++}`) {
  const res = await http.post(
    '/api/v1/agencies/',
    { name, city: 'Leipzig', contact_email: 'Beratung@Caritas.example' },
    { token: admin },
  );
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; active: boolean };
}

async function invite(agencyId: number, email: string, language: 'de' | 'uk' = 'de') {
  const res = await http.post(
    `/api/v1/agencies/${agencyId}/invitations`,
    { email, language },
    { token: admin },
  );
  expect(res.status).toBe(201);
  return (res.body.invite_url as string).split('/').pop()!;
}

const PASSWORD = 'Sozialarbeit-im-Viertel-7';

async function newReferrer(agencyId: number) {
  const email = `referrer-${Date.now()}-${seq++}@beratung.example`;
  const token = await invite(agencyId, email);
  const res = await http.post(`/api/v1/invitations/${token}/accept`, {
    name: 'Olena Sozial',
    password: PASSWORD,
  });
  expect(res.status).toBe(201);
  return { email, id: res.body.id as number };
}

describe('agencies (admins only)', () => {
  test('when an admin creates, lists and deactivates an agency, then each step is answered and announced', async () => {
    const agency = await newAgency();
    expect(agency).toMatchObject({
      city: 'Leipzig',
      contact_email: 'beratung@caritas.example',
      active: true,
    });
    const listed = await http.get('/api/v1/agencies/', { token: admin });
    expect(listed.status).toBe(200);
    expect(listed.body.agencies).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: agency.id, name: agency.name })]),
    );
    const patched = await http.patch(
      `/api/v1/agencies/${agency.id}`,
      { active: false },
      { token: admin },
    );
    expect(patched.status).toBe(200);
    expect(patched.body.active).toBe(false);
    await svc.recorder.waitFor(Events.AgencyCreated, (e) => e.payload.agency.id === agency.id);
    const updated = await svc.recorder.waitFor(
      Events.AgencyUpdated,
      (e) => e.payload.agency.id === agency.id,
    );
    expect(updated.payload.changes).toEqual({ active: { old: true, new: false } });
  });

  test('when the same name is created twice at once, then one agency and one 409', async () => {
    const name = `Diakonie ${Date.now()}`;
    const answers = await Promise.all(
      [1, 2].map(() =>
        http.post(
          '/api/v1/agencies/',
          { name, city: 'Halle', contact_email: 'a@b.example' },
          { token: admin },
        ),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
  });

  test('when the body breaks the rules, then 422 in the caller’s language and an unknown agency 404', async () => {
    const bad = await http.post(
      '/api/v1/agencies/',
      { name: '', contact_email: 'nope' },
      { token: admin, headers: { 'accept-language': 'uk' } },
    );
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain("Місто обов'язкове");
    expect(
      (await http.patch('/api/v1/agencies/999999', { active: false }, { token: admin })).status,
    ).toBe(404);
    expect(
      (
        await http.post(
          '/api/v1/agencies/999999/invitations',
          { email: 'x@y.example', language: 'de' },
          { token: admin },
        )
      ).status,
    ).toBe(404);
  });
});

describe('invitations', () => {
  test('when an admin invites, then the link is answered and announced for the mail, and only its hash is stored', async () => {
    const agency = await newAgency();
    const res = await http.post(
      `/api/v1/agencies/${agency.id}/invitations`,
      { email: 'Neu@Beratung.example', language: 'uk' },
      { token: admin },
    );
    expect(res.status).toBe(201);
    expect(res.body.invite_url).toMatch(
      /^https:\/\/moebel\.example\.org\/admin\/invitation\/[0-9a-f]{64}$/,
    );
    const token = (res.body.invite_url as string).split('/').pop()!;
    const event = await svc.recorder.waitFor(
      Events.ReferrerInvited,
      (e) => e.payload.agency.id === agency.id,
    );
    expect(event.payload).toMatchObject({
      email: 'neu@beratung.example',
      language: 'uk',
      invite_url: res.body.invite_url,
      agency: { id: agency.id, name: agency.name },
    });
    const stored = await svc.conn.db!.collection('invitations').find({}).toArray();
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  test('when the invited person accepts, then a referrer of the agency is made who can log in, and the link is spent', async () => {
    const agency = await newAgency();
    const email = `olena-${Date.now()}@beratung.example`;
    const token = await invite(agency.id, email, 'uk');
    const accepted = await http.post(`/api/v1/invitations/${token}/accept`, {
      name: 'Olena',
      password: PASSWORD,
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ email, role: 'referrer', agency_id: agency.id });
    const again = await http.post(`/api/v1/invitations/${token}/accept`, {
      name: 'Olena',
      password: PASSWORD,
    });
    expect(again.status).toBe(404);
    const referrerToken = await login(email, PASSWORD);
    const claims = jwt.decode(referrerToken) as Record<string, unknown>;
    expect(claims).toMatchObject({ role: 'referrer', agency_id: agency.id, lang: 'uk' });
  });

  test('when one link is accepted twice at once, then exactly one account is made', async () => {
    const agency = await newAgency();
    const token = await invite(agency.id, `twice-${Date.now()}@beratung.example`);
    const answers = await Promise.all(
      ['Erste', 'Zweite'].map((name) =>
        http.post(`/api/v1/invitations/${token}/accept`, { name, password: PASSWORD }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 404]);
  });

  test('when two auth processes spend the same invitations at once, then each is spent exactly once (the unique key decides)', async () => {
    const hashes = Array.from({ length: 20 }, (_, i) => `race-${Date.now()}-${i}`);
    const [wonA, wonB] = await raceProcesses<string[]>(
      path.join(__dirname, 'invitation-race.ts'),
      { mongoUrl: testUrls().mongoUrl, dbName: svc.config.MONGO_DB, startInMs: 5000 },
      [JSON.stringify(hashes)],
      [JSON.stringify(hashes)],
    );
    expect([...wonA, ...wonB].sort()).toEqual([...hashes].sort());
    expect(wonA.filter((h) => wonB.includes(h))).toEqual([]);
  }, 60_000);

  test('when the link is unknown or malformed, or the password too short, then 404 or 422 and nothing is made', async () => {
    const unknown = await http.post(`/api/v1/invitations/${'a'.repeat(64)}/accept`, {
      name: 'X',
      password: PASSWORD,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('INVITATION_NOT_FOUND');
    expect(
      (await http.post('/api/v1/invitations/%24%24/accept', { name: 'X', password: PASSWORD }))
        .status,
    ).toBe(404);
    const agency = await newAgency();
    const token = await invite(agency.id, `short-${Date.now()}@beratung.example`);
    const short = await http.post(
      `/api/v1/invitations/${token}/accept`,
      { name: 'X', password: 'kurz' },
      { headers: { 'accept-language': 'de' } },
    );
    expect(short.status).toBe(422);
    // the link is not spent by a refused attempt
    expect(
      (await http.post(`/api/v1/invitations/${token}/accept`, { name: 'X', password: PASSWORD }))
        .status,
    ).toBe(201);
  });
});

describe('referrers', () => {
  test('when an admin creates a referrer, then agency_id is required (422) and must name an agency (404)', async () => {
    const agency = await newAgency();
    const base = { name: 'Ref', role: 'referrer', password: PASSWORD };
    const without = await http.post(
      '/api/v1/users/',
      { ...base, email: `r0-${Date.now()}@x.example` },
      { token: admin },
    );
    expect(without.status).toBe(422);
    expect(JSON.stringify(without.body)).toContain('agency_id');
    const unknown = await http.post(
      '/api/v1/users/',
      { ...base, email: `r1-${Date.now()}@x.example`, agency_id: 999999 },
      { token: admin },
    );
    expect(unknown.status).toBe(404);
    const made = await http.post(
      '/api/v1/users/',
      { ...base, email: `r2-${Date.now()}@x.example`, agency_id: agency.id },
      { token: admin },
    );
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ role: 'referrer', agency_id: agency.id });
    const volunteerWithAgency = await http.post(
      '/api/v1/users/',
      { ...base, role: 'volunteer', email: `r3-${Date.now()}@x.example`, agency_id: agency.id },
      { token: admin },
    );
    expect(volunteerWithAgency.status).toBe(422);
  });

  test('when a referrer calls the staff calls of this service, then 403', async () => {
    const agency = await newAgency();
    const { email } = await newReferrer(agency.id);
    const token = await login(email, PASSWORD);
    expect((await http.get('/api/v1/users/', { token })).status).toBe(403);
    expect((await http.get('/api/v1/agencies/', { token })).status).toBe(403);
    expect(
      (
        await http.post(
          `/api/v1/agencies/${agency.id}/invitations`,
          { email: 'x@y.example', language: 'de' },
          { token },
        )
      ).status,
    ).toBe(403);
    // their own profile is theirs
    expect((await http.get('/api/v1/auth/me', { token })).status).toBe(200);
  });

  test("when an agency is deactivated, then its referrers' sessions end, every service is told, and login is refused until it is active again", async () => {
    const agency = await newAgency();
    const { email, id } = await newReferrer(agency.id);
    const first = await http.post('/api/v1/auth/login', { email, password: PASSWORD });
    const cookie = first.headers.getSetCookie().find((c) => c.startsWith('refresh_token='))!;
    const token = first.body.access_token as string;
    expect((await http.get('/api/v1/auth/me', { token })).status).toBe(200);

    expect(
      (await http.patch(`/api/v1/agencies/${agency.id}`, { active: false }, { token: admin }))
        .status,
    ).toBe(200);
    const out = await svc.recorder.waitFor(
      Events.UserLoggedOut,
      (e) => e.payload.user.id === id && e.payload.reason === 'agency_deactivated',
    );
    expect(out.payload.session_id).toBeUndefined();
    expect((await http.get('/api/v1/auth/me', { token })).status).toBe(401);
    const refreshed = await http.post('/api/v1/auth/refresh', undefined, {
      headers: { cookie: cookie.split(';')[0]! },
    });
    expect(refreshed.status).toBe(401);
    const refused = await http.post(
      '/api/v1/auth/login',
      { email, password: PASSWORD },
      { headers: { 'accept-language': 'de' } },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('AGENCY_INACTIVE');
    // no new referrers for an inactive agency
    expect(
      (
        await http.post(
          `/api/v1/agencies/${agency.id}/invitations`,
          { email: 'x@y.example', language: 'de' },
          { token: admin },
        )
      ).status,
    ).toBe(403);

    await http.patch(`/api/v1/agencies/${agency.id}`, { active: true }, { token: admin });
    expect((await http.post('/api/v1/auth/login', { email, password: PASSWORD })).status).toBe(200);
  });
});
