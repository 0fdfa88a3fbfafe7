import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '../../../../test/server';
import { ADMIN, meHandler, renderAdmin } from '../../test/admin-test-utils';
import { i18n } from '../../../../app/i18n';
import { exportFileName } from '../lib/export';
import { application, lotRef } from '../../test/application-fixtures';

const PHONE = '0176 5550 1234';
const E164 = '+4917655501234';

const LOOKUP = {
  phone: E164,
  applications: [
    {
      id: 12,
      lot_id: 3,
      status: 'rejected',
      applicant_name: 'Olena Kovalenko',
      applicant_phone: E164,
      applicant_whatsapp: '+380671234567',
      notes: ['[01.11.2026 10:00] admin (a@x) REJECT: abgesagt'],
      created_at: '2026-11-01T09:00:00.000Z',
    },
  ],
  wishes: [
    {
      id: 4,
      status: 'cancelled',
      applicant_name: 'Olena Kovalenko',
      applicant_whatsapp: E164,
      created_at: '2026-10-01T09:00:00.000Z',
    },
  ],
  donations: [
    {
      id: 21,
      status: 'declined',
      donor_name: 'Olena Kovalenko',
      donor_phone: E164,
      created_at: '2026-09-01T09:00:00.000Z',
    },
  ],
};
const RECORDS = {
  mails: [
    {
      id: 7,
      application_id: 12,
      subject: 'Bewerbung Nr. 12 eingegangen',
      to: 'olena@example.org',
      state: 'sent',
      occurred_at: '2026-11-01T09:00:01.000Z',
    },
  ],
  messages: [
    {
      id: 9,
      application_id: 12,
      template: 'mb_rejected',
      channel: 'whatsapp',
      status: 'read',
      created_at: '2026-11-01T09:00:02.000Z',
    },
  ],
  opt_outs: [{ channel: 'sms', by: 'family', since: '2026-11-03T09:00:00.000Z' }],
  activity: [
    {
      id: 30,
      action_type: 'REJECT',
      target_type: 'application',
      target_id: 12,
      created_at: '2026-11-02T09:00:00.000Z',
    },
  ],
};
const EMPTY = { phone: E164, applications: [], wishes: [], donations: [] };

/** The privacy endpoints; `state.erased` switches the lookup to "nothing found". */
function privacyServer(opts: { eraseStatus?: number } = {}) {
  const state = {
    erased: false,
    bodies: [] as { path: string; body: unknown }[],
    urls: [] as string[],
  };
  server.use(
    meHandler(ADMIN),
    http.post(apiUrl('/privacy/lookup'), async ({ request }) => {
      state.urls.push(request.url);
      state.bodies.push({ path: 'lookup', body: await request.json() });
      return HttpResponse.json(state.erased ? EMPTY : LOOKUP);
    }),
    http.post(apiUrl('/privacy/records'), async ({ request }) => {
      state.bodies.push({ path: 'records', body: await request.json() });
      return HttpResponse.json(state.erased ? { mails: [], activity: [] } : RECORDS);
    }),
    http.post(apiUrl('/privacy/erase'), async ({ request }) => {
      state.urls.push(request.url);
      state.bodies.push({ path: 'erase', body: await request.json() });
      if (opts.eraseStatus === 409)
        return HttpResponse.json(
          {
            success: false,
            code: 'PRIVACY_OPEN_RECORDS',
            message: 'Zu dieser Telefonnummer gibt es noch 1 offene Bewerbung(en).',
            detail: 'Zu dieser Telefonnummer gibt es noch 1 offene Bewerbung(en).',
          },
          { status: 409 },
        );
      state.erased = true;
      return HttpResponse.json({ applications: 1, wishes: 1, donations: 1 });
    }),
  );
  return state;
}

async function lookUp(user: ReturnType<typeof renderAdmin>['user']) {
  await user.type(await screen.findByLabelText(/Telefonnummer/), PHONE);
  await user.click(screen.getByRole('button', { name: 'Suchen' }));
  return screen.findByTestId('privacy-summary');
}

describe('data protection page', () => {
  test('when an admin looks a number up, then it goes in POST bodies (not the URL) and applications, wishes, mails and log entries are listed', async () => {
    const state = privacyServer();
    const { user } = renderAdmin('/admin/privacy');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Datenschutz' }),
    ).toBeInTheDocument();
    const summary = await lookUp(user);
    expect(summary).toHaveTextContent(
      'Gefunden: 1 Bewerbung(en), 1 Wunsch/Wünsche, 1 Spende(n), 1 E-Mail(s), 1 Protokolleintrag/-einträge.',
    );
    expect(state.bodies).toEqual([
      { path: 'lookup', body: { phone: PHONE } },
      {
        path: 'records',
        body: {
          application_ids: [12],
          wish_ids: [4],
          donation_ids: [21],
          // the looked-up number and the application's WhatsApp number: their opt-outs (issue 30)
          phones: [E164, '+380671234567'],
        },
      },
    ]);
    for (const url of state.urls) expect(url).not.toContain('5550');
    const apps = screen.getByTestId('privacy-applications');
    expect(
      within(apps).getByText(/Bewerbung #12 \(Lot #3\) · Abgelehnt · Olena Kovalenko/),
    ).toBeInTheDocument();
    expect(within(apps).getByText(/01\.11\.2026/)).toBeInTheDocument();
    expect(
      within(screen.getByTestId('privacy-wishes')).getByText(/Wunsch #4 · Storniert/),
    ).toBeInTheDocument();
    expect(
      within(screen.getByTestId('privacy-donations')).getByText(
        /Spende #21 · Abgelehnt · Olena Kovalenko · 01\.09\.2026/,
      ),
    ).toBeInTheDocument();
    expect(
      within(screen.getByTestId('privacy-mails')).getByText(/olena@example\.org · gesendet/),
    ).toBeInTheDocument();
    expect(
      within(screen.getByTestId('privacy-activity')).getByText(/Abgelehnt · Bewerbung #12/),
    ).toBeInTheDocument();
    expect(
      within(screen.getByTestId('privacy-messages')).getByText(
        /mb_rejected · WhatsApp · gelesen · 01\.11\.2026/,
      ),
    ).toBeInTheDocument();
    expect(
      within(screen.getByTestId('privacy-opt-outs')).getByText(/Keine Nachrichten mehr per SMS/),
    ).toBeInTheDocument();
  });

  test('when the admin confirms the erasure, then it is sent once, the success shows and the new lookup finds nothing; cancelling sends nothing', async () => {
    const state = privacyServer();
    const { user } = renderAdmin('/admin/privacy');
    await lookUp(user);

    await user.click(screen.getByRole('button', { name: 'Alle Daten löschen' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Daten dieser Nummer löschen?' });
    expect(dialog).toHaveTextContent('1 Bewerbung(en), 1 Wunsch/Wünsche und 1 Spende(n)');
    expect(dialog).toHaveTextContent('nicht rückgängig');
    await user.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(state.bodies.filter((b) => b.path === 'erase')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Alle Daten löschen' }));
    dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Gelöscht: 1 Bewerbung(en), 1 Wunsch/Wünsche und 1 Spende(n).',
    );
    expect(await screen.findByText('Zu dieser Nummer ist nichts gespeichert.')).toBeInTheDocument();
    expect(state.bodies.filter((b) => b.path === 'erase')).toEqual([
      { path: 'erase', body: { phone: PHONE } },
    ]);
    expect(screen.queryByRole('button', { name: 'Alle Daten löschen' })).not.toBeInTheDocument();
  });

  test('when the server refuses the erasure (open records), then its message stays inside the dialog', async () => {
    privacyServer({ eraseStatus: 409 });
    const { user } = renderAdmin('/admin/privacy');
    await lookUp(user);
    await user.click(screen.getByRole('button', { name: 'Alle Daten löschen' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('1 offene Bewerbung');
  });

  test('when the download is asked for, then a JSON file named by the day (not the number) holds every record', async () => {
    privacyServer();
    const created: Blob[] = [];
    const names: string[] = [];
    URL.createObjectURL = (blob: Blob) => {
      created.push(blob);
      return 'blob:privacy';
    };
    URL.revokeObjectURL = () => undefined;
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      names.push(this.download);
    });
    const { user } = renderAdmin('/admin/privacy');
    await lookUp(user);
    await user.click(screen.getByRole('button', { name: 'Als JSON herunterladen' }));
    expect(names).toEqual([exportFileName(new Date())]);
    expect(names[0]).not.toContain('5550');
    const data = JSON.parse(await created[0]!.text());
    expect(data).toMatchObject({
      phone: E164,
      applications: LOOKUP.applications,
      wishes: LOOKUP.wishes,
      mails: RECORDS.mails,
      activity: RECORDS.activity,
    });
    click.mockRestore();
  });

  test('when the page is shown in Ukrainian, then its texts are Ukrainian', async () => {
    privacyServer();
    await act(() => i18n.changeLanguage('uk'));
    try {
      renderAdmin('/admin/privacy');
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Захист даних' }),
      ).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Шукати' })).toBeInTheDocument();
    } finally {
      await act(() => i18n.changeLanguage('de'));
    }
  });
});

describe('erased records elsewhere in the back-office', () => {
  test('when an application was erased, then its card says so instead of an empty name, and offers no phone or WhatsApp link', async () => {
    const erased = application({
      id: 77,
      lot_id: 7,
      lot: lotRef(7),
      status: 'rejected',
      applicant_name: '',
      applicant_phone: 'erased:77',
      applicant_phone_raw: '',
      applicant_whatsapp: null,
      applicant_city: '',
      applicant_address: '',
    });
    server.use(
      meHandler(ADMIN),
      http.get(apiUrl('/applications/stats'), () =>
        HttpResponse.json({
          total: 1,
          pending: 0,
          approved: 0,
          rejected: 1,
          completed: 0,
          lots: [],
        }),
      ),
      http.get(apiUrl('/applications'), () =>
        HttpResponse.json({ applications: [erased], total: 1 }),
      ),
    );
    renderAdmin('/admin/applications');
    expect(await screen.findByText('Daten gelöscht (Datenschutz)')).toBeInTheDocument();
    expect(screen.queryByText(/erased:77/)).not.toBeInTheDocument();
    expect(document.querySelector('a[href^="tel:"]')).toBeNull();
  });
});
