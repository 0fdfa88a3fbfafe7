import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { i18n } from '../../../app/i18n';
import { apiError, catalogHandlers, eligibility, lot, queueInfo } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl, server } from '../../../test/server';

const LOT = lot(5, { name: { de: 'Graues Sofa', uk: 'Сірий диван' } });

async function openApply(opts: { fakeTimers?: boolean } = {}) {
  const view = renderApp('/lots/5', opts);
  await view.user.click(await screen.findByRole('button', { name: 'Jetzt bewerben' }));
  const dialog = await screen.findByRole('dialog', { name: 'Für dieses Lot bewerben' });
  return { ...view, dialog };
}

async function fillRequired(
  dialog: HTMLElement,
  user: ReturnType<typeof renderApp>['user'],
  values: { name?: string; phone?: string; whatsapp?: string } = {},
) {
  await user.type(within(dialog).getByLabelText(/^Name/), values.name ?? 'Olena Kowalenko');
  await user.type(within(dialog).getByLabelText(/^Telefonnummer/), values.phone ?? '0176 1234567');
  await user.type(
    within(dialog).getByLabelText(/^WhatsApp-Nummer/),
    values.whatsapp ?? '+49 176 1234567',
  );
}

const submitButton = (dialog: HTMLElement) =>
  within(dialog).getByRole('button', { name: 'Bewerbung senden' });

/** Records the bodies posted to /applications/ and answers with `answer`. */
function onSubmit(answer: () => Response) {
  const bodies: Record<string, unknown>[] = [];
  server.use(
    http.post(apiUrl('/applications/'), async ({ request }) => {
      bodies.push((await request.json()) as Record<string, unknown>);
      return answer();
    }),
  );
  return bodies;
}

const created = () =>
  HttpResponse.json(
    { id: 41, status: 'pending', created_at: '2026-05-01T10:00:00Z', queue_position: 3 },
    { status: 201 },
  );

describe('apply modal', () => {
  beforeEach(() => server.use(...catalogHandlers({ lots: [LOT] })));

  test('when the eligibility check says no, then the reason shows, submit is blocked and a submit attempt repeats the reason without sending', async () => {
    const asked: string[] = [];
    server.use(
      http.get(apiUrl('/lots/5/can-apply'), ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('phone') ?? '');
        return HttpResponse.json(
          eligibility({
            can_apply: false,
            reason: 'Mit dieser Telefonnummer sind schon 5 offene Bewerbungen vorhanden.',
            reason_code: 'too_many_open_applications',
            total_applications: 5,
          }),
        );
      }),
    );
    const bodies = onSubmit(created);
    const { dialog, user } = await openApply();
    await fillRequired(dialog, user, { phone: '+49 (176) 123-4567' });

    const reason = await within(dialog).findByText(/schon 5 offene Bewerbungen \(höchstens 5\)/);
    expect(reason).toBeInTheDocument();
    expect(asked.at(-1)).toBe('+491761234567');
    expect(submitButton(dialog)).toHaveAttribute('aria-disabled', 'true');

    await user.click(submitButton(dialog));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(/schon 5 offene Bewerbungen/);
    expect(bodies).toHaveLength(0);
  });

  test('when the check says this phone applied for the lot before, then a submit attempt opens the duplicate dialog without sending', async () => {
    server.use(
      http.get(apiUrl('/lots/5/can-apply'), () =>
        HttpResponse.json(
          eligibility({
            can_apply: false,
            reason: 'Mit dieser Telefonnummer gibt es schon eine Bewerbung für dieses Lot.',
            reason_code: 'already_applied',
            total_applications: 1,
          }),
        ),
      ),
    );
    const bodies = onSubmit(created);
    const { dialog, user } = await openApply();
    await fillRequired(dialog, user);

    expect(
      await within(dialog).findByText(
        'Mit dieser Telefonnummer gibt es schon eine Bewerbung für dieses Lot.',
      ),
    ).toBeInTheDocument();
    await user.click(submitButton(dialog));
    const duplicate = await screen.findByRole('alertdialog', {
      name: 'Bewerbung bereits eingereicht',
    });
    expect(duplicate).toHaveTextContent('Eine erneute Bewerbung ist nicht möglich.');
    expect(screen.queryByRole('dialog', { name: 'Für dieses Lot bewerben' })).toBeNull();
    expect(bodies).toHaveLength(0);
  });

  test('when the eligibility check itself fails, then it says so and the family can still apply', async () => {
    server.use(
      http.get(apiUrl('/lots/5/can-apply'), () => apiError(503, 'SERVICE_UNAVAILABLE', 'weg')),
    );
    const bodies = onSubmit(created);
    const { dialog, user } = await openApply();
    await fillRequired(dialog, user);

    expect(
      await within(dialog).findByText('Die Bewerbungsberechtigung konnte nicht geprüft werden.'),
    ).toBeInTheDocument();
    expect(submitButton(dialog)).not.toHaveAttribute('aria-disabled');
    await user.click(submitButton(dialog));
    await waitFor(() => expect(bodies).toHaveLength(1));
  });

  test('when the form is sent, then phones are normalized, an empty e-mail is null, a missing city and address are "Не вказано", the lot id is an integer and the page language goes along', async () => {
    await i18n.changeLanguage('uk');
    const bodies = onSubmit(created);
    const view = renderApp('/lots/5');
    await view.user.click(await screen.findByRole('button', { name: 'Подати заявку' }));
    const dialog = await screen.findByRole('dialog', { name: 'Подати заявку на цей лот' });
    await view.user.type(within(dialog).getByLabelText(/^Ім’я/), '  Olena  ');
    await view.user.type(within(dialog).getByLabelText(/^Номер телефону/), ' +49 (176) 123-45 67 ');
    await view.user.type(within(dialog).getByLabelText(/^Номер WhatsApp/), '0176 765-43 21');
    await view.user.click(
      within(dialog).getByRole('checkbox', { name: /^Мені потрібна допомога з доставкою/ }),
    );
    await view.user.click(within(dialog).getByRole('button', { name: 'Надіслати заявку' }));

    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      applicant_name: 'Olena',
      applicant_phone: '+491761234567',
      applicant_whatsapp: '01767654321',
      applicant_email: null,
      applicant_city: 'Не вказано',
      applicant_address: 'Не вказано',
      needs_delivery_help: true,
      lot_id: 5,
      language: 'uk',
      website: '',
    });
  });

  test('when the server answers 422, then the banner reads "Validierungsfehler: …" with each field and its message, and the field shows its error', async () => {
    onSubmit(() =>
      apiError(422, 'VALIDATION_FAILED', 'Bitte überprüfen Sie Ihre Eingaben.', [
        { loc: ['body', 'applicant_phone'], msg: 'Ungültige Telefonnummer', type: 'invalid_phone' },
        { loc: ['body', 'lot_id'], msg: 'Ungültiger Wert', type: 'invalid_type' },
      ]),
    );
    const { dialog, user } = await openApply();
    await fillRequired(dialog, user);
    await user.click(submitButton(dialog));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Validierungsfehler: Telefonnummer: Ungültige Telefonnummer; lot_id: Ungültiger Wert',
    );
    expect(within(dialog).getByLabelText(/^Telefonnummer/)).toHaveAttribute('aria-invalid', 'true');
  });

  test('when the page is Ukrainian and the server answers 422, then the banner starts with "Помилка валідації:"', async () => {
    await i18n.changeLanguage('uk');
    onSubmit(() =>
      apiError(422, 'VALIDATION_FAILED', 'x', [
        { loc: ['body', 'applicant_name'], msg: 'Щонайменше 2 символів', type: 'too_short' },
      ]),
    );
    const view = renderApp('/lots/5');
    await view.user.click(await screen.findByRole('button', { name: 'Подати заявку' }));
    const dialog = await screen.findByRole('dialog');
    await view.user.type(within(dialog).getByLabelText(/^Ім’я/), 'Ol');
    await view.user.type(within(dialog).getByLabelText(/^Номер телефону/), '0176 1234567');
    await view.user.type(within(dialog).getByLabelText(/^Номер WhatsApp/), '0176 1234567');
    await view.user.click(within(dialog).getByRole('button', { name: 'Надіслати заявку' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Помилка валідації: Ім’я: Щонайменше 2 символів',
    );
  });

  test('when the server answers 400, then its message is shown', async () => {
    onSubmit(() => apiError(400, 'BAD_REQUEST', 'Ungültige Anfrage.'));
    const { dialog, user } = await openApply();
    await fillRequired(dialog, user);
    await user.click(submitButton(dialog));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Ungültige Anfrage.');
  });

  test('when the phone number has sent too many applications, then the 429 text of the server says how long to wait', async () => {
    const text =
      'Mit dieser Telefonnummer wurden gerade zu viele Anfragen gesendet. Bitte warten Sie etwa 9 Minuten und versuchen Sie es dann erneut.';
    onSubmit(() => apiError(429, 'PHONE_RATE_LIMITED', text));
    const { dialog, user } = await openApply();
    await fillRequired(dialog, user);
    await user.click(submitButton(dialog));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(text);
    // the form stays filled for a later try
    expect(within(dialog).getByLabelText(/^Name/)).toHaveValue('Olena Kowalenko');
  });

  test('when the server fails without a message, then the banner names the status', async () => {
    onSubmit(() => new HttpResponse('<html>Bad gateway</html>', { status: 502 }));
    const { dialog, user } = await openApply();
    await fillRequired(dialog, user);
    await user.click(submitButton(dialog));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Fehler beim Erstellen der Bewerbung (502)',
    );
  });

  test.each([
    [
      'the ALREADY_APPLIED code',
      () =>
        apiError(
          409,
          'ALREADY_APPLIED',
          'Sie haben bereits eine Bewerbung für dieses Lot eingereicht.',
        ),
    ],
    [
      'only the Ukrainian phrase',
      () => apiError(409, 'CONFLICT', 'Ви вже подали заявку на цей лот.'),
    ],
    [
      'only the English phrase',
      () =>
        HttpResponse.json({ detail: 'You have already applied for this lot.' }, { status: 409 }),
    ],
  ])(
    'when the server refuses a duplicate (%s), then the apply modal closes and the duplicate dialog shows its four texts',
    async (_case, answer) => {
      onSubmit(answer);
      const { dialog, user } = await openApply();
      await fillRequired(dialog, user);
      await user.click(submitButton(dialog));

      const duplicate = await screen.findByRole('alertdialog', {
        name: 'Bewerbung bereits eingereicht',
      });
      expect(dialog).not.toBeInTheDocument();
      expect(duplicate).toHaveTextContent('Sie haben sich bereits für dieses Lot beworben.');
      expect(duplicate).toHaveTextContent('Eine erneute Bewerbung ist nicht möglich.');
      await user.click(within(duplicate).getByRole('button', { name: 'Verstanden' }));
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    },
  );

  test('when an error banner shows, then it goes away after 5 seconds', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      onSubmit(() => apiError(400, 'BAD_REQUEST', 'Ungültige Anfrage.'));
      const { dialog, user } = await openApply({ fakeTimers: true });
      await fillRequired(dialog, user);
      await user.click(submitButton(dialog));
      const banner = await within(dialog).findByRole('alert');

      act(() => jest.advanceTimersByTime(4900));
      expect(banner).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(200));
      expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  test('when the application is accepted, then a message replaces the apply button and lot and queue load again after 2 seconds', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      let lotLoads = 0;
      let queueLoads = 0;
      server.use(
        http.get(apiUrl('/lots/5'), () => ((lotLoads += 1), HttpResponse.json(LOT))),
        http.get(apiUrl('/lots/5/applications-info'), () => {
          queueLoads += 1;
          return HttpResponse.json(queueInfo());
        }),
      );
      onSubmit(created);
      const { dialog, user } = await openApply({ fakeTimers: true });
      await fillRequired(dialog, user);
      await user.click(submitButton(dialog));

      expect(
        await screen.findByText('Vielen Dank! Ihre Bewerbung ist eingegangen.'),
      ).toBeInTheDocument();
      expect(
        screen.getByText(/Bewerbung Nr\. 41 – Ihr Platz in der Warteschlange: 3/),
      ).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Jetzt bewerben' })).not.toBeInTheDocument();
      const [lotsBefore, queueBefore] = [lotLoads, queueLoads];

      act(() => jest.advanceTimersByTime(1900));
      expect([lotLoads, queueLoads]).toEqual([lotsBefore, queueBefore]);
      act(() => jest.advanceTimersByTime(200));
      await waitFor(() => expect(lotLoads).toBe(lotsBefore + 1));
      await waitFor(() => expect(queueLoads).toBeGreaterThan(queueBefore));
    } finally {
      jest.useRealTimers();
    }
  });

  test('when required fields are missing, then each is marked and nothing is sent', async () => {
    const bodies = onSubmit(created);
    const { dialog, user } = await openApply();
    await user.type(within(dialog).getByLabelText(/^E-Mail/), 'not-an-address');
    await user.click(submitButton(dialog));

    expect(within(dialog).getByLabelText(/^Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText(/^Telefonnummer/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText(/^WhatsApp-Nummer/)).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(within(dialog).getByText('Ungültige E-Mail-Adresse')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Name/)).toHaveFocus();
    expect(bodies).toHaveLength(0);
  });

  test('when the modal is closed and opened again, then what was typed is still there', async () => {
    const { dialog, user } = await openApply();
    await user.type(within(dialog).getByLabelText(/^Name/), 'Olena');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Jetzt bewerben' }));
    const again = await screen.findByRole('dialog');
    expect(within(again).getByLabelText(/^Name/)).toHaveValue('Olena');
  });
});
