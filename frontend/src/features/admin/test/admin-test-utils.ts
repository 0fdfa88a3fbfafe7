import { http, HttpResponse } from 'msw';
import deAdmin from '../../../../public/locales/de/admin.json';
import ukAdmin from '../../../../public/locales/uk/admin.json';
import { i18n } from '../../../app/i18n';
import { renderApp } from '../../../test/render';
import { apiUrl, server } from '../../../test/server';
import { SESSION_HINT_KEY, type StaffUser } from '../session';

/** The back-office's translations, as the HTTP backend would load them. */
i18n.addResourceBundle('de', 'admin', deAdmin, true, true);
i18n.addResourceBundle('uk', 'admin', ukAdmin, true, true);

export const ADMIN: StaffUser = {
  id: 1,
  name: 'Anna Admin',
  email: 'admin@moebelbruecke.local',
  role: 'admin',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

export const VOLUNTEER: StaffUser = {
  id: 2,
  name: 'Vera Volunteer',
  email: 'vera@moebelbruecke.local',
  role: 'volunteer',
  created_at: '2026-01-02T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
};

/** A partner agency's social worker (issue 44). */
export const REFERRER: StaffUser = {
  id: 7,
  name: 'Sara Sozial',
  email: 'sara@beratung.example',
  role: 'referrer',
  agency_id: 3,
  created_at: '2026-01-03T00:00:00.000Z',
  updated_at: '2026-01-03T00:00:00.000Z',
};

const base64url = (value: object) =>
  Buffer.from(JSON.stringify(value))
    .toString('base64')
    .replace(/=+$/, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');

/** An unsigned JWT that expires in `secondsLeft` (the SPA only reads `exp`). */
export function fakeToken(secondsLeft = 900, tag = 'a'): string {
  const exp = Math.floor(Date.now() / 1000) + secondsLeft;
  return `${base64url({ alg: 'RS256', typ: 'JWT' })}.${base64url({ sub: '1', exp, tag })}.sig-${tag}`;
}

/** POST /auth/refresh answering a fresh token for `user` (the refresh cookie is still good). */
export const refreshAnswering = (user: StaffUser = ADMIN, token = fakeToken()) =>
  http.post(apiUrl('/auth/refresh'), () =>
    HttpResponse.json({ access_token: token, token_type: 'bearer', expires_in: 900, user }),
  );

/**
 * A session of an earlier visit, as the browser has it: the flag in local storage and the
 * httpOnly refresh cookie (here: the server answering the refresh with `token` and `user`).
 */
export function signIn(user: StaffUser = ADMIN, token = fakeToken()): string {
  localStorage.setItem(SESSION_HINT_KEY, '1');
  server.use(refreshAnswering(user, token));
  return token;
}

/** GET /auth/me answering the given user. */
export const meHandler = (user: StaffUser = ADMIN) =>
  http.get(apiUrl('/auth/me'), () => HttpResponse.json(user));

/** Renders the app at an /admin address with a session of `user` (and its access token). */
export function renderAdmin(path: string, user: StaffUser = ADMIN) {
  const token = signIn(user);
  return { ...renderApp(path), token };
}

/** The bearer token a request carried (null without one). */
export const bearerOf = (request: Request) =>
  request.headers.get('authorization')?.replace(/^Bearer /, '') ?? null;
