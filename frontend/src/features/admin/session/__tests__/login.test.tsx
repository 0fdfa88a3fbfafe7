import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderApp } from '../../../../test/render';
import { apiUrl, server } from '../../../../test/server';
import { ADMIN, fakeToken, meHandler, signIn } from '../../test/admin-test-utils';
import { SESSION_HINT_KEY } from '../session-slice';

function describedErrors(input: HTMLElement): string {
  return (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');
}

async function openLogin(path = '/admin/login') {
  const view = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'Anmeldung für Mitarbeitende' });
  return {
    ...view,
    email: screen.getByLabelText(/E-Mail/),
    password: screen.getByLabelText(/Passwort/),
    submit: screen.getByRole('button', { name: 'Anmelden' }),
  };
}

describe('login', () => {
  test('when the form is sent empty, then e-mail and password are required and nothing is sent', async () => {
    let called = false;
    server.use(http.post(apiUrl('/auth/login'), () => ((called = true), HttpResponse.json({}))));
    const { email, password, submit, user } = await openLogin();
    await user.click(submit);
    expect(describedErrors(email)).toContain('E-Mail ist erforderlich');
    expect(describedErrors(password)).toContain('Passwort ist erforderlich');
    expect(email).toHaveFocus();
    expect(called).toBe(false);
  });

  test('when the e-mail has no e-mail shape and the password is short, then both rules are named', async () => {
    const { email, password, submit, user } = await openLogin();
    await user.type(email, 'anna.example.org');
    await user.type(password, 'kurz');
    await user.click(submit);
    expect(describedErrors(email)).toContain('Ungültige E-Mail-Adresse');
    expect(describedErrors(password)).toContain('Passwort muss mindestens 8 Zeichen haben');
  });

  test('when the server refuses the login, then its message is shown', async () => {
    server.use(
      http.post(apiUrl('/auth/login'), () =>
        HttpResponse.json(
          {
            success: false,
            code: 'INVALID_CREDENTIALS',
            message: 'E-Mail oder Passwort ist falsch.',
          },
          { status: 401 },
        ),
      ),
    );
    const { email, password, submit, user } = await openLogin();
    await user.type(email, 'admin@moebelbruecke.local');
    await user.type(password, 'falsches-passwort');
    await user.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('E-Mail oder Passwort ist falsch.');
    expect(localStorage.getItem(SESSION_HINT_KEY)).toBeNull();
  });

  test('when a logged-out visitor opens an admin page and logs in, then they land on that page with its query', async () => {
    const token = fakeToken(900);
    let body: unknown;
    server.use(
      meHandler(ADMIN),
      http.post(apiUrl('/auth/login'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({
          access_token: token,
          token_type: 'bearer',
          expires_in: 900,
          user: ADMIN,
        });
      }),
    );
    const { email, password, submit, user, router } = await openLogin('/admin/profile?tab=2#top');
    expect(router.state.location.pathname).toBe('/admin/login');
    await user.type(email, ' admin@moebelbruecke.local ');
    await user.type(password, 'moebel-admin-2026');
    await user.click(submit);
    await screen.findByRole('heading', { level: 1, name: 'Mein Profil' });
    expect(router.state.location).toMatchObject({
      pathname: '/admin/profile',
      search: '?tab=2',
      hash: '#top',
    });
    expect(body).toEqual({ email: 'admin@moebelbruecke.local', password: 'moebel-admin-2026' });
    // the browser keeps only the flag that there is a session: the token stays in memory
    expect(localStorage.getItem(SESSION_HINT_KEY)).toBe('1');
    expect(JSON.stringify({ ...localStorage })).not.toContain(token);
    expect(JSON.stringify({ ...localStorage })).not.toContain(ADMIN.email);
  });

  test('when the login page opens without a remembered page, then login leads to the categories', async () => {
    server.use(
      meHandler(ADMIN),
      http.post(apiUrl('/auth/login'), () =>
        HttpResponse.json({
          access_token: fakeToken(900),
          token_type: 'bearer',
          expires_in: 900,
          user: ADMIN,
        }),
      ),
      http.get(apiUrl('/categories/'), () => HttpResponse.json({ success: true, data: [] })),
    );
    const { email, password, submit, user, router } = await openLogin();
    await user.type(email, 'admin@moebelbruecke.local');
    await user.type(password, 'moebel-admin-2026');
    await user.click(submit);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/categories'));
  });

  test('when the login page opens, then it links back to the public site', async () => {
    await openLogin();
    expect(screen.getByRole('link', { name: /Zurück zur Website/ })).toHaveAttribute('href', '/');
  });

  test('when the session cannot be refreshed on an admin page, then the login page says the session expired', async () => {
    signIn(ADMIN, fakeToken(900));
    server.use(
      http.get(apiUrl('/auth/me'), () =>
        HttpResponse.json({ code: 'TOKEN_INVALID', message: 'Ungültig' }, { status: 401 }),
      ),
      http.post(apiUrl('/auth/refresh'), () =>
        HttpResponse.json({ code: 'SESSION_EXPIRED', message: 'Session expired' }, { status: 401 }),
      ),
    );
    const { router } = renderApp('/admin/profile');
    const notice = await screen.findByText(
      'Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.',
    );
    expect(notice).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(router.state.location.state).toMatchObject({ from: { pathname: '/admin/profile' } });
    expect(localStorage.getItem(SESSION_HINT_KEY)).toBeNull();
  });

  test('when the logout button is used, then the session is gone and the login page shows', async () => {
    let loggedOut = false;
    signIn(ADMIN);
    server.use(
      meHandler(ADMIN),
      http.post(
        apiUrl('/auth/logout'),
        () => ((loggedOut = true), HttpResponse.json({ success: true })),
      ),
    );
    const { user, router } = renderApp('/admin/profile');
    await screen.findByRole('heading', { level: 1, name: 'Mein Profil' });
    const sidebar = screen.getAllByRole('navigation', { name: 'Verwaltungsnavigation' })[0]!
      .parentElement!;
    await user.click(within(sidebar).getByRole('button', { name: 'Abmelden' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(loggedOut).toBe(true);
    expect(localStorage.getItem(SESSION_HINT_KEY)).toBeNull();
  });

  test('when another tab logs out, then this tab leaves the back-office too; when one logs in, this tab picks the session up', async () => {
    signIn(ADMIN);
    server.use(meHandler(ADMIN));
    const { router } = renderApp('/admin/profile');
    await screen.findByRole('heading', { level: 1, name: 'Mein Profil' });
    act(() => {
      localStorage.removeItem(SESSION_HINT_KEY);
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION_HINT_KEY }));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    act(() => {
      localStorage.setItem(SESSION_HINT_KEY, '1');
      window.dispatchEvent(new StorageEvent('storage', { key: SESSION_HINT_KEY }));
    });
    // the refresh cookie of the other tab's login brings this tab back where it was
    await screen.findByRole('heading', { level: 1, name: 'Mein Profil' });
    expect(router.state.location.pathname).toBe('/admin/profile');
  });

  test('when the seeded administrator logs in for the first time, then the password tab of the profile opens with a notice', async () => {
    server.use(
      meHandler(ADMIN),
      http.post(apiUrl('/auth/login'), () =>
        HttpResponse.json({
          access_token: fakeToken(900),
          token_type: 'bearer',
          expires_in: 900,
          user: ADMIN,
          must_change_password: true,
        }),
      ),
    );
    const { email, password, submit, user, router } = await openLogin('/admin/applications');
    await user.type(email, 'admin@moebelbruecke.local');
    await user.type(password, 'moebel-admin-2026');
    await user.click(submit);
    await screen.findByRole('heading', { level: 1, name: 'Mein Profil' });
    expect(router.state.location.pathname).toBe('/admin/profile');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Bitte legen Sie zuerst ein eigenes Passwort fest',
    );
    expect(screen.getByRole('tab', { name: 'Passwort ändern' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });
});
