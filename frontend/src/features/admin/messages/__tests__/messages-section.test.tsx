import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Wish } from '@furniture/contracts/api/applications';
import { i18n } from '../../../../app/i18n';
import { apiUrl, server } from '../../../../test/server';
import { ADMIN, meHandler, renderAdmin } from '../../test/admin-test-utils';
import { application, lotRef } from '../../test/application-fixtures';
import { channelStatus, message } from './fixtures';

/** The messages on an application card and a wish (issue 30), against the mocked API. */

const APP = application({
  id: 41,
  lot_id: 4,
  lot: lotRef(4, 'reserved'),
  status: 'approved',
  applicant_name: 'Olena K.',
  applicant_phone: '+4917612345678',
  applicant_whatsapp: '+4915112345678',
  queue_position: 1,
});

const THREAD = [
  message({
    id: 2,
    kind: 'staff_call_office',
    channel: 'sms',
    to: '+49 176 ••• 678',
    status: 'failed',
    reason: 'undelivered',
    emailed: true,
    requested_by: 'Anna Admin',
    created_at: '2026-03-06T14:05:00.000Z',
    steps: [
      {
        channel: 'whatsapp',
        status: 'failed',
        at: '2026-03-06T14:05:10.000Z',
        error: '131026 Message undeliverable',
      },
      {
        channel: 'sms',
        status: 'failed',
        at: '2026-03-06T14:05:20.000Z',
        error: '30003 Unreachable',
      },
    ],
  }),
  message({
    id: 1,
    kind: 'approved',
    status: 'read',
    created_at: '2026-03-05T09:30:00.000Z',
    steps: [
      { channel: 'whatsapp', status: 'sent', at: '2026-03-05T09:30:05.000Z', error: null },
      { channel: 'whatsapp', status: 'delivered', at: '2026-03-05T09:30:09.000Z', error: null },
      { channel: 'whatsapp', status: 'read', at: '2026-03-05T09:40:00.000Z', error: null },
    ],
  }),
];

function applicationHandlers() {
  return [
    meHandler(ADMIN),
    http.get(apiUrl('/applications/stats'), () =>
      HttpResponse.json({ total: 1, pending: 0, approved: 1, rejected: 0, completed: 0, lots: [] }),
    ),
    http.get(apiUrl('/applications'), () => HttpResponse.json({ applications: [APP], total: 1 })),
  ];
}

/** Opt-outs as the server keeps them, by number (the lookup answers the number as E.164). */
function optOutHandlers(store: Map<string, { whatsapp: boolean; sms: boolean }>, seen: Request[]) {
  return [
    http.post(apiUrl('/messages/opt-outs/lookup'), async ({ request }) => {
      seen.push(request.clone());
      const { phone } = (await request.json()) as { phone: string };
      const state = store.get(phone) ?? { whatsapp: false, sms: false };
      return HttpResponse.json({ success: true, data: { phone, ...state } });
    }),
    http.put(apiUrl('/messages/opt-outs'), async ({ request }) => {
      seen.push(request.clone());
      const body = (await request.json()) as {
        phone: string;
        channel: 'whatsapp' | 'sms';
        opted_out: boolean;
      };
      const state = store.get(body.phone) ?? { whatsapp: false, sms: false };
      store.set(body.phone, { ...state, [body.channel]: body.opted_out });
      return HttpResponse.json({
        success: true,
        data: { phone: body.phone, ...store.get(body.phone) },
      });
    }),
  ];
}

async function openMessages(user: ReturnType<typeof renderAdmin>['user']) {
  await screen.findByText(APP.applicant_name);
  await user.click(screen.getByRole('button', { name: 'Nachrichten' }));
  return screen.getByRole('region', { name: 'Nachrichten' });
}

describe('messages on an application card', () => {
  test('when the section opens, then the thread shows newest first with kind, channel, masked number, status, reason, steps, e-mail mark and German dates', async () => {
    const asked: URL[] = [];
    server.use(
      ...applicationHandlers(),
      ...optOutHandlers(new Map(), []),
      http.get(apiUrl('/messages/'), ({ request }) => {
        asked.push(new URL(request.url));
        return HttpResponse.json({ success: true, data: { messages: THREAD } });
      }),
    );
    const { user } = renderAdmin('/admin/applications');
    await screen.findByText(APP.applicant_name);
    // closed: a page of cards does not ask for every thread
    expect(asked).toEqual([]);
    const section = await openMessages(user);
    const list = await within(section).findByRole('list', { name: 'Nachrichten, neueste zuerst' });
    expect(asked.map((u) => u.searchParams.get('application_id'))).toContain('41');
    const items = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.dataset.testid);
    expect(items.map((li) => li.dataset.testid)).toEqual(['message-2', 'message-1']);

    const failed = within(items[0]!);
    expect(failed.getByText('Bitte im Büro anrufen')).toBeInTheDocument();
    expect(failed.getByText('fehlgeschlagen')).toBeInTheDocument();
    expect(failed.getByText('nicht zustellbar')).toBeInTheDocument();
    expect(failed.getByText('SMS')).toBeInTheDocument();
    expect(failed.getByText('+49 176 ••• 678')).toBeInTheDocument();
    expect(failed.getByText('auch per E-Mail')).toBeInTheDocument();
    expect(failed.getByText('angefordert von Anna Admin')).toBeInTheDocument();
    const steps = failed.getAllByRole('listitem').map((li) => li.textContent);
    expect(steps[0]).toMatch(
      /^WhatsApp: fehlgeschlagen, 06\.03\.2026, \d\d:05 \(131026 Message undeliverable\)$/,
    );
    expect(steps[1]).toMatch(/^SMS: fehlgeschlagen, 06\.03\.2026, \d\d:05 \(30003 Unreachable\)$/);

    const read = within(items[1]!);
    expect(read.getByText('Bewerbung genehmigt')).toBeInTheDocument();
    expect(read.getByText('gelesen')).toBeInTheDocument();
    expect(read.getByText('auf Ukrainisch')).toBeInTheDocument();
    expect(read.queryByText('auch per E-Mail')).not.toBeInTheDocument();
    expect(read.getAllByRole('listitem').map((li) => li.textContent?.split(',')[0])).toEqual([
      'WhatsApp: gesendet',
      'WhatsApp: zugestellt',
      'WhatsApp: gelesen',
    ]);
  });

  test('when staff send a prepared message, then the chosen template is posted, success shows, the list reads the new message and focus returns to the button', async () => {
    const posted: { url: string; body: unknown }[] = [];
    let thread = [THREAD[1]!];
    server.use(
      ...applicationHandlers(),
      ...optOutHandlers(new Map(), []),
      http.get(apiUrl('/messages/'), () =>
        HttpResponse.json({ success: true, data: { messages: thread } }),
      ),
      http.post(apiUrl('/applications/:id/messages'), async ({ request }) => {
        posted.push({ url: new URL(request.url).pathname, body: await request.json() });
        thread = [message({ id: 3, kind: 'staff_still_interested', status: 'queued' }), ...thread];
        return HttpResponse.json({ success: true, data: { requested: true } }, { status: 202 });
      }),
    );
    const { user } = renderAdmin('/admin/applications');
    const section = await openMessages(user);
    const open = await within(section).findByRole('button', { name: 'Nachricht senden' });
    await waitFor(() => expect(open).toBeEnabled());
    await user.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Nachricht an die Familie senden' });
    // the family's language and what each message says
    expect(dialog).toHaveTextContent('auf Ukrainisch');
    const choice = within(dialog).getByRole('radio', { name: 'Noch Interesse?' });
    expect(choice).toHaveAccessibleDescription(/ob die Familie die Möbel noch haben möchte/);
    await user.click(choice);
    await user.click(within(dialog).getByRole('button', { name: 'Senden' }));

    expect(
      await screen.findByText('Die Nachricht ist unterwegs. Sie erscheint gleich in der Liste.'),
    ).toBeInTheDocument();
    expect(posted).toEqual([
      { url: '/api/v1/applications/41/messages', body: { template: 'still_interested' } },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(section).findByTestId('message-3')).toHaveTextContent('Noch Interesse?');
    await waitFor(() => expect(open).toHaveFocus());
  });

  test('when the server refuses the send, then the dialog stays open with its message; Escape closes it', async () => {
    server.use(
      ...applicationHandlers(),
      ...optOutHandlers(new Map(), []),
      http.get(apiUrl('/messages/'), () =>
        HttpResponse.json({ success: true, data: { messages: [] } }),
      ),
      http.post(apiUrl('/applications/:id/messages'), () =>
        HttpResponse.json(
          {
            success: false,
            code: 'MESSAGES_OFF',
            message: 'Der Versand per WhatsApp und SMS ist nicht eingerichtet.',
            detail: 'Der Versand per WhatsApp und SMS ist nicht eingerichtet.',
          },
          { status: 409 },
        ),
      ),
    );
    const { user } = renderAdmin('/admin/applications');
    const section = await openMessages(user);
    expect(
      await within(section).findByText('Noch keine Nachrichten per WhatsApp oder SMS.'),
    ).toBeInTheDocument();
    const open = within(section).getByRole('button', { name: 'Nachricht senden' });
    await waitFor(() => expect(open).toBeEnabled());
    await user.click(open);
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Senden' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Der Versand per WhatsApp und SMS ist nicht eingerichtet.',
    );
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(open).toHaveFocus());
  });

  test('when both channels are off, then the section says so and the send button is disabled with that explanation', async () => {
    server.use(
      ...applicationHandlers(),
      ...optOutHandlers(new Map(), []),
      http.get(apiUrl('/messages/status'), () =>
        HttpResponse.json({
          success: true,
          data: channelStatus({ whatsapp: { enabled: false }, sms: { enabled: false } }),
        }),
      ),
      http.get(apiUrl('/messages/'), () =>
        HttpResponse.json({ success: true, data: { messages: [] } }),
      ),
    );
    const { user } = renderAdmin('/admin/applications');
    const section = await openMessages(user);
    const note = await within(section).findByText(/WhatsApp und SMS sind nicht eingerichtet/);
    const button = within(section).getByRole('button', { name: 'Nachricht senden' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(note.textContent ?? '');
  });

  test('when staff switch a number to opted out, then the lookup and the change carry the number in the body only and the switch follows', async () => {
    const seen: Request[] = [];
    const store = new Map([['+4917612345678', { whatsapp: false, sms: true }]]);
    server.use(
      ...applicationHandlers(),
      ...optOutHandlers(store, seen),
      http.get(apiUrl('/messages/'), () =>
        HttpResponse.json({ success: true, data: { messages: [] } }),
      ),
    );
    const { user } = renderAdmin('/admin/applications');
    const section = await openMessages(user);
    // the WhatsApp number and the phone differ: a pair of switches for each
    const whatsapp = await within(section).findByRole('switch', {
      name: 'WhatsApp abgemeldet (WhatsApp-Nummer +49 1511 2345678)',
    });
    const sms = await within(section).findByRole('switch', {
      name: 'SMS abgemeldet (Telefonnummer +49 176 12345678)',
    });
    expect(whatsapp).not.toBeChecked();
    expect(sms).toBeChecked();
    await user.click(whatsapp);
    await waitFor(() => expect(whatsapp).toBeChecked());
    expect(
      await screen.findByText('WhatsApp: Die Nummer ist jetzt abgemeldet.'),
    ).toBeInTheDocument();

    const put = seen.find((r) => r.method === 'PUT')!;
    expect(await put.json()).toEqual({
      phone: '+4915112345678',
      channel: 'whatsapp',
      opted_out: true,
    });
    for (const request of seen) {
      expect(request.url).not.toMatch(/4915112345678|4917612345678/);
    }
    expect(store.get('+4915112345678')).toEqual({ whatsapp: true, sms: false });
  });
});

function wish(overrides: Partial<Wish> = {}): Wish {
  return {
    id: 7,
    status: 'active',
    admin_notes: null,
    applicant_name: 'Familie 7',
    applicant_whatsapp: '+4917612345678',
    applicant_whatsapp_raw: '0176 12345678',
    applicant_email: null,
    furniture_category: 2,
    furniture_description: 'Ein Bett',
    language: 'de',
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:00:00.000Z',
    matching_lots: [],
    ...overrides,
  } as Wish;
}

describe('messages of a wish', () => {
  test('when a wish is open in Ukrainian, then its thread shows in Ukrainian with uk-UA dates and a prepared message goes to the wish', async () => {
    const asked: URL[] = [];
    const posted: { url: string; body: unknown }[] = [];
    server.use(
      meHandler(ADMIN),
      http.get(apiUrl('/categories/'), () => HttpResponse.json({ success: true, data: [] })),
      http.get(apiUrl('/wishes/:id'), () => HttpResponse.json(wish())),
      ...optOutHandlers(new Map(), []),
      http.get(apiUrl('/messages/'), ({ request }) => {
        asked.push(new URL(request.url));
        return HttpResponse.json({
          success: true,
          data: {
            messages: [
              message({
                id: 9,
                kind: 'wish_match',
                application_id: null,
                wish_id: 7,
                language: 'de',
                status: 'skipped',
                reason: 'opted_out',
                channel: null,
                to: null,
                created_at: '2026-03-05T09:30:00.000Z',
              }),
            ],
          },
        });
      }),
      http.post(apiUrl('/wishes/:id/messages'), async ({ request }) => {
        posted.push({ url: new URL(request.url).pathname, body: await request.json() });
        return HttpResponse.json({ success: true, data: { requested: true } }, { status: 202 });
      }),
    );
    await i18n.changeLanguage('uk');
    const { user } = renderAdmin('/admin/wishes/7');
    const section = await screen.findByRole('region', { name: 'Повідомлення' });
    const item = await within(section).findByTestId('message-9');
    expect(asked[0]?.searchParams.get('wish_id')).toBe('7');
    expect(item).toHaveTextContent('Підходящі меблі до побажання');
    expect(item).toHaveTextContent('не надіслано');
    expect(item).toHaveTextContent('номер відписався');
    expect(item).toHaveTextContent('без каналу');
    expect(item).toHaveTextContent('05.03.2026');

    await user.click(within(section).getByRole('button', { name: 'Надіслати повідомлення' }));
    const dialog = await screen.findByRole('dialog', { name: 'Надіслати повідомлення родині' });
    expect(dialog).toHaveTextContent('німецька');
    await user.click(within(dialog).getByRole('radio', { name: 'Нагадування про отримання' }));
    await user.click(within(dialog).getByRole('button', { name: 'Надіслати' }));
    await waitFor(() =>
      expect(posted).toEqual([
        { url: '/api/v1/wishes/7/messages', body: { template: 'pickup_reminder' } },
      ]),
    );
  });
});
