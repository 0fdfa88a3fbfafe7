import { createSign } from 'node:crypto';
import { Events } from '@furniture/contracts';
import {
  api,
  eventually,
  signTestToken,
  TEST_AUDIENCE,
  TEST_ISSUER,
} from '@furniture/platform/testing';
import jwt from 'jsonwebtoken';
import { loadAuthConfig } from '../src/config';
import { ADMIN, startAuth } from './harness';

let svc: Awaited<ReturnType<typeof startAuth>>;
let http: ReturnType<typeof api>;
/** a service loading the ended sessions, with its internal credential */
let asCatalog: ReturnType<typeof api>;

beforeAll(async () => {
  svc = await startAuth({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_FAILURES_PER_IP: '50' });
  http = api(svc.url);
  asCatalog = api(svc.url, { caller: 'catalog' });
});
afterAll(async () => {
  await svc?.stop();
});

async function login(email = ADMIN.email, password = ADMIN.password) {
  return (await signIn(email, password)).token;
}

/** The refresh cookie a response set: its value and attributes (lower-cased names). */
function refreshCookie(res: { headers: Headers }) {
  const line = res.headers.getSetCookie().find((c) => c.startsWith('refresh_token='));
  if (!line) return undefined;
  const [pair = '', ...attrs] = line.split(';').map((p) => p.trim());
  const value = decodeURIComponent(pair.slice('refresh_token='.length));
  const attributes = Object.fromEntries(
    attrs.map((a) => {
      const [k = '', v = ''] = a.split('=');
      return [k.toLowerCase(), v];
    }),
  );
  return { value, attributes };
}

/** Logs in: the access token and the refresh token of the cookie. */
async function signIn(email = ADMIN.email, password = ADMIN.password) {
  const res = await http.post('/api/v1/auth/login', { email, password });
  expect(res.status).toBe(200);
  const cookie = refreshCookie(res);
  expect(cookie?.value).toBeTruthy();
  return { token: res.body.access_token as string, refresh: cookie!.value };
}

/** POST /auth/refresh with this refresh token as the browser sends it (the cookie only). */
function refresh(refreshToken: string, headers: Record<string, string> = {}) {
  return http.post('/api/v1/auth/refresh', undefined, {
    headers: { cookie: `refresh_token=${encodeURIComponent(refreshToken)}`, ...headers },
  });
}

/** The same token (same session and jti) as it is `secondsAgo` after its expiry. */
function expiredCopy(token: string, secondsAgo: number): string {
  const { iat, exp, sub, iss, aud, jti, ...claims } = jwt.decode(token) as jwt.JwtPayload;
  const now = Math.floor(Date.now() / 1000);
  const life = exp! - iat!;
  return jwt.sign(
    { ...claims, iat: now - secondsAgo - life, exp: now - secondsAgo },
    svc.keys.privateKey,
    {
      algorithm: 'RS256',
      subject: sub,
      issuer: iss,
      audience: aud as string,
      jwtid: jti,
    },
  );
}

/** POST /auth/refresh as the specification's client sends it: the bearer token, no cookie. */
function refreshByBearer(token: string) {
  return http.post('/api/v1/auth/refresh', undefined, { token });
}

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString('base64url');
}

describe('login, me, refresh and logout', () => {
  test('when the credentials are right, then a 15-minute RS256 token and the user are returned', async () => {
    const res = await http.post('/api/v1/auth/login', {
      email: 'ADMIN@example.org ',
      password: ADMIN.password,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      token_type: 'bearer',
      expires_in: 900,
      user: { email: ADMIN.email, role: 'admin' },
    });
    const decoded = jwt.decode(res.body.access_token, { complete: true }) as jwt.Jwt;
    expect(decoded.header.alg).toBe('RS256');
    const claims = decoded.payload as jwt.JwtPayload;
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(res.body.user).not.toHaveProperty('password_hash');
    const event = await svc.recorder.waitFor(
      Events.UserLoggedIn,
      (e) => e.payload.user.email === ADMIN.email,
    );
    expect(event.actor).toMatchObject({ email: ADMIN.email, role: 'admin' });
  });

  test('when the password is wrong, then 401 with a message and a stable code', async () => {
    const res = await http.post(
      '/api/v1/auth/login',
      { email: ADMIN.email, password: 'wrong-password' },
      { headers: { 'accept-language': 'uk' } },
    );
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: 'Неправильна електронна пошта або пароль.',
    });
  });

  test('when the body is invalid, then 422 lists each field with loc and msg', async () => {
    const res = await http.post('/api/v1/auth/login', { email: 'not-an-email' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'email'], msg: 'Ungültige E-Mail-Adresse' }),
        expect.objectContaining({ loc: ['body', 'password'], msg: 'Passwort ist erforderlich' }),
      ]),
    );
  });

  test('when the body is not JSON, then 400 and not 500', async () => {
    const res = await http.post('/api/v1/auth/login', '{"email":', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_JSON');
  });

  test('when logged in, then /me answers the user; refresh with the cookie alone issues a new token of the same session', async () => {
    const { token, refresh: cookie } = await signIn();
    const me = await http.get('/api/v1/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: ADMIN.email, name: ADMIN.name, role: 'admin' });

    await new Promise((r) => setTimeout(r, 1100)); // a new iat
    const refreshed = await refresh(cookie);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(token);
    expect(refreshed.body.user).toMatchObject({ email: ADMIN.email });
    const a = jwt.decode(token) as jwt.JwtPayload;
    const b = jwt.decode(refreshed.body.access_token) as jwt.JwtPayload;
    expect(b.sid).toBe(a.sid);
    expect(b.exp!).toBeGreaterThan(a.exp!);
    expect(refreshed.body).not.toHaveProperty('refresh_token');
  });

  test('when logged out, then refresh and /me are refused for that session but not for others', async () => {
    const { token, refresh: cookie } = await signIn();
    const other = await signIn();
    const out = await http.post('/api/v1/auth/logout', undefined, { token });
    expect(out.status).toBe(200);
    expect((await refresh(cookie)).status).toBe(401);
    expect((await http.get('/api/v1/auth/me', { token })).status).toBe(401);
    expect((await http.get('/api/v1/auth/me', { token: other.token })).status).toBe(200);
    expect((await refresh(other.refresh)).status).toBe(200);
    const { sid } = jwt.decode(token) as jwt.JwtPayload;
    const event = await svc.recorder.waitFor(
      Events.UserLoggedOut,
      (e) => e.payload.session_id === sid,
    );
    expect(event.payload.reason).toBe('logout');
  });

  test('when a replica starts or reconnects, then /internal/revocations lists the sessions ended since a time (ids only), and refuses a bad time', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const { token } = await signIn();
    const open = await signIn();
    await http.post('/api/v1/auth/logout', undefined, { token });
    const { sid } = jwt.decode(token) as jwt.JwtPayload;
    const { sid: openSid } = jwt.decode(open.token) as jwt.JwtPayload;
    const res = await asCatalog.get(`/internal/revocations?since=${encodeURIComponent(before)}`);
    expect(res.status).toBe(200);
    const sids = (res.body.sessions as { sid: string; revoked_at: string }[]).map((s) => s.sid);
    expect(sids).toContain(sid);
    expect(sids).not.toContain(openSid);
    expect(Object.keys(res.body.sessions[0]).sort()).toEqual(['revoked_at', 'sid']);
    expect(res.body.truncated).toBe(false);
    const later = new Date(Date.now() + 60_000).toISOString();
    const none = await asCatalog.get(`/internal/revocations?since=${encodeURIComponent(later)}`);
    expect(none.body.sessions).toEqual([]);
    expect((await asCatalog.get('/internal/revocations?since=yesterday')).status).toBe(422);
  });

  test('when the session is older than its absolute limit, then refresh is refused and the session is announced as ended', async () => {
    const { token, refresh: cookie } = await signIn();
    const { sid } = jwt.decode(token) as jwt.JwtPayload;
    await svc.conn
      .collection('sessions')
      .updateOne({ sid }, { $set: { expires_at: new Date(Date.now() - 1000) } });
    const res = await refresh(cookie);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SESSION_EXPIRED');
    const event = await svc.recorder.waitFor(
      Events.UserLoggedOut,
      (e) => e.payload.session_id === sid,
    );
    expect(event.payload.reason).toBe('max_age');
    expect((await http.get('/api/v1/auth/me', { token })).status).toBe(401);
  });

  test('when there is no token, then staff calls answer 401 "Authentication required"', async () => {
    const res = await http.get('/api/v1/auth/me');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Authentication required');
  });
});

describe('sessions: the refresh cookie, rotation, replay, idle and absolute ends', () => {
  const sidOf = (token: string) => (jwt.decode(token) as jwt.JwtPayload).sid as string;
  const sessions = () => svc.conn.collection('sessions');

  test('when staff log in on localhost, then the refresh token comes as an httpOnly SameSite=Strict cookie of the auth paths, without Secure, until the absolute end', async () => {
    const res = await http.post('/api/v1/auth/login', {
      email: ADMIN.email,
      password: ADMIN.password,
    });
    const cookie = refreshCookie(res)!;
    expect(cookie.attributes).toHaveProperty('httponly');
    expect(cookie.attributes.samesite).toBe('Strict');
    expect(cookie.attributes.path).toBe('/api/v1/auth');
    expect(cookie.attributes).not.toHaveProperty('secure');
    const hours = (Date.parse(cookie.attributes.expires!) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    expect(res.body).not.toHaveProperty('refresh_token');
    expect(JSON.stringify(res.body)).not.toContain(cookie.value);
  });

  test('when the request came to a public host name, then the cookie is also Secure', async () => {
    const res = await http.post(
      '/api/v1/auth/login',
      { email: ADMIN.email, password: ADMIN.password },
      { headers: { 'x-forwarded-host': 'moebel.example.org' } },
    );
    const cookie = refreshCookie(res)!;
    expect(cookie.attributes).toHaveProperty('secure');
    expect(cookie.attributes).toHaveProperty('httponly');
    const again = await refresh(cookie.value, { 'x-forwarded-host': 'moebel.example.org' });
    expect(refreshCookie(again)!.attributes).toHaveProperty('secure');
  });

  test('when a refresh succeeds, then the cookie is replaced, and the replaced token alone no longer rotates', async () => {
    const first = await signIn();
    const r2 = await refresh(first.refresh);
    expect(r2.status).toBe(200);
    const second = refreshCookie(r2)!.value;
    expect(second).not.toBe(first.refresh);
    const r3 = await refresh(second);
    expect(r3.status).toBe(200);
    const third = refreshCookie(r3)!.value;
    expect(new Set([first.refresh, second, third]).size).toBe(3);
    const doc = await sessions().findOne({ sid: sidOf(first.token) });
    expect(doc!.used_hashes).toHaveLength(2);
    // only hashes are stored
    expect(JSON.stringify(doc)).not.toContain(third.split('.')[1]);
  });

  test('when a refresh token already replaced is presented again, then the whole session ends, is announced, and its access tokens are refused', async () => {
    const first = await signIn();
    const sid = sidOf(first.token);
    const second = refreshCookie(await refresh(first.refresh))!.value;
    const r3 = await refresh(second);
    const third = refreshCookie(r3)!.value;
    const latestAccess = r3.body.access_token as string;

    const replay = await refresh(first.refresh); // the stolen copy
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('SESSION_EXPIRED');
    expect(refreshCookie(replay)?.value).toBe(''); // cleared

    expect((await refresh(third)).status).toBe(401); // the rightful holder is out too
    expect((await http.get('/api/v1/auth/me', { token: latestAccess })).status).toBe(401);
    const doc = await sessions().findOne({ sid });
    expect(doc!.revoked_reason).toBe('refresh_reuse');
    const event = await svc.recorder.waitFor(
      Events.UserLoggedOut,
      (e) => e.payload.session_id === sid,
    );
    expect(event.payload.reason).toBe('refresh_reuse');
    // every service's verifier learns it from the event: the auth service's own staff calls too
    await eventually(
      async () => (await http.get('/api/v1/users', { token: latestAccess })).status === 401,
      { what: 'the access token of the ended session refused' },
    );
  });

  test('when two tabs refresh with the same token at once, then both get an access token and the session lives on', async () => {
    const first = await signIn();
    const [a, b] = await Promise.all([refresh(first.refresh), refresh(first.refresh)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const cookies = [refreshCookie(a), refreshCookie(b)].filter((c) => c !== undefined);
    expect(cookies).toHaveLength(1); // one rotation; the other answer sets no cookie
    expect((await refresh(cookies[0]!.value)).status).toBe(200);
  });

  test('when the token just replaced comes again after the grace, then it counts as a replay', async () => {
    const first = await signIn();
    const sid = sidOf(first.token);
    expect((await refresh(first.refresh)).status).toBe(200);
    await sessions().updateOne({ sid }, { $set: { rotated_at: new Date(Date.now() - 60_000) } });
    expect((await refresh(first.refresh)).status).toBe(401);
    expect((await sessions().findOne({ sid }))!.revoked_reason).toBe('refresh_reuse');
  });

  test('when a token of the session that it never had is presented, then it is refused and the session lives on', async () => {
    const first = await signIn();
    const forged = `${sidOf(first.token)}.${'A'.repeat(43)}`;
    expect((await refresh(forged)).status).toBe(401);
    expect((await refresh('garbage')).status).toBe(401);
    expect((await refresh(first.refresh)).status).toBe(200);
  });

  test('when a cookie comes with a bearer token, then the cookie decides and the bearer token is only checked', async () => {
    const { token } = await signIn();
    const other = await signIn();
    const bad = await refresh(other.refresh, { authorization: 'Bearer garbage' });
    expect(bad.body.code).toBe('TOKEN_INVALID');
    const withBearer = await refresh(other.refresh, { authorization: `Bearer ${token}` });
    expect(withBearer.status).toBe(200);
    expect(refreshCookie(withBearer)?.value).toBeTruthy(); // rotated: the cookie's refresh
    // the spec's client sends its expired token along: the cookie still renews the session
    const expired = await refresh(refreshCookie(withBearer)!.value, {
      authorization: `Bearer ${expiredCopy(token, 3600)}`,
    });
    expect(expired.status).toBe(200);
  });

  test('when a session has been idle past its limit, then refresh is refused and the end is announced', async () => {
    const { token, refresh: cookie } = await signIn();
    const sid = sidOf(token);
    await sessions().updateOne(
      { sid },
      { $set: { last_used_at: new Date(Date.now() - 2 * 3600_000 - 1000) } },
    );
    const res = await refresh(cookie);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SESSION_EXPIRED');
    const event = await svc.recorder.waitFor(
      Events.UserLoggedOut,
      (e) => e.payload.session_id === sid,
    );
    expect(event.payload.reason).toBe('idle');
  });

  test('when a session was used within the idle limit, then it refreshes, long after its access token expired', async () => {
    const { token, refresh: cookie } = await signIn();
    const sid = sidOf(token);
    // logged in 3 hours ago, last refresh 1h50 ago: its access tokens are long expired
    await sessions().updateOne(
      { sid },
      {
        $set: {
          created_at: new Date(Date.now() - 3 * 3600_000),
          last_used_at: new Date(Date.now() - 110 * 60_000),
        },
      },
    );
    const res = await refresh(cookie);
    expect(res.status).toBe(200);
    const doc = await sessions().findOne({ sid });
    expect(Date.now() - doc!.last_used_at.getTime()).toBeLessThan(60_000);
  });

  test('when nobody comes back to an idle or too old session, then the periodic sweep ends and announces it', async () => {
    const idle = await signIn();
    const old = await signIn();
    const fresh = await signIn();
    await sessions().updateOne(
      { sid: sidOf(idle.token) },
      { $set: { last_used_at: new Date(Date.now() - 3 * 3600_000) } },
    );
    await sessions().updateOne(
      { sid: sidOf(old.token) },
      { $set: { expires_at: new Date(Date.now() - 1000) } },
    );
    expect(await svc.auth.auth.endLapsedSessions()).toBeGreaterThanOrEqual(2);
    for (const [s, reason] of [
      [idle, 'idle'],
      [old, 'max_age'],
    ] as const) {
      const event = await svc.recorder.waitFor(
        Events.UserLoggedOut,
        (e) => e.payload.session_id === sidOf(s.token),
      );
      expect(event.payload.reason).toBe(reason);
      await eventually(
        async () => (await http.get('/api/v1/users', { token: s.token })).status === 401,
        { what: `the ${reason} session's access token refused` },
      );
    }
    expect((await http.get('/api/v1/users', { token: fresh.token })).status).toBe(200);
  });

  test('when staff log out with the cookie alone, then the session ends and the cookie is cleared', async () => {
    const { token, refresh: cookie } = await signIn();
    const res = await http.post('/api/v1/auth/logout', undefined, {
      headers: { cookie: `refresh_token=${encodeURIComponent(cookie)}` },
    });
    expect(res.status).toBe(200);
    const cleared = refreshCookie(res)!;
    expect(cleared.value).toBe('');
    expect(Date.parse(cleared.attributes.expires!)).toBeLessThan(Date.now());
    expect(cleared.attributes.path).toBe('/api/v1/auth');
    expect((await refresh(cookie)).status).toBe(401);
    expect((await http.get('/api/v1/auth/me', { token })).status).toBe(401);
    const again = await http.post('/api/v1/auth/logout', undefined, {
      headers: { cookie: `refresh_token=${encodeURIComponent(cookie)}` },
    });
    expect(again.status).toBe(401);
  });

  test('when the idle and absolute limits are configured, then the service takes them', () => {
    const config = loadAuthConfig({
      ...process.env,
      JWT_PRIVATE_KEY: svc.keys.privateKey,
      SESSION_IDLE_SECONDS: '600',
      SESSION_MAX_AGE_SECONDS: '3600',
    });
    expect(config.SESSION_IDLE_SECONDS).toBe(600);
    expect(config.SESSION_MAX_AGE_SECONDS).toBe(3600);
    expect(loadAuthConfig({ ...process.env, JWT_PRIVATE_KEY: 'x' }).SESSION_IDLE_SECONDS).toBe(
      7200,
    );
  });
});

describe("refresh with the bearer token (the specification's client, no cookie)", () => {
  const sidOf = (token: string) => (jwt.decode(token) as jwt.JwtPayload).sid as string;
  const sessions = () => svc.conn.collection('sessions');

  test("when a live session's valid token is sent without a cookie, then a new token of the same session answers, and no cookie is set", async () => {
    const { token } = await signIn();
    const res = await refreshByBearer(token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', user: { email: ADMIN.email } });
    const next = res.body.access_token as string;
    const a = jwt.decode(token) as jwt.JwtPayload;
    const b = jwt.decode(next) as jwt.JwtPayload;
    expect(b.sid).toBe(a.sid);
    expect(b.jti).toBeTruthy();
    expect(b.jti).not.toBe(a.jti);
    expect(refreshCookie(res)).toBeUndefined();
    expect((await http.get('/api/v1/auth/me', { token: next })).status).toBe(200);
    // the new token renews once in its turn
    expect((await refreshByBearer(next)).status).toBe(200);
  });

  test('when the token expired within the grace, then it still renews its session', async () => {
    const { token } = await signIn();
    const sid = sidOf(token);
    const before = (await sessions().findOne({ sid }))!.last_used_at as Date;
    await new Promise((r) => setTimeout(r, 20));
    const res = await refreshByBearer(expiredCopy(token, 300));
    expect(res.status).toBe(200);
    expect((await http.get('/api/v1/auth/me', { token: res.body.access_token })).status).toBe(200);
    // a refresh is a use: the idle time counts from now
    const after = (await sessions().findOne({ sid }))!.last_used_at as Date;
    expect(after.getTime()).toBeGreaterThan(before.getTime());
  });

  test('when the token expired longer ago than the grace, then 401 and the session lives on', async () => {
    const { token, refresh: cookie } = await signIn();
    const res = await refreshByBearer(expiredCopy(token, 601));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SESSION_EXPIRED');
    expect((await sessions().findOne({ sid: sidOf(token) }))!.revoked_at).toBeNull();
    expect((await refresh(cookie)).status).toBe(200);
  });

  test('when a token that already renewed its session comes again, then the session ends as after a replayed cookie', async () => {
    const { token, refresh: cookie } = await signIn();
    const sid = sidOf(token);
    const first = await refreshByBearer(token);
    expect(first.status).toBe(200);
    const replay = await refreshByBearer(token);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('SESSION_EXPIRED');
    expect((await sessions().findOne({ sid }))!.revoked_reason).toBe('refresh_reuse');
    const event = await svc.recorder.waitFor(
      Events.UserLoggedOut,
      (e) => e.payload.session_id === sid,
    );
    expect(event.payload.reason).toBe('refresh_reuse');
    // the token the first refresh gave and the session's cookie are of no use any more
    expect((await http.get('/api/v1/auth/me', { token: first.body.access_token })).status).toBe(
      401,
    );
    expect((await refresh(cookie)).status).toBe(401);
    expect((await refreshByBearer(first.body.access_token)).status).toBe(401);
  });

  test('when one token is sent twice at once, then at most one refresh is honoured and the session ends', async () => {
    const { token } = await signIn();
    const answers = await Promise.all([refreshByBearer(token), refreshByBearer(token)]);
    // the second use ends the session; when that lands before the first use read its session,
    // the first is refused too (a copied token costs its holder the session: never two renewals)
    const statuses = answers.map((a) => a.status).sort();
    expect([
      [200, 401],
      [401, 401],
    ]).toContainEqual(statuses);
    expect(
      await svc.conn.collection('refresh_token_claims').countDocuments({ sid: sidOf(token) }),
    ).toBe(1);
    expect((await sessions().findOne({ sid: sidOf(token) }))!.revoked_reason).toBe('refresh_reuse');
  });

  test('when the session was logged out or revoked, then its token no longer renews it', async () => {
    const loggedOut = await signIn();
    expect(
      (await http.post('/api/v1/auth/logout', undefined, { token: loggedOut.token })).status,
    ).toBe(200);
    const res = await refreshByBearer(expiredCopy(loggedOut.token, 10));
    expect(res.status).toBe(401);

    // revoked in the database only (a password change on another replica): the session decides
    const other = await signIn();
    await sessions().updateOne(
      { sid: sidOf(other.token) },
      { $set: { revoked_at: new Date(), revoked_reason: 'password_change' } },
    );
    const refused = await refreshByBearer(other.token);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('SESSION_EXPIRED');
  });

  test('when the session is idle or too old, then the bearer refresh is refused and the end is announced', async () => {
    for (const [field, reason] of [
      ['last_used_at', 'idle'],
      ['expires_at', 'max_age'],
    ] as const) {
      const { token } = await signIn();
      const sid = sidOf(token);
      const at = field === 'expires_at' ? Date.now() - 1000 : Date.now() - 2 * 3600_000 - 1000;
      await sessions().updateOne({ sid }, { $set: { [field]: new Date(at) } });
      const res = await refreshByBearer(token);
      expect(res.status).toBe(401);
      const event = await svc.recorder.waitFor(
        Events.UserLoggedOut,
        (e) => e.payload.session_id === sid,
      );
      expect(event.payload.reason).toBe(reason);
    }
  });

  test('when the token is forged, then 401 TOKEN_INVALID and nothing is claimed', async () => {
    const { token } = await signIn();
    const [h, p] = token.split('.');
    const res = await refreshByBearer(`${h}.${p}.${base64url('forged')}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('TOKEN_INVALID');
    expect((await refreshByBearer(token)).status).toBe(200);
  });

  test('when the grace is configured, then the service takes it', () => {
    const config = loadAuthConfig({
      ...process.env,
      JWT_PRIVATE_KEY: svc.keys.privateKey,
      REFRESH_BEARER_GRACE_SECONDS: '120',
    });
    expect(config.REFRESH_BEARER_GRACE_SECONDS).toBe(120);
    expect(
      loadAuthConfig({ ...process.env, JWT_PRIVATE_KEY: 'x' }).REFRESH_BEARER_GRACE_SECONDS,
    ).toBe(600);
  });
});

describe('tokens the service refuses', () => {
  test('when a token is signed with another key, then 401', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const other = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const forged = signTestToken({ id: 1, role: 'admin' }, { privateKey: other.privateKey });
    const res = await http.get('/api/v1/users', { token: forged });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('TOKEN_INVALID');
  });

  test('when a token says alg=none, then 401', async () => {
    const header = base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    const now = Math.floor(Date.now() / 1000);
    const payload = base64url(
      JSON.stringify({
        sub: '1',
        sid: 'x',
        role: 'admin',
        email: 'a@b.c',
        iss: TEST_ISSUER,
        aud: TEST_AUDIENCE,
        iat: now,
        exp: now + 600,
      }),
    );
    const res = await http.get('/api/v1/users', { token: `${header}.${payload}.` });
    expect(res.status).toBe(401);
  });

  test('when a token is HS256-signed with the public key as secret, then 401', async () => {
    const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const now = Math.floor(Date.now() / 1000);
    const payload = base64url(
      JSON.stringify({
        sub: '1',
        sid: 'x',
        role: 'admin',
        email: 'a@b.c',
        iss: TEST_ISSUER,
        aud: TEST_AUDIENCE,
        iat: now,
        exp: now + 600,
      }),
    );
    const { createHmac } = await import('node:crypto');
    const sig = createHmac('sha256', svc.keys.publicKey)
      .update(`${header}.${payload}`)
      .digest('base64url');
    expect((await http.get('/api/v1/users', { token: `${header}.${payload}.${sig}` })).status).toBe(
      401,
    );
  });

  test('when a token has expired, then 401 TOKEN_EXPIRED', async () => {
    const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
    const now = Math.floor(Date.now() / 1000);
    const payload = base64url(
      JSON.stringify({
        sub: '1',
        sid: 'x',
        role: 'admin',
        email: 'a@b.c',
        name: 'A',
        iss: TEST_ISSUER,
        aud: TEST_AUDIENCE,
        iat: now - 1000,
        exp: now - 100,
      }),
    );
    const signer = createSign('RSA-SHA256');
    signer.update(`${header}.${payload}`);
    const token = `${header}.${payload}.${signer.sign(svc.keys.privateKey).toString('base64url')}`;
    const res = await http.get('/api/v1/users', { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('TOKEN_EXPIRED');
  });
});

describe('profile and password', () => {
  let token: string;
  let email: string;
  beforeAll(async () => {
    const admin = await login();
    email = `profile-${Date.now()}@example.org`;
    const created = await http.post(
      '/api/v1/users',
      { name: 'Olena', email, role: 'volunteer', password: 'volunteer-pass-1' },
      { token: admin },
    );
    expect(created.status).toBe(201);
    token = await login(email, 'volunteer-pass-1');
  });

  test('when a volunteer edits name and e-mail, then both change and an event records old and new', async () => {
    const newEmail = email.replace('profile-', 'profile2-');
    const res = await http.patch(
      '/api/v1/auth/profile',
      { name: 'Olena K.', email: newEmail },
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Olena K.', email: newEmail, role: 'volunteer' });
    const event = await svc.recorder.waitFor(
      Events.UserUpdated,
      (e) => e.payload.user.email === newEmail,
    );
    expect(event.payload.changes.name).toEqual({ old: 'Olena', new: 'Olena K.' });
    email = newEmail;
  });

  test('when the profile tries to change the role, then 422 and nothing changes', async () => {
    const res = await http.patch('/api/v1/auth/profile', { role: 'admin' }, { token });
    expect(res.status).toBe(422);
    expect((await http.get('/api/v1/auth/me', { token })).body.role).toBe('volunteer');
  });

  test('when the profile takes an e-mail in use, then 409', async () => {
    const res = await http.patch('/api/v1/auth/profile', { email: ADMIN.email }, { token });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EMAIL_TAKEN');
  });

  test('when the password change breaks a rule, then it is refused with the spec messages', async () => {
    const short = await http.patch(
      '/api/v1/auth/password',
      { current_password: 'volunteer-pass-1', new_password: 'short' },
      { token },
    );
    expect(short.status).toBe(422);
    expect(short.body.detail[0]).toMatchObject({
      loc: ['body', 'new_password'],
      msg: 'Passwort muss mindestens 12 Zeichen haben',
    });
    for (const [lang, msg] of [
      ['de', 'Dieses Passwort ist zu leicht zu erraten'],
      ['uk', 'Цей пароль занадто легко вгадати'],
    ]) {
      const common = await http.patch(
        '/api/v1/auth/password',
        { current_password: 'volunteer-pass-1', new_password: 'password1234' },
        { token, headers: { 'accept-language': lang! } },
      );
      expect(common.status).toBe(422);
      expect(common.body.code).toBe('PASSWORD_TOO_WEAK');
      expect(common.body.detail[0]).toMatchObject({
        loc: ['body', 'new_password'],
        type: 'password_too_weak',
        msg: expect.stringContaining(msg!),
      });
    }
    const same = await http.patch(
      '/api/v1/auth/password',
      { current_password: 'volunteer-pass-1', new_password: 'volunteer-pass-1' },
      { token },
    );
    expect(same.status).toBe(422);
    expect(same.body.detail[0]).toMatchObject({
      loc: ['body', 'new_password'],
      msg: 'Neues Passwort muss sich vom aktuellen unterscheiden',
    });
    const wrong = await http.patch(
      '/api/v1/auth/password',
      { current_password: 'not-the-password', new_password: 'another-pass-2' },
      { token },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('CURRENT_PASSWORD_WRONG');
  });

  test('when the password changes, then old sessions end, a new token works, and only the new password logs in', async () => {
    const otherDevice = await signIn(email, 'volunteer-pass-1');
    const thisDevice = await signIn(email, 'volunteer-pass-1');
    const res = await http.patch(
      '/api/v1/auth/password',
      { current_password: 'volunteer-pass-1', new_password: 'brand-new-pass-3' },
      { token: thisDevice.token },
    );
    expect(res.status).toBe(200);
    expect(typeof res.body.access_token).toBe('string');
    expect((await refresh(otherDevice.refresh)).status).toBe(401);
    expect((await refresh(thisDevice.refresh)).status).toBe(401);
    expect((await http.get('/api/v1/auth/me', { token: res.body.access_token })).status).toBe(200);
    // the new session's cookie came with the answer
    expect((await refresh(refreshCookie(res)!.value)).status).toBe(200);
    expect(
      (await http.post('/api/v1/auth/login', { email, password: 'volunteer-pass-1' })).status,
    ).toBe(401);
    await login(email, 'brand-new-pass-3');
    await svc.recorder.waitFor(Events.UserPasswordChanged, (e) => e.payload.user.email === email);
  });
});

describe('users (admins only)', () => {
  let admin: string;
  let adminId: number;
  beforeAll(async () => {
    admin = await login();
    adminId = (await http.get('/api/v1/auth/me', { token: admin })).body.id;
  });

  test('when an admin creates, lists, searches, filters, edits and deletes users, then each step is reflected', async () => {
    const stamp = Date.now();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await http.post(
        '/api/v1/users',
        {
          name: `Helfer ${stamp} ${i}`,
          email: `helfer${i}-${stamp}@example.org`,
          role: i === 0 ? 'admin' : 'volunteer',
          password: 'helper-pass-1',
        },
        { token: admin },
      );
      expect(res.status).toBe(201);
      expect(res.body).not.toHaveProperty('password_hash');
      ids.push(res.body.id);
    }
    const page1 = await http.get(`/api/v1/users?search=${stamp}&limit=2&page=1`, { token: admin });
    expect(page1.body).toMatchObject({ total: 5, page: 1, limit: 2 });
    expect(page1.body.users.map((u: { id: number }) => u.id)).toEqual(ids.slice(0, 2));
    const page3 = await http.get(`/api/v1/users?search=${stamp}&limit=2&page=3`, { token: admin });
    expect(page3.body.users.map((u: { id: number }) => u.id)).toEqual(ids.slice(4));
    const volunteers = await http.get(`/api/v1/users?search=${stamp}&role=volunteer`, {
      token: admin,
    });
    expect(volunteers.body.total).toBe(4);
    const byMail = await http.get(`/api/v1/users?search=HELFER2-${stamp}`, { token: admin });
    expect(byMail.body.users).toHaveLength(1);
    const regexy = await http.get(`/api/v1/users?search=${encodeURIComponent('.*(')}`, {
      token: admin,
    });
    expect(regexy.status).toBe(200);
    expect(regexy.body.total).toBe(0);

    const edited = await http.patch(
      `/api/v1/users/${ids[1]}`,
      { name: 'Neu', role: 'admin', password: '' },
      { token: admin },
    );
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Neu', role: 'admin' });
    const ev = await svc.recorder.waitFor(Events.UserUpdated, (e) => e.payload.user.id === ids[1]);
    expect(ev.payload.changes.role).toEqual({ old: 'volunteer', new: 'admin' });
    expect(ev.actor?.id).toBe(adminId);

    const dup = await http.post(
      '/api/v1/users',
      {
        name: 'X',
        email: `helfer3-${stamp}@example.org`,
        role: 'volunteer',
        password: 'helper-pass-1',
      },
      { token: admin },
    );
    expect(dup.status).toBe(409);

    const del = await http.delete(`/api/v1/users/${ids[4]}`, { token: admin });
    expect(del.status).toBe(200);
    expect((await http.get(`/api/v1/users/${ids[4]}`, { token: admin })).status).toBe(404);
    await svc.recorder.waitFor(Events.UserDeleted, (e) => e.payload.user.id === ids[4]);
    // the e-mail of a deleted user is free again
    const again = await http.post(
      '/api/v1/users',
      {
        name: 'Wieder',
        email: `helfer4-${stamp}@example.org`,
        role: 'volunteer',
        password: 'helper-pass-1',
      },
      { token: admin },
    );
    expect(again.status).toBe(201);
  });

  test('when the user form breaks its rules, then 422 names the fields', async () => {
    const res = await http.post(
      '/api/v1/users',
      { name: '', email: 'x', role: 'boss', password: '1234' },
      { token: admin },
    );
    expect(res.status).toBe(422);
    const byField = Object.fromEntries(
      res.body.detail.map((d: { loc: string[]; msg: string }) => [d.loc[1], d.msg]),
    );
    expect(byField).toEqual({
      name: 'Name ist erforderlich',
      email: 'Ungültige E-Mail-Adresse',
      role: 'Ungültige Rolle',
      password: 'Passwort muss mindestens 12 Zeichen haben',
    });
  });

  test.each(['password1234', 'qwertyuiop12', 'moebel-admin-2026'])(
    'when an admin creates a user with the common password %p, then 422 PASSWORD_TOO_WEAK and no user',
    async (password) => {
      const admin = await login();
      const email = `weak-${Date.now()}@example.org`;
      const res = await http.post(
        '/api/v1/users',
        { name: 'Weak', email, role: 'volunteer', password },
        { token: admin },
      );
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('PASSWORD_TOO_WEAK');
      expect(res.body.detail[0].loc).toEqual(['body', 'password']);
      const found = await http.get(`/api/v1/users?search=${email}`, { token: admin });
      expect(found.body.total).toBe(0);
    },
  );

  test('when an admin deletes their own row, then 409 and they still exist', async () => {
    const res = await http.delete(`/api/v1/users/${adminId}`, { token: admin });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CANNOT_DELETE_SELF');
  });

  test('when the last admin would be demoted, then 409 LAST_ADMIN', async () => {
    // demote every other admin first, then try the last one
    const admins = await http.get('/api/v1/users?role=admin&limit=100', { token: admin });
    for (const u of admins.body.users as { id: number }[]) {
      if (u.id !== adminId)
        expect(
          (await http.patch(`/api/v1/users/${u.id}`, { role: 'volunteer' }, { token: admin }))
            .status,
        ).toBe(200);
    }
    const res = await http.patch(
      `/api/v1/users/${adminId}`,
      { role: 'volunteer' },
      { token: admin },
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('LAST_ADMIN');
    expect((await http.get(`/api/v1/users/${adminId}`, { token: admin })).body.role).toBe('admin');
  });

  test('when the only two admins delete or demote each other at the same moment, then one of them is always left', async () => {
    for (let round = 0; round < 4; round++) {
      const own = await startAuth();
      try {
        const h = api(own.url);
        const loginAs = async (email: string, password: string) => {
          const res = await h.post('/api/v1/auth/login', { email, password });
          expect(res.status).toBe(200);
          return res.body.access_token as string;
        };
        const first = await loginAs(ADMIN.email, ADMIN.password);
        const firstId = (await h.get('/api/v1/auth/me', { token: first })).body.id as number;
        const other = { email: `race-${round}@example.org`, password: 'race-admin-pass-1' };
        const created = await h.post(
          '/api/v1/users',
          { name: `Race ${round}`, role: 'admin', ...other },
          { token: first },
        );
        expect(created.status).toBe(201);
        const second = await loginAs(other.email, other.password);
        // even rounds delete, odd rounds demote
        const act = (token: string, id: number) =>
          round % 2 === 0
            ? h.delete(`/api/v1/users/${id}`, { token })
            : h.patch(`/api/v1/users/${id}`, { role: 'volunteer' }, { token });
        const results = await Promise.all([act(first, created.body.id), act(second, firstId)]);
        const refused = results.filter((r) => r.status === 409);
        expect(refused.length).toBeGreaterThanOrEqual(1);
        for (const r of refused) expect(r.body.code).toBe('LAST_ADMIN');
        const admins = await own.conn
          .collection('users')
          .countDocuments({ role: 'admin', deleted_at: null });
        expect(admins).toBeGreaterThanOrEqual(1);
      } finally {
        await own.stop();
      }
    }
  });

  test('when a volunteer calls /users, then 403; without a token 401', async () => {
    const email = `vol-${Date.now()}@example.org`;
    await http.post(
      '/api/v1/users',
      { name: 'Vol', email, role: 'volunteer', password: 'volunteer-pass-1' },
      { token: admin },
    );
    const vol = await login(email, 'volunteer-pass-1');
    expect((await http.get('/api/v1/users', { token: vol })).status).toBe(403);
    expect(
      (
        await http.post(
          '/api/v1/users',
          { name: 'x', email: 'y@z.de', role: 'admin', password: '12345678' },
          { token: vol },
        )
      ).status,
    ).toBe(403);
    expect((await http.delete(`/api/v1/users/${adminId}`, { token: vol })).status).toBe(403);
    expect((await http.get('/api/v1/users')).status).toBe(401);
  });

  test('when a role changes, then that user must log in again', async () => {
    const email = `role-${Date.now()}@example.org`;
    const created = await http.post(
      '/api/v1/users',
      { name: 'R', email, role: 'volunteer', password: 'volunteer-pass-1' },
      { token: admin },
    );
    const session = await signIn(email, 'volunteer-pass-1');
    await http.patch(`/api/v1/users/${created.body.id}`, { role: 'admin' }, { token: admin });
    expect((await refresh(session.refresh)).status).toBe(401);
  });
});

describe('the seeded administrator', () => {
  test('when the seeded admin of a production start logs in, then the answer asks for a password change, until it is done', async () => {
    const svc = await startAuth({ NODE_ENV: 'production' });
    try {
      const h = api(svc.url);
      const first = await h.post('/api/v1/auth/login', {
        email: ADMIN.email,
        password: ADMIN.password,
      });
      expect(first.status).toBe(200);
      expect(first.body.must_change_password).toBe(true);
      const changed = await h.patch(
        '/api/v1/auth/password',
        { current_password: ADMIN.password, new_password: 'Lindenbaum-Weg-17' },
        { token: first.body.access_token },
      );
      expect(changed.status).toBe(200);
      const next = await h.post('/api/v1/auth/login', {
        email: ADMIN.email,
        password: 'Lindenbaum-Weg-17',
      });
      expect(next.status).toBe(200);
      expect(next.body.must_change_password).toBeUndefined();
      // staff created by an admin are not asked, nor a development start's own admin
      expect(
        (await http.post('/api/v1/auth/login', ADMIN)).body.must_change_password,
      ).toBeUndefined();
      const email = `created-${Date.now()}@example.org`;
      await h.post(
        '/api/v1/users',
        { name: 'C', email, role: 'volunteer', password: 'volunteer-pass-1' },
        { token: next.body.access_token },
      );
      const created = await h.post('/api/v1/auth/login', { email, password: 'volunteer-pass-1' });
      expect(created.body.must_change_password).toBeUndefined();
    } finally {
      await svc.stop();
    }
  });
});

describe('login throttling', () => {
  test('when an account fails too often, then even the right password is refused with 429 until the window ends', async () => {
    const email = `throttle-${Date.now()}@example.org`;
    const admin = await login();
    await http.post(
      '/api/v1/users',
      { name: 'T', email, role: 'volunteer', password: 'right-password-1' },
      { token: admin },
    );
    for (let i = 0; i < 3; i++) {
      expect(
        (await http.post('/api/v1/auth/login', { email, password: 'wrong-password' })).status,
      ).toBe(401);
    }
    const locked = await http.post('/api/v1/auth/login', { email, password: 'right-password-1' });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('LOGIN_THROTTLED');
    expect(locked.body.retry_after).toBeGreaterThan(0);
    // other accounts are not affected
    await login();
  });

  test('when 15 wrong passwords for one account arrive at once, then at most the budget of 5 is checked and the rest refused with 429', async () => {
    const email = `parallel-${Date.now()}@example.org`;
    const admin = await login();
    await http.post(
      '/api/v1/users',
      { name: 'P', email, role: 'volunteer', password: 'right-password-1' },
      { token: admin },
    );
    const answers = await Promise.all(
      Array.from({ length: 15 }, () =>
        http.post('/api/v1/auth/login', { email, password: 'wrong-password' }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  });

  test("when a stranger's guesses from other addresses fail, then the staff member's own address is not locked", async () => {
    const svc2 = await startAuth({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '2' });
    try {
      const h = api(svc2.url);
      // services trust one hop: the gateway's X-Forwarded-For names the client
      for (const ip of ['198.51.100.1', '198.51.100.2']) {
        for (let i = 0; i < 2; i++) {
          const res = await h.post(
            '/api/v1/auth/login',
            { email: ADMIN.email, password: 'wrong-password' },
            { headers: { 'x-forwarded-for': ip } },
          );
          expect(res.status).toBe(401);
        }
        const locked = await h.post(
          '/api/v1/auth/login',
          { email: ADMIN.email, password: ADMIN.password },
          { headers: { 'x-forwarded-for': ip } },
        );
        expect(locked.status).toBe(429);
      }
      const own = await h.post(
        '/api/v1/auth/login',
        { email: ADMIN.email, password: ADMIN.password },
        { headers: { 'x-forwarded-for': '192.0.2.50' } },
      );
      expect(own.status).toBe(200);
    } finally {
      await svc2.stop();
    }
  });

  test('when more logins arrive than argon2 may work on and wait for, then the surplus is refused with 429 at once', async () => {
    const svc2 = await startAuth({
      ARGON2_MAX_CONCURRENT: '1',
      ARGON2_MAX_QUEUE: '1',
      LOGIN_MAX_FAILURES_PER_IP: '1000',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000',
    });
    try {
      const h = api(svc2.url);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          h.post('/api/v1/auth/login', { email: `flood${i}@example.org`, password: 'wrong-pass' }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
      expect(answers.find((a) => a.status === 429)?.body.code).toBe('RATE_LIMITED');
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    } finally {
      await svc2.stop();
    }
  });

  test('when an IP fails too often across accounts, then it is refused', async () => {
    const svc2 = await startAuth({
      LOGIN_MAX_FAILURES_PER_IP: '4',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '100',
    });
    try {
      const h = api(svc2.url);
      for (let i = 0; i < 4; i++) {
        expect(
          (
            await h.post('/api/v1/auth/login', {
              email: `nobody${i}@example.org`,
              password: 'whatever-pass',
            })
          ).status,
        ).toBe(401);
      }
      expect(
        (await h.post('/api/v1/auth/login', { email: ADMIN.email, password: ADMIN.password }))
          .status,
      ).toBe(429);
    } finally {
      await svc2.stop();
    }
  });
});
