import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderApp } from '../../../../test/render';
import { apiUrl, server } from '../../../../test/server';
import { apiError } from '../../../../test/fixtures';
import { ADMIN, meHandler, renderAdmin } from '../../test/admin-test-utils';
import { validateInvitation } from '../components/InvitationPage';

const CARITAS = {
  id: 3,
  name: 'Caritas Mitte',
  city: 'Berlin',
  contact_email: 'kontakt@caritas.example',
  active: true,
  created_at: '2026-01-01T00:00:00.000Z',
};
const TOKEN = 'a'.repeat(64);

describe('partner agencies page', () => {
  let agencies: (typeof CARITAS)[];
  beforeEach(() => {
    agencies = [CARITAS];
    server.use(
      meHandler(ADMIN),
      http.get(apiUrl('/agencies/'), () => HttpResponse.json({ agencies })),
    );
  });

  test('when an agency is created, then the call carries name, city and contact and the list shows it', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl('/agencies/'), async ({ request }) => {
        body = await request.json();
        const made = { ...CARITAS, id: 4, name: 'Diakonie Süd' };
        agencies = [...agencies, made];
        return HttpResponse.json(made, { status: 201 });
      }),
    );
    const { user } = renderAdmin('/admin/agencies');
    await screen.findByRole('heading', { level: 2, name: 'Caritas Mitte' });
    const form = screen.getByRole('form', { name: 'Neue Partnerorganisation' });
    await user.click(within(form).getByRole('button', { name: 'Organisation anlegen' }));
    expect(within(form).getByText('Name ist erforderlich')).toBeInTheDocument();
    expect(within(form).getByText('Ort ist erforderlich')).toBeInTheDocument();
    expect(body).toBeUndefined();
    await user.type(within(form).getByLabelText(/^Name/), ' Diakonie Süd ');
    await user.type(within(form).getByLabelText(/^Ort/), 'Berlin');
    await user.type(within(form).getByLabelText(/^Kontakt-E-Mail/), 'info@diakonie.example');
    await user.click(within(form).getByRole('button', { name: 'Organisation anlegen' }));
    await waitFor(() =>
      expect(body).toEqual({
        name: 'Diakonie Süd',
        city: 'Berlin',
        contact_email: 'info@diakonie.example',
      }),
    );
    expect(await screen.findByRole('heading', { level: 2, name: 'Diakonie Süd' })).toBeVisible();
  });

  test('when the name is taken (409), then the form says so at the name', async () => {
    server.use(
      http.post(apiUrl('/agencies/'), () =>
        apiError(409, 'AGENCY_EXISTS', 'Eine Organisation dieses Namens gibt es schon.'),
      ),
    );
    const { user } = renderAdmin('/admin/agencies');
    const form = await screen.findByRole('form', { name: 'Neue Partnerorganisation' });
    await user.type(within(form).getByLabelText(/^Name/), 'caritas  mitte');
    await user.type(within(form).getByLabelText(/^Ort/), 'Berlin');
    await user.type(within(form).getByLabelText(/^Kontakt-E-Mail/), 'x@example.org');
    await user.click(within(form).getByRole('button', { name: 'Organisation anlegen' }));
    expect(
      await within(form).findByText('Eine Organisation mit diesem Namen gibt es schon.'),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText(/^Name/)).toHaveAttribute('aria-invalid', 'true');
  });

  test('when a referrer is invited, then the link of the answer is shown to copy and the mail is named', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl('/agencies/3/invitations'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(
          {
            invite_url: `http://localhost/admin/invitation/${TOKEN}`,
            expires_at: '2026-01-15T10:00:00.000Z',
          },
          { status: 201 },
        );
      }),
    );
    const { user } = renderAdmin('/admin/agencies');
    await user.click(
      await screen.findByRole('button', { name: 'Vermittler/in einladen (Caritas Mitte)' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Einladung für Caritas Mitte' });
    await user.type(within(dialog).getByLabelText(/^E-Mail der Person/), 'sara@beratung.example');
    await user.selectOptions(within(dialog).getByLabelText(/^Sprache der E-Mail/), 'uk');
    await user.click(within(dialog).getByRole('button', { name: 'Einladung senden' }));
    expect(
      await within(dialog).findByText(
        'Die Einladung ist per E-Mail an sara@beratung.example unterwegs.',
      ),
    ).toBeInTheDocument();
    expect(body).toEqual({ email: 'sara@beratung.example', language: 'uk' });
    expect(within(dialog).getByText(`http://localhost/admin/invitation/${TOKEN}`)).toBeVisible();
    expect(within(dialog).getByText(/bis zum 15\.01\.2026/)).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Link kopieren' })).toBeEnabled();
  });

  test('when an agency is deactivated, then a confirmation says its referrers are logged out, then PATCH {active:false}', async () => {
    let body: unknown;
    server.use(
      http.patch(apiUrl('/agencies/3'), async ({ request }) => {
        body = await request.json();
        agencies = [{ ...CARITAS, active: false }];
        return HttpResponse.json(agencies[0]);
      }),
    );
    const { user } = renderAdmin('/admin/agencies');
    await user.click(await screen.findByRole('button', { name: 'Deaktivieren (Caritas Mitte)' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Caritas Mitte deaktivieren?' });
    expect(within(dialog).getByText(/sofort überall abgemeldet/)).toBeVisible();
    expect(body).toBeUndefined();
    await user.click(within(dialog).getByRole('button', { name: 'Deaktivieren' }));
    await waitFor(() => expect(body).toEqual({ active: false }));
    expect(await screen.findByText('Deaktiviert')).toBeVisible();
    // a deactivated agency invites nobody
    expect(
      screen.queryByRole('button', { name: 'Vermittler/in einladen (Caritas Mitte)' }),
    ).not.toBeInTheDocument();
  });
});

describe('invitation acceptance page', () => {
  test('when name and password are accepted (201), then the page leads to the login', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl(`/invitations/${TOKEN}/accept`), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ id: 9 }, { status: 201 });
      }),
    );
    const { user, router } = renderApp(`/admin/invitation/${TOKEN}`);
    await screen.findByRole('heading', { level: 1, name: 'Einladung annehmen' });
    await user.type(screen.getByLabelText(/^Ihr Name/), 'Sara Sozial');
    await user.type(screen.getByLabelText(/^Passwort \*/), 'Fenster-Wolke-Tram-42');
    await user.type(screen.getByLabelText(/^Passwort bestätigen/), 'Fenster-Wolke-Tram-42');
    await user.click(screen.getByRole('button', { name: 'Konto anlegen' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Willkommen!' })).toBeVisible();
    expect(body).toEqual({ name: 'Sara Sozial', password: 'Fenster-Wolke-Tram-42' });
    await user.click(screen.getByRole('link', { name: 'Zur Anmeldung' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
  });

  test('when the link is unknown or used (404), then the page says so and offers no form', async () => {
    server.use(
      http.post(apiUrl(`/invitations/${TOKEN}/accept`), () =>
        apiError(404, 'INVITATION_NOT_FOUND', 'Einladung nicht gefunden'),
      ),
    );
    const { user } = renderApp(`/admin/invitation/${TOKEN}`);
    await user.type(await screen.findByLabelText(/^Ihr Name/), 'Sara Sozial');
    await user.type(screen.getByLabelText(/^Passwort \*/), 'Fenster-Wolke-Tram-42');
    await user.type(screen.getByLabelText(/^Passwort bestätigen/), 'Fenster-Wolke-Tram-42');
    await user.click(screen.getByRole('button', { name: 'Konto anlegen' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Link ungültig' })).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(
      /unbekannt, abgelaufen oder wurde schon benutzt/,
    );
    expect(screen.queryByRole('button', { name: 'Konto anlegen' })).not.toBeInTheDocument();
  });

  test('when the server finds the password too easy (422), then the reason stands at the password', async () => {
    server.use(
      http.post(apiUrl(`/invitations/${TOKEN}/accept`), () =>
        apiError(422, 'VALIDATION_ERROR', 'Validierungsfehler', [
          {
            loc: ['body', 'password'],
            msg: 'Das Passwort ist zu leicht zu erraten.',
            type: 'password_too_weak',
          },
        ]),
      ),
    );
    const { user } = renderApp(`/admin/invitation/${TOKEN}`);
    await user.type(await screen.findByLabelText(/^Ihr Name/), 'Sara Sozial');
    await user.type(screen.getByLabelText(/^Passwort \*/), 'passwort12345');
    await user.type(screen.getByLabelText(/^Passwort bestätigen/), 'passwort12345');
    await user.click(screen.getByRole('button', { name: 'Konto anlegen' }));
    expect(await screen.findByText('Das Passwort ist zu leicht zu erraten.')).toBeVisible();
    expect(screen.getByLabelText(/^Passwort \*/)).toHaveAttribute('aria-invalid', 'true');
  });

  test('when the form is incomplete, then the same password rules as elsewhere are named', () => {
    expect(validateInvitation({ name: ' ', password: '', confirm: '' })).toEqual({
      name: 'nameRequired',
      password: 'passwordRequired',
    });
    expect(validateInvitation({ name: 'Sara', password: 'kurz', confirm: 'kurz' })).toEqual({
      password: 'newPasswordTooShort',
    });
    expect(
      validateInvitation({ name: 'Sara', password: 'Fenster-Wolke-42', confirm: 'Fenster' }),
    ).toEqual({ confirm: 'passwordMismatch' });
  });
});
