import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '../../../../test/server';
import { ADMIN, bearerOf, fakeToken, meHandler, renderAdmin } from '../../test/admin-test-utils';
import { selectToken, selectUser } from '../../session';

describe('profile page', () => {
  beforeEach(() => server.use(meHandler(ADMIN)));

  test('when the profile is saved, then the new name shows in the sidebar and the success goes away after 3 s', async () => {
    let current = ADMIN;
    server.use(
      http.get(apiUrl('/auth/me'), () => HttpResponse.json(current)),
      http.patch(apiUrl('/auth/profile'), async ({ request }) => {
        const body = (await request.json()) as { name: string; email: string };
        current = { ...ADMIN, ...body };
        return HttpResponse.json(current);
      }),
    );
    const { user, store } = renderAdmin('/admin/profile');
    const name = await screen.findByLabelText(/^Name/);
    await user.clear(name);
    await user.type(name, 'Anna Neu');
    jest.useFakeTimers({ advanceTimers: true });
    try {
      await user.click(screen.getByRole('button', { name: 'Profil speichern' }));
      expect(await screen.findByText('Profil erfolgreich gespeichert.')).toBeInTheDocument();
      expect(selectUser(store.getState() as never)).toMatchObject({ name: 'Anna Neu' });
      expect(screen.getAllByText('Anna Neu')[0]).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(3000));
      await waitFor(() =>
        expect(screen.queryByText('Profil erfolgreich gespeichert.')).not.toBeInTheDocument(),
      );
    } finally {
      jest.useRealTimers();
    }
  });

  test('when the name is emptied, then "Name ist erforderlich" and nothing is sent', async () => {
    const { user } = renderAdmin('/admin/profile');
    const name = await screen.findByLabelText(/^Name/);
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Profil speichern' }));
    expect(await screen.findByText('Name ist erforderlich')).toBeInTheDocument();
  });

  test('when the password is changed, then the fresh token of the answer replaces the old one', async () => {
    const fresh = fakeToken(900, 'after-change');
    let sentWith: string | null = null;
    let body: unknown;
    server.use(
      http.patch(apiUrl('/auth/password'), async ({ request }) => {
        sentWith = bearerOf(request);
        body = await request.json();
        return HttpResponse.json({
          success: true,
          access_token: fresh,
          token_type: 'bearer',
          expires_in: 900,
          user: ADMIN,
        });
      }),
    );
    const { user, store, token: old } = renderAdmin('/admin/profile');
    await user.click(await screen.findByRole('tab', { name: 'Passwort ändern' }));
    await user.type(screen.getByLabelText(/^Aktuelles Passwort/), 'altes-passwort');
    await user.type(screen.getByLabelText(/^Neues Passwort \*/), 'Gurkenglas-wandert-7');
    // the server's policy, loaded with the first character typed
    expect(
      await screen.findByText('Stark genug: Dieses Passwort wird angenommen.'),
    ).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Neues Passwort bestätigen/), 'Gurkenglas-wandert-7');
    await user.click(screen.getByRole('button', { name: 'Passwort ändern' }));
    expect(await screen.findByText(/Passwort erfolgreich geändert/)).toBeInTheDocument();
    expect(sentWith).toBe(old);
    expect(body).toEqual({
      current_password: 'altes-passwort',
      new_password: 'Gurkenglas-wandert-7',
    });
    expect(selectToken(store.getState() as never)).toBe(fresh);
  });
});
