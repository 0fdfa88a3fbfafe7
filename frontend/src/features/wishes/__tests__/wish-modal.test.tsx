import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderApp } from '../../../test/render';
import { apiError, catalogHandlers } from '../../../test/fixtures';
import { apiUrl, server } from '../../../test/server';
import { i18n } from '../../../app/i18n';

async function openWishFromHeader() {
  const view = renderApp('/');
  await screen.findByRole('heading', { level: 1 });
  const button = within(screen.getByRole('banner')).getAllByRole('button', {
    name: 'Möbelwunsch senden',
  })[0]!;
  await view.user.click(button);
  const dialog = await screen.findByRole('dialog', { name: 'Möbelwunsch senden' });
  // the categories arrive with the dialog
  await within(dialog).findByRole('option', { name: 'Sofas & Sessel' });
  return { ...view, dialog, button };
}

function field(dialog: HTMLElement, label: RegExp) {
  return within(dialog).getByLabelText(label);
}

/** The texts of the error messages a field points to with aria-describedby. */
function describedErrors(input: HTMLElement): string {
  return (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');
}

describe('wish modal', () => {
  beforeEach(() => server.use(...catalogHandlers()));

  test('when the form is sent empty, then all four fields say they are required and nothing is sent', async () => {
    let posted = false;
    server.use(http.post(apiUrl('/wishes/'), () => ((posted = true), HttpResponse.json({}))));
    const { dialog, user } = await openWishFromHeader();

    await user.click(within(dialog).getByRole('button', { name: 'Wunsch senden' }));

    for (const label of [/Ihr Name/, /WhatsApp-Nummer/, /Kategorie/, /Was brauchen Sie/]) {
      const input = field(dialog, label);
      expect(input).toHaveAttribute('aria-invalid', 'true');
      expect(describedErrors(input)).toContain('Dieses Feld ist erforderlich');
    }
    expect(field(dialog, /Ihr Name/)).toHaveFocus();
    expect(posted).toBe(false);
  });

  test('when values are too short, too long or no WhatsApp number, then each field names its rule', async () => {
    const { dialog, user } = await openWishFromHeader();
    await user.type(field(dialog, /Ihr Name/), '  A  ');
    await user.type(field(dialog, /WhatsApp-Nummer/), 'abc-123');
    await user.selectOptions(field(dialog, /Kategorie/), 'Betten');
    await user.type(field(dialog, /Was brauchen Sie/), ' kurz     ');
    await user.click(within(dialog).getByRole('button', { name: 'Wunsch senden' }));

    expect(describedErrors(field(dialog, /Ihr Name/))).toContain('Mindestens 2 Zeichen');
    expect(describedErrors(field(dialog, /WhatsApp-Nummer/))).toContain(
      'Ungültige WhatsApp-Nummer',
    );
    expect(field(dialog, /Kategorie/)).not.toHaveAttribute('aria-invalid');
    expect(describedErrors(field(dialog, /Was brauchen Sie/))).toContain('Mindestens 10 Zeichen');

    await user.clear(field(dialog, /Ihr Name/));
    await user.click(field(dialog, /Ihr Name/));
    await user.paste('x'.repeat(101));
    await user.clear(field(dialog, /Was brauchen Sie/));
    await user.click(field(dialog, /Was brauchen Sie/));
    await user.paste('y'.repeat(501));
    await user.click(within(dialog).getByRole('button', { name: 'Wunsch senden' }));
    expect(describedErrors(field(dialog, /Ihr Name/))).toContain('Höchstens 100 Zeichen');
    expect(describedErrors(field(dialog, /Was brauchen Sie/))).toContain('Höchstens 500 Zeichen');
  });

  test('when a field with an error is edited, then only its error goes away', async () => {
    const { dialog, user } = await openWishFromHeader();
    await user.click(within(dialog).getByRole('button', { name: 'Wunsch senden' }));
    await user.type(field(dialog, /Ihr Name/), 'O');

    expect(field(dialog, /Ihr Name/)).not.toHaveAttribute('aria-invalid');
    expect(describedErrors(field(dialog, /Ihr Name/))).not.toContain('erforderlich');
    expect(field(dialog, /WhatsApp-Nummer/)).toHaveAttribute('aria-invalid', 'true');
  });

  test('when the form is valid, then the trimmed values, the category id and the page language are sent and a thank-you shows', async () => {
    let body: Record<string, unknown> | undefined;
    server.use(
      http.post(apiUrl('/wishes/'), async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(
          { id: 7, status: 'active', created_at: '2026-01-01T00:00:00Z' },
          { status: 201 },
        );
      }),
    );
    const { dialog, user } = await openWishFromHeader();
    await user.type(field(dialog, /Ihr Name/), '  Olena  ');
    await user.type(field(dialog, /WhatsApp-Nummer/), ' +49 176 1234567 ');
    await user.selectOptions(field(dialog, /Kategorie/), 'Betten');
    await user.type(field(dialog, /Was brauchen Sie/), '  Ein Kinderbett für zwei Kinder  ');
    await user.click(within(dialog).getByRole('button', { name: 'Wunsch senden' }));

    expect(
      await within(dialog).findByText('Vielen Dank! Ihr Wunsch ist angekommen.'),
    ).toBeInTheDocument();
    expect(body).toEqual({
      applicant_name: 'Olena',
      applicant_whatsapp: '+49 176 1234567',
      furniture_category: 2,
      furniture_description: 'Ein Kinderbett für zwei Kinder',
      language: 'de',
      website: '',
    });
  });

  test.each([
    [
      'the server refuses the input (422)',
      () =>
        apiError(422, 'VALIDATION_FAILED', 'x', [
          {
            loc: ['body', 'applicant_whatsapp'],
            msg: 'Ungültige WhatsApp-Nummer',
            type: 'invalid_whatsapp',
          },
        ]),
      'Bitte überprüfen Sie Ihre Eingaben und versuchen Sie es erneut.',
    ],
    [
      'the network is down',
      () => HttpResponse.error(),
      'Verbindungsfehler. Bitte prüfen Sie Ihre Internetverbindung.',
    ],
    [
      'the server fails (500)',
      () => apiError(500, 'INTERNAL', 'Ein unerwarteter Fehler ist aufgetreten.'),
      'Fehler beim Senden des Wunsches. Bitte versuchen Sie es erneut.',
    ],
  ])('when %s, then the form says so and keeps what was typed', async (_case, answer, message) => {
    server.use(http.post(apiUrl('/wishes/'), answer));
    const { dialog, user } = await openWishFromHeader();
    await user.type(field(dialog, /Ihr Name/), 'Olena');
    await user.type(field(dialog, /WhatsApp-Nummer/), '+49 176 1234567');
    await user.selectOptions(field(dialog, /Kategorie/), 'Betten');
    await user.type(field(dialog, /Was brauchen Sie/), 'Ein Kinderbett bitte');
    await user.click(within(dialog).getByRole('button', { name: 'Wunsch senden' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
    expect(field(dialog, /Ihr Name/)).toHaveValue('Olena');
  });

  test('when Escape is pressed, then the modal closes, the page scrolls again and focus returns to the button', async () => {
    const { user, button } = await openWishFromHeader();
    expect(document.documentElement.style.overflow).toBe('hidden');

    await user.keyboard('{Escape}');

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.documentElement.style.overflow).not.toBe('hidden');
    expect(button).toHaveFocus();
  });

  test('when the close button or the backdrop is clicked, then the modal closes', async () => {
    const { dialog, user, button } = await openWishFromHeader();
    await user.click(within(dialog).getByRole('button', { name: 'Schließen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(button);
    await screen.findByRole('dialog');
    // a click outside the panel
    await user.click(
      document.querySelector('[data-headlessui-state] .fixed.inset-0') ?? document.body,
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test('when it is opened from the mobile menu and from the footer, then the same modal opens', async () => {
    const { user, dialog } = await openWishFromHeader();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Menü öffnen' }));
    const menu = screen.getByRole('navigation', { name: 'Menü' });
    await user.click(within(menu).getByRole('button', { name: 'Möbelwunsch senden' }));
    expect(await screen.findByRole('dialog', { name: 'Möbelwunsch senden' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const footer = await screen.findByRole('contentinfo');
    await user.click(within(footer).getByRole('button', { name: 'Möbelwunsch senden' }));
    expect(await screen.findByRole('dialog', { name: 'Möbelwunsch senden' })).toBeInTheDocument();
  });

  test('when the page is Ukrainian, then the modal and its messages are Ukrainian', async () => {
    await i18n.changeLanguage('uk');
    const view = renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    await view.user.click(
      within(screen.getByRole('banner')).getAllByRole('button', {
        name: 'Надіслати побажання',
      })[0]!,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Надіслати побажання' });
    await view.user.click(within(dialog).getByRole('button', { name: 'Надіслати побажання' }));
    expect(describedErrors(within(dialog).getByLabelText(/Ваше ім’я/))).toContain(
      'Це поле обов’язкове',
    );
  });
});
