import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '../../../../test/server';
import { CATEGORIES, lot } from '../../../../test/fixtures';
import { ADMIN, fakeToken, meHandler, renderAdmin } from '../../test/admin-test-utils';
import { endSession } from '../../session';

const drafts = () => Object.keys(sessionStorage).filter((k) => k.startsWith('draft:'));

beforeEach(() =>
  server.use(
    meHandler(ADMIN),
    http.get(apiUrl('/categories/'), () => HttpResponse.json({ success: true, data: CATEGORIES })),
  ),
);

async function typeHalfALot(user: ReturnType<typeof renderAdmin>['user']) {
  await user.type(await screen.findByLabelText(/^Name \(Deutsch\)/), 'Kleiderschrank');
  await user.type(screen.getByLabelText(/^Kurzbeschreibung \(Deutsch\)/), 'Zweitürig, Eiche');
  await user.selectOptions(screen.getByLabelText(/^Kategorie/), '2');
}

describe('lot form drafts', () => {
  test('when the session ends while a lot is typed, then after the next login the form comes back with the text and says so', async () => {
    let created: Record<string, unknown> | undefined;
    server.use(
      http.post(apiUrl('/auth/login'), () =>
        HttpResponse.json({
          access_token: fakeToken(900, 'again'),
          token_type: 'bearer',
          expires_in: 900,
          user: ADMIN,
        }),
      ),
      http.post(apiUrl('/lots/'), async ({ request }) => {
        created = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(lot(42, created), { status: 201 });
      }),
      http.get(apiUrl('/lots/'), () => HttpResponse.json([])),
      http.get(apiUrl('/lots/count'), () => HttpResponse.json({ count: 0 })),
    );
    const { user, router, store } = renderAdmin('/admin/lots/new');
    await typeHalfALot(user);
    expect(drafts()).toEqual([`draft:${ADMIN.id}:lot:new`]);

    // the refresh was refused (idle too long): the login page shows
    act(() => endSession(store.dispatch, 'expired'));
    await screen.findByText('Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.');
    await user.type(screen.getByLabelText(/E-Mail/), ADMIN.email);
    await user.type(screen.getByLabelText(/Passwort/), 'moebel-admin-2026');
    await user.click(screen.getByRole('button', { name: 'Anmelden' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/lots/new'));
    expect(await screen.findByRole('status')).toHaveTextContent('Entwurf wiederhergestellt');
    expect(screen.getByLabelText(/^Name \(Deutsch\)/)).toHaveValue('Kleiderschrank');
    expect(screen.getByLabelText(/^Kurzbeschreibung \(Deutsch\)/)).toHaveValue('Zweitürig, Eiche');
    // the categories load again after the login: the chosen one is selected once they are there
    await waitFor(() => expect(screen.getByLabelText(/^Kategorie/)).toHaveValue('2'));

    await user.click(screen.getByRole('button', { name: 'Lot anlegen' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/lots'));
    expect(created).toMatchObject({ name: { de: 'Kleiderschrank', uk: '' }, category_id: 2 });
    expect(drafts()).toEqual([]);
  });

  test('when a restored draft is thrown away, then the form is empty again and the draft gone', async () => {
    sessionStorage.setItem(
      `draft:${ADMIN.id}:lot:new`,
      JSON.stringify({ values: { nameDe: 'Alter Entwurf' }, savedAt: new Date().toISOString() }),
    );
    const { user } = renderAdmin('/admin/lots/new');
    expect(await screen.findByLabelText(/^Name \(Deutsch\)/)).toHaveValue('Alter Entwurf');
    await user.click(screen.getByRole('button', { name: 'Entwurf verwerfen' }));
    expect(screen.getByLabelText(/^Name \(Deutsch\)/)).toHaveValue('');
    expect(screen.queryByText(/Entwurf wiederhergestellt/)).not.toBeInTheDocument();
    expect(drafts()).toEqual([]);
  });

  test("when another staff member's draft is in the tab, then it is not shown", async () => {
    sessionStorage.setItem(
      `draft:99:lot:new`,
      JSON.stringify({ values: { nameDe: 'Fremd' }, savedAt: new Date().toISOString() }),
    );
    renderAdmin('/admin/lots/new');
    expect(await screen.findByLabelText(/^Name \(Deutsch\)/)).toHaveValue('');
  });

  test('when a draft of an edit was typed over an older version, then saving it meets the conflict instead of overwriting', async () => {
    const typedOver = lot(7, { version: 3 });
    const theirs = lot(7, { version: 4, status: 'reserved', donor: 'Kita Sonnenschein' });
    const versions: unknown[] = [];
    sessionStorage.setItem(
      `draft:${ADMIN.id}:lot:7`,
      JSON.stringify({
        values: { nameDe: 'Sofa, frisch bezogen' },
        meta: typedOver,
        savedAt: new Date().toISOString(),
      }),
    );
    server.use(
      http.get(apiUrl('/lots/7'), () => HttpResponse.json(theirs)),
      http.get(apiUrl('/lots/7/photos'), () => HttpResponse.json({ success: true, data: [] })),
      http.put(apiUrl('/lots/7'), async ({ request }) => {
        versions.push(((await request.json()) as { version: number }).version);
        return HttpResponse.json(
          {
            success: false,
            code: 'STALE_VERSION',
            message: 'Dieser Eintrag wurde inzwischen von jemand anderem geändert.',
            current_version: 4,
          },
          { status: 409 },
        );
      }),
    );
    const { user } = renderAdmin('/admin/lots/7/edit');
    expect(await screen.findByLabelText(/^Name \(Deutsch\)/)).toHaveValue('Sofa, frisch bezogen');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    const conflict = await screen.findByText('Das Lot wurde inzwischen geändert');
    expect(conflict.parentElement).toHaveTextContent('Dort geändert: Status, Spender.');
    expect(versions).toEqual([3]);
  });

  test('when staff leave a form with unsaved changes, then they are asked first; the page reload is guarded too', async () => {
    const confirm = jest.spyOn(window, 'confirm').mockReturnValue(false);
    try {
      const { user, router } = renderAdmin('/admin/lots/new');
      await typeHalfALot(user);
      const reload = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(reload);
      expect(reload.defaultPrevented).toBe(true);

      await user.click(screen.getByRole('link', { name: 'Abbrechen' }));
      expect(confirm).toHaveBeenCalledWith(
        'Sie haben ungespeicherte Änderungen. Seite trotzdem verlassen? Die Eingaben gehen verloren.',
      );
      expect(router.state.location.pathname).toBe('/admin/lots/new');
      expect(screen.getByLabelText(/^Name \(Deutsch\)/)).toHaveValue('Kleiderschrank');

      server.use(
        http.get(apiUrl('/lots/'), () => HttpResponse.json([])),
        http.get(apiUrl('/lots/count'), () => HttpResponse.json({ count: 0 })),
      );
      confirm.mockReturnValue(true);
      await user.click(screen.getByRole('link', { name: 'Abbrechen' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/lots'));
      expect(drafts()).toEqual([]);
    } finally {
      confirm.mockRestore();
    }
  });

  test('when nothing was changed, then leaving asks nothing', async () => {
    const confirm = jest.spyOn(window, 'confirm');
    try {
      server.use(
        http.get(apiUrl('/lots/'), () => HttpResponse.json([])),
        http.get(apiUrl('/lots/count'), () => HttpResponse.json({ count: 0 })),
      );
      const { user, router } = renderAdmin('/admin/lots/new');
      await user.click(await screen.findByRole('link', { name: 'Abbrechen' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/lots'));
      expect(confirm).not.toHaveBeenCalled();
    } finally {
      confirm.mockRestore();
    }
  });
});

describe('user form drafts', () => {
  test('when a new staff member is typed, then the draft keeps name and e-mail but never the password', async () => {
    server.use(
      http.get(apiUrl('/users'), () =>
        HttpResponse.json({ users: [ADMIN], total: 1, page: 1, limit: 10 }),
      ),
    );
    const { user } = renderAdmin('/admin/users');
    await user.click(await screen.findByRole('button', { name: /Benutzer hinzufügen/ }));
    await user.type(await screen.findByLabelText(/^Name/), 'Olena');
    const passwords = screen.getAllByLabelText(/Passwort/);
    await user.type(passwords[0]!, 'Geheim-Passwort-42');
    const stored = sessionStorage.getItem(`draft:${ADMIN.id}:user:new`)!;
    expect(JSON.parse(stored).values).toMatchObject({ name: 'Olena' });
    expect(stored).not.toContain('Geheim-Passwort-42');
  });
});
