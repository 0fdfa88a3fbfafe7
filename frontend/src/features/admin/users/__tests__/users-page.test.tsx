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

  test('when a referrer is made, then an active partner agency must be chosen and is sent as agency_id', async () => {
    let body: unknown;
    server.use(
      http.get(apiUrl('/agencies/'), () =>
        HttpResponse.json({
          agencies: [
            {
              id: 4,
              name: 'Caritas Mitte',
              city: 'Berlin',
              contact_email: 'c@example.org',
              active: true,
              created_at: '2026-01-01T00:00:00.000Z',
            },
            {
              id: 5,
              name: 'Alte Initiative',
              city: 'Berlin',
              contact_email: 'a@example.org',
              active: false,
              created_at: '2026-01-01T00:00:00.000Z',
            },
          ],
        }),
      ),
      http.post(apiUrl('/users'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(
          { ...OTHER, id: 10, role: 'referrer', agency_id: 4 },
          { status: 201 },
        );
      }),
    );
    const { user } = renderAdmin('/admin/users');
    await user.click(await screen.findByRole('button', { name: 'Benutzer hinzufügen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Neuen Benutzer anlegen' });
    expect(within(dialog).queryByLabelText(/^Partnerorganisation/)).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Name/), 'Sara Sozial');
    await user.type(within(dialog).getByLabelText(/^E-Mail/), 'sara@example.org');
    await user.selectOptions(within(dialog).getByLabelText(/^Rolle/), 'referrer');
    await user.type(within(dialog).getByLabelText(/^Passwort \*/), 'Sicheres-Passwort1');
    await user.type(within(dialog).getByLabelText(/^Passwort bestätigen/), 'Sicheres-Passwort1');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(
      await within(dialog).findByText('Bitte eine Partnerorganisation wählen'),
    ).toBeInTheDocument();
    expect(body).toBeUndefined();
    const agency = within(dialog).getByLabelText(/^Partnerorganisation/);
    // a deactivated agency is not offered
    expect(
      within(agency).queryByRole('option', { name: 'Alte Initiative' }),
    ).not.toBeInTheDocument();
    await user.selectOptions(agency, 'Caritas Mitte');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    await waitFor(() =>
      expect(body).toEqual({
        name: 'Sara Sozial',
        email: 'sara@example.org',
        role: 'referrer',
        password: 'Sicheres-Passwort1',
        agency_id: 4,
      }),
    );
  });
});

describe('user form rules', () => {
  const valid = {
    name: 'Petro',
    email: 'petro@example.org',
    role: 'volunteer',
    password: '',
    confirm: '',
    agencyId: '',
  };

  test('when a user is created without password, then the password is required; on edit it is optional', () => {
    expect(validateUserForm(valid, 'create')).toEqual({ password: 'passwordRequired' });
    expect(validateUserForm(valid, 'edit')).toEqual({});
  });

  test('when a referrer is made without an agency, then the agency is named; on edit it is not asked', () => {
    const referrer = {
      ...valid,
      role: 'referrer',
      password: 'Passwort-1234',
      confirm: 'Passwort-1234',
    };
    expect(validateUserForm(referrer, 'create')).toEqual({ agencyId: 'agencyRequired' });
    expect(validateUserForm({ ...referrer, agencyId: '4' }, 'create')).toEqual({});
    expect(validateUserForm(referrer, 'edit')).toEqual({});
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
