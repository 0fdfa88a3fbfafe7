import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '../../../../test/server';
import { ADMIN, meHandler, renderAdmin, VOLUNTEER } from '../../test/admin-test-utils';
import { validateUserForm } from '../user-form';

const OTHER = { ...VOLUNTEER, id: 3, name: 'Olga Helferin', email: 'olga@example.org' };

describe('users page', () => {
  beforeEach(() =>
    server.use(
      meHandler(ADMIN),
      http.get(apiUrl('/users'), () =>
        HttpResponse.json({ users: [ADMIN, OTHER], total: 2, page: 1, limit: 20 }),
      ),
    ),
  );

  test('when the table shows the logged-in admin, then their row has no delete button', async () => {
    renderAdmin('/admin/users');
    const table = await screen.findByRole('table');
    const ownRow = within(table).getByText('Anna Admin').closest('tr')!;
    const otherRow = within(table).getByText('Olga Helferin').closest('tr')!;
    expect(within(ownRow).queryByRole('button', { name: /löschen/ })).not.toBeInTheDocument();
    expect(
      within(ownRow).getByRole('button', { name: 'Anna Admin bearbeiten' }),
    ).toBeInTheDocument();
    expect(
      within(otherRow).getByRole('button', { name: 'Olga Helferin löschen' }),
    ).toBeInTheDocument();
  });

  test('when a user is deleted, then a confirmation comes first and the call follows it', async () => {
    let deleted: string | undefined;
    server.use(
      http.delete(apiUrl('/users/:id'), ({ params }) => {
        deleted = String(params.id);
        return HttpResponse.json({ success: true });
      }),
    );
    const { user } = renderAdmin('/admin/users');
    await user.click(await screen.findByRole('button', { name: 'Olga Helferin löschen' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Benutzer löschen?' });
    expect(deleted).toBeUndefined();
    await user.click(within(dialog).getByRole('button', { name: 'Löschen' }));
    await waitFor(() => expect(deleted).toBe('3'));
    expect(await screen.findByText('Olga Helferin wurde gelöscht.')).toBeInTheDocument();
  });

  test('when a new user is saved, then the dialog says so and closes after 1.5 s', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl('/users'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ ...OTHER, id: 9 }, { status: 201 });
      }),
    );
    const { user } = renderAdmin('/admin/users');
    await user.click(await screen.findByRole('button', { name: 'Benutzer hinzufügen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Neuen Benutzer anlegen' });
    await user.type(within(dialog).getByLabelText(/^Name/), 'Petro');
    await user.type(within(dialog).getByLabelText(/^E-Mail/), 'petro@example.org');
    await user.type(within(dialog).getByLabelText(/^Passwort \*/), 'Sicheres-Passwort1');
    await user.type(within(dialog).getByLabelText(/^Passwort bestätigen/), 'Sicheres-Passwort1');
    jest.useFakeTimers({ advanceTimers: true });
    try {
      await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
      expect(await within(dialog).findByText('Benutzer erfolgreich angelegt.')).toBeInTheDocument();
      expect(body).toEqual({
        name: 'Petro',
        email: 'petro@example.org',
        role: 'volunteer',
        password: 'Sicheres-Passwort1',
      });
      act(() => jest.advanceTimersByTime(1400));
      expect(screen.getByRole('dialog', { name: 'Neuen Benutzer anlegen' })).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(200));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('user form rules', () => {
  const valid = {
    name: 'Petro',
    email: 'petro@example.org',
    role: 'volunteer',
    password: '',
    confirm: '',
  };

  test('when a user is created without password, then the password is required; on edit it is optional', () => {
    expect(validateUserForm(valid, 'create')).toEqual({ password: 'passwordRequired' });
    expect(validateUserForm(valid, 'edit')).toEqual({});
  });

  test('when the role is unknown or the confirmation differs on create, then both are named', () => {
    expect(
      validateUserForm(
        { ...valid, role: 'boss', password: 'Passwort-1234', confirm: 'Passwort-2345' },
        'create',
      ),
    ).toEqual({ role: 'roleInvalid', confirm: 'passwordMismatch' });
    expect(validateUserForm({ ...valid, password: 'Passwort-1234', confirm: 'x' }, 'edit')).toEqual(
      {},
    );
  });
});
