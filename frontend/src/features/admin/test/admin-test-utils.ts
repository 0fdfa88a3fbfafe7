import { http, HttpResponse } from 'msw';
import deAdmin from '../../../../public/locales/de/admin.json';
import ukAdmin from '../../../../public/locales/uk/admin.json';
import { i18n } from '../../../app/i18n';
import { renderApp } from '../../../test/render';
import { apiUrl } from '../../../test/server';
import { TOKEN_KEY, USER_KEY, type StaffUser } from '../session/session-slice';

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

/** A stored session, as a previous login leaves it in the browser. */
export function signIn(user: StaffUser = ADMIN, token = fakeToken()): string {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
  return token;
}

/** GET /auth/me answering the given user. */
export const meHandler = (user: StaffUser = ADMIN) =>
  http.get(apiUrl('/auth/me'), () => HttpResponse.json(user));

/** Renders the app at an /admin address with a stored session of `user`. */
export function renderAdmin(path: string, user: StaffUser = ADMIN) {
  signIn(user);
  return renderApp(path);
}

/** The bearer token a request carried (null without one). */
export const bearerOf = (request: Request) =>
  request.headers.get('authorization')?.replace(/^Bearer /, '') ?? null;
