import { http, HttpResponse } from 'msw';
import { api, refreshThresholdOf, restoreSession } from '../../../../app/api';
import { makeStore } from '../../../../app/store';
import { apiUrl, server } from '../../../../test/server';
import { ADMIN, bearerOf, fakeToken } from '../../test/admin-test-utils';
import { selectSession, SESSION_HINT_KEY, startSession } from '../session-slice';

const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<unknown, string>({ query: (tag) => `/probe/${tag}` }),
  }),
});

/** A store whose page holds a session with `token` (in memory: nothing else knows it). */
let signedInStore: ReturnType<typeof makeStore> | undefined;
function signIn(user = ADMIN, token = fakeToken()): string {
  signedInStore = makeStore();
  startSession(signedInStore.dispatch, { access_token: token, user });
  return token;
}
afterEach(() => {
  signedInStore = undefined;
});

async function callProbe(store = signedInStore ?? makeStore(), tag = 'x') {
  const result = await store.dispatch(
    probeApi.endpoints.probe.initiate(tag, { forceRefetch: true }),
  );
  return { store, data: result.data, error: result.error };
}

const sessionOf = (store: ReturnType<typeof makeStore>) => selectSession(store.getState() as never);

/** POST /auth/refresh answering `next` (or a 401), counting calls and the bearer tokens sent. */
function refreshHandler(next: string | null, seen: (string | null)[]) {
  return http.post(apiUrl('/auth/refresh'), ({ request }) => {
    seen.push(bearerOf(request));
    return next
      ? HttpResponse.json({
          access_token: next,
          token_type: 'bearer',
          expires_in: 900,
          user: ADMIN,
        })
      : HttpResponse.json(
          { success: false, code: 'SESSION_EXPIRED', message: 'Session expired' },
          { status: 401 },
        );
  });
}

describe('base query with a staff session', () => {
  test('when nobody is logged in, then calls carry no Authorization header (the public pages)', async () => {
    let auth: string | null = 'unset';
    server.use(
      http.get(apiUrl('/probe/:tag'), ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json({ ok: true });
      }),
    );
    expect((await callProbe()).data).toEqual({ ok: true });
    expect(auth).toBeNull();
  });

  test('when the token has plenty of time left, then it is sent as bearer without a refresh', async () => {
    const token = signIn(ADMIN, fakeToken(900));
    const refreshes: (string | null)[] = [];
    const sent: (string | null)[] = [];
    server.use(
      refreshHandler(fakeToken(900, 'b'), refreshes),
      http.get(apiUrl('/probe/:tag'), ({ request }) => {
        sent.push(bearerOf(request));
        return HttpResponse.json({ ok: true });
      }),
    );
    await callProbe();
    expect(sent).toEqual([token]);
    expect(refreshes).toEqual([]);
  });

  test('when fewer than 300 s remain, then the token is refreshed first and the call carries the new one', async () => {
    const old = signIn(ADMIN, fakeToken(299));
    const fresh = fakeToken(900, 'fresh');
    const refreshes: (string | null)[] = [];
    const sent: (string | null)[] = [];
    server.use(
      refreshHandler(fresh, refreshes),
      http.get(apiUrl('/probe/:tag'), ({ request }) => {
        sent.push(bearerOf(request));
        return HttpResponse.json({ ok: true });
      }),
    );
    const store = signedInStore!;
    // two calls at the same moment share one refresh, which carries the cookie, no bearer token
    await Promise.all([callProbe(store, 'a'), callProbe(store, 'b')]);
    expect(old).not.toBe(fresh);
    expect(refreshes).toEqual([null]);
    expect(sent).toEqual([fresh, fresh]);
    expect(sessionOf(store)).toMatchObject({ token: fresh, isAuthenticated: true });
    // the access token is kept in memory only
    expect(JSON.stringify({ ...localStorage })).not.toContain(fresh);
  });

  test('when tokens are configured to live shorter than 300 s, then a third of their lifetime is the threshold', () => {
    const now = Math.floor(Date.now() / 1000);
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const token = (iat: number, exp: number) => `${b64({ alg: 'RS256' })}.${b64({ iat, exp })}.s`;
    expect(refreshThresholdOf(token(now, now + 30))).toBe(10);
    expect(refreshThresholdOf(token(now, now + 900))).toBe(300);
    expect(refreshThresholdOf(fakeToken(900))).toBe(300); // no iat: the spec's 300 s
  });

  test('when a call gets 401, then the token is refreshed once and the call retried once with the new token', async () => {
    const old = signIn(ADMIN, fakeToken(900));
    const fresh = fakeToken(900, 'fresh');
    const refreshes: (string | null)[] = [];
    const sent: (string | null)[] = [];
    server.use(
      refreshHandler(fresh, refreshes),
      http.get(apiUrl('/probe/:tag'), ({ request }) => {
        const token = bearerOf(request);
        sent.push(token);
        return token === fresh
          ? HttpResponse.json({ ok: true })
          : HttpResponse.json({ code: 'TOKEN_INVALID', message: 'Ungültig' }, { status: 401 });
      }),
    );
    const { data, store } = await callProbe();
    expect(data).toEqual({ ok: true });
    expect(refreshes).toEqual([null]);
    expect(sent).toEqual([old, fresh]);
    expect(sessionOf(store).isAuthenticated).toBe(true);
  });

  test('when the retry after a refresh gets 401 again, then the session ends as failed without a second refresh', async () => {
    signIn(ADMIN, fakeToken(900));
    const refreshes: (string | null)[] = [];
    let calls = 0;
    server.use(
      refreshHandler(fakeToken(900, 'fresh'), refreshes),
      http.get(apiUrl('/probe/:tag'), () => {
        calls += 1;
        return HttpResponse.json({ code: 'FORBIDDEN', message: 'Nein' }, { status: 401 });
      }),
    );
    const { error, store } = await callProbe();
    expect(error).toMatchObject({ status: 401 });
    expect(calls).toBe(2);
    expect(refreshes).toHaveLength(1);
    expect(sessionOf(store)).toMatchObject({
      isAuthenticated: false,
      token: null,
      endedReason: 'failed',
    });
    expect(localStorage.getItem(SESSION_HINT_KEY)).toBeNull();
  });

  test('when the refresh is refused, then the session is cleared from state and the browser as expired', async () => {
    signIn(ADMIN, fakeToken(900));
    const refreshes: (string | null)[] = [];
    server.use(
      refreshHandler(null, refreshes),
      http.get(apiUrl('/probe/:tag'), () =>
        HttpResponse.json({ code: 'TOKEN_EXPIRED', message: 'Abgelaufen' }, { status: 401 }),
      ),
    );
    const { error, store } = await callProbe();
    expect(error).toMatchObject({ status: 401, code: 'TOKEN_EXPIRED' });
    expect(refreshes).toHaveLength(1);
    expect(sessionOf(store)).toMatchObject({
      isAuthenticated: false,
      user: null,
      endedReason: 'expired',
    });
    expect(localStorage.getItem(SESSION_HINT_KEY)).toBeNull();
  });

  test('when an expired token cannot be refreshed before a call, then the call still goes out, without a token', async () => {
    signIn(ADMIN, fakeToken(-60));
    const refreshes: (string | null)[] = [];
    const sent: (string | null)[] = [];
    server.use(
      refreshHandler(null, refreshes),
      http.get(apiUrl('/probe/:tag'), ({ request }) => {
        sent.push(bearerOf(request));
        return HttpResponse.json({ ok: true });
      }),
    );
    const { data, store } = await callProbe();
    expect(data).toEqual({ ok: true });
    expect(sent).toEqual([null]);
    expect(sessionOf(store).endedReason).toBe('expired');
  });

  test('when the refresh gets no answer (offline), then the session is kept', async () => {
    const token = signIn(ADMIN, fakeToken(100));
    server.use(
      http.post(apiUrl('/auth/refresh'), () => HttpResponse.error()),
      http.get(apiUrl('/probe/:tag'), () => HttpResponse.json({ ok: true })),
    );
    const { store } = await callProbe();
    expect(sessionOf(store)).toMatchObject({ isAuthenticated: true, token });
  });

  test('when the page is reloaded with a session in the cookie, then one refresh restores token and user', async () => {
    localStorage.setItem(SESSION_HINT_KEY, '1');
    localStorage.setItem('token', 'legacy-token'); // where earlier versions kept it
    const refreshes: (string | null)[] = [];
    const fresh = fakeToken(900, 'restored');
    server.use(refreshHandler(fresh, refreshes));
    const store = makeStore();
    expect(sessionOf(store)).toMatchObject({ restoring: true, isAuthenticated: false });
    expect(localStorage.getItem('token')).toBeNull();
    expect(await restoreSession(store)).toBe(true);
    expect(refreshes).toEqual([null]);
    expect(sessionOf(store)).toMatchObject({
      restoring: false,
      isAuthenticated: true,
      token: fresh,
      user: { email: ADMIN.email },
    });
  });

  test('when the page is reloaded and the cookie no longer refreshes, then the session ends as expired', async () => {
    localStorage.setItem(SESSION_HINT_KEY, '1');
    server.use(refreshHandler(null, []));
    const store = makeStore();
    expect(await restoreSession(store)).toBe(false);
    expect(sessionOf(store)).toMatchObject({
      restoring: false,
      isAuthenticated: false,
      endedReason: 'expired',
    });
    expect(localStorage.getItem(SESSION_HINT_KEY)).toBeNull();
  });
});
