import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '../../../../test/server';
import { ADMIN, meHandler, renderAdmin, VOLUNTEER } from '../../test/admin-test-utils';
import { channelStatus, message } from './fixtures';

/** /admin/messages and the budget banner (issue 30), against the mocked API. */

const FAILED = [
  message({
    id: 7,
    kind: 'approved',
    application_id: 41,
    lot_id: 4,
    status: 'failed',
    reason: 'provider_refused',
    channel: 'whatsapp',
  }),
  message({
    id: 6,
    kind: 'wish_match',
    application_id: null,
    lot_id: 9,
    wish_id: 3,
    status: 'failed',
    reason: 'undelivered',
    channel: 'sms',
  }),
  message({
    id: 5,
    kind: 'donation_accepted',
    application_id: null,
    lot_id: null,
    donation_id: 12,
    status: 'failed',
    reason: 'undelivered',
    channel: 'sms',
  }),
];

const statusHandler = (status = channelStatus()) =>
  http.get(apiUrl('/messages/status'), () => HttpResponse.json({ success: true, data: status }));

describe('the messages page', () => {
  test('when it opens, then each channel shows on or off, its use against the budget, the warnings and the provider', async () => {
    server.use(
      meHandler(ADMIN),
      statusHandler(
        channelStatus({
          whatsapp: { used: 850, budget: 1000, warning: true, reachable: false },
          sms: { enabled: false },
        }),
      ),
      http.get(apiUrl('/messages/failed'), () =>
        HttpResponse.json({ success: true, data: { messages: [], total: 0 } }),
      ),
    );
    renderAdmin('/admin/messages');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Nachrichten' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Kanäle \(März 2026\)/ })).toBeInTheDocument();
    const whatsapp = await screen.findByRole('region', { name: 'WhatsApp' });
    expect(whatsapp).toHaveTextContent('eingerichtet');
    expect(whatsapp).toHaveTextContent('Diesen Monat: 850 von 1000 Nachrichten');
    expect(within(whatsapp).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '85');
    expect(whatsapp).toHaveTextContent('80 % des Monatsbudgets sind verbraucht.');
    expect(whatsapp).toHaveTextContent('Anbieter nicht erreichbar');
    const sms = screen.getByRole('region', { name: 'SMS' });
    expect(sms).toHaveTextContent('aus');
    expect(sms).toHaveTextContent('Diesen Monat: 0 Nachrichten (kein Budget festgelegt)');
    expect(await screen.findByText('Keine fehlgeschlagenen Nachrichten.')).toBeInTheDocument();
    // the navigation has the page (for volunteers too: see below)
    expect(screen.getAllByRole('link', { name: 'Nachrichten' })[0]).toHaveAttribute(
      'href',
      '/admin/messages',
    );
  });

  test('when failed messages are listed, then each links to its thread; a resend posts it; a refusal shows the server message', async () => {
    const resent: string[] = [];
    const asked: URL[] = [];
    server.use(
      meHandler(ADMIN),
      statusHandler(),
      http.get(apiUrl('/messages/failed'), ({ request }) => {
        asked.push(new URL(request.url));
        return HttpResponse.json({ success: true, data: { messages: FAILED, total: 3 } });
      }),
      http.post(apiUrl('/messages/:id/resend'), ({ params }) => {
        resent.push(String(params.id));
        if (params.id === '6')
          return HttpResponse.json(
            {
              success: false,
              code: 'MESSAGE_NOT_FAILED',
              message:
                'Diese Nachricht ist nicht fehlgeschlagen und kann nicht erneut gesendet werden.',
              detail:
                'Diese Nachricht ist nicht fehlgeschlagen und kann nicht erneut gesendet werden.',
            },
            { status: 409 },
          );
        return HttpResponse.json(
          { success: true, data: { message: { ...FAILED[0], status: 'queued' } } },
          { status: 202 },
        );
      }),
    );
    const { user } = renderAdmin('/admin/messages');
    const section = await screen.findByRole('region', { name: 'Fehlgeschlagene Nachrichten' });
    await within(section).findByTestId('message-7');
    expect(asked[0]?.searchParams.get('page')).toBe('1');
    expect(within(section).getByRole('link', { name: 'Bewerbung #41' })).toHaveAttribute(
      'href',
      '/admin/applications?lot=4',
    );
    expect(within(section).getByRole('link', { name: 'Wunsch #3' })).toHaveAttribute(
      'href',
      '/admin/wishes/3',
    );
    expect(within(section).getByRole('link', { name: 'Spende #12' })).toHaveAttribute(
      'href',
      '/admin/donations/12',
    );
    expect(section).toHaveTextContent('vom Anbieter abgelehnt');
    expect(section).toHaveTextContent('Zeige 1 bis 3 von 3 Nachrichten');

    const buttons = within(section).getAllByRole('button', { name: 'Erneut senden' });
    await user.click(buttons[0]!);
    expect(await screen.findByText('Die Nachricht wird erneut gesendet.')).toBeInTheDocument();
    await user.click(buttons[1]!);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Diese Nachricht ist nicht fehlgeschlagen und kann nicht erneut gesendet werden.',
    );
    expect(resent).toEqual(['7', '6']);
  });

  test('when staff look a number up, then it goes in the body and each channel has a switch', async () => {
    const bodies: unknown[] = [];
    const urls: string[] = [];
    server.use(
      meHandler(VOLUNTEER),
      statusHandler(),
      http.get(apiUrl('/messages/failed'), () =>
        HttpResponse.json({ success: true, data: { messages: [], total: 0 } }),
      ),
      http.post(apiUrl('/messages/opt-outs/lookup'), async ({ request }) => {
        urls.push(request.url);
        bodies.push(await request.json());
        return HttpResponse.json({
          success: true,
          data: { phone: '+4917612345678', whatsapp: true, sms: false },
        });
      }),
      http.put(apiUrl('/messages/opt-outs'), async ({ request }) => {
        urls.push(request.url);
        bodies.push(await request.json());
        return HttpResponse.json({
          success: true,
          data: { phone: '+4917612345678', whatsapp: true, sms: true },
        });
      }),
    );
    const { user } = renderAdmin('/admin/messages', VOLUNTEER);
    const form = await screen.findByRole('region', { name: 'Abmeldung nachschlagen' });
    await user.type(within(form).getByLabelText(/Telefonnummer/), '0176 12345678');
    await user.click(within(form).getByRole('button', { name: 'Nachschlagen' }));
    const result = await within(form).findByTestId('opt-out-result');
    expect(result).toHaveTextContent('Nummer +4917612345678');
    const whatsapp = within(result).getByRole('switch', { name: /^WhatsApp abgemeldet/ });
    const sms = within(result).getByRole('switch', { name: /^SMS abgemeldet/ });
    expect(whatsapp).toBeChecked();
    expect(sms).not.toBeChecked();
    await user.click(sms);
    await waitFor(() =>
      expect(bodies).toEqual([
        { phone: '0176 12345678' },
        { phone: '+4917612345678', channel: 'sms', opted_out: true },
        // read again after the change
        { phone: '0176 12345678' },
      ]),
    );
    for (const url of urls) expect(url).not.toMatch(/\d{6}/);
  });
});

describe('the budget banner', () => {
  const warning = channelStatus({
    whatsapp: { used: 820, budget: 1000, warning: true },
    sms: { used: 100, budget: 100, warning: true, spent: true },
  });

  test('when a channel used 80 % or all of its budget, then administrators see it on every back-office page', async () => {
    server.use(
      meHandler(ADMIN),
      statusHandler(warning),
      http.get(apiUrl('/users'), () => HttpResponse.json({ users: [], total: 0 })),
      http.get(apiUrl('/users/'), () => HttpResponse.json({ users: [], total: 0 })),
    );
    renderAdmin('/admin/profile');
    const banner = await screen.findByText(
      /WhatsApp: 80 % des Monatsbudgets für Nachrichten sind verbraucht \(820 von 1000\)/,
    );
    expect(banner.closest('[role="status"]')).toHaveTextContent(
      'SMS: Das Monatsbudget für Nachrichten ist aufgebraucht (100 von 100).',
    );
    expect(screen.getByRole('link', { name: 'Zu den Nachrichten' })).toHaveAttribute(
      'href',
      '/admin/messages',
    );
  });

  test('when the user is a volunteer, then the status is not asked and there is no banner', async () => {
    let asked = 0;
    server.use(
      meHandler(VOLUNTEER),
      http.get(apiUrl('/messages/status'), () => {
        asked += 1;
        return HttpResponse.json({ success: true, data: warning });
      }),
    );
    renderAdmin('/admin/profile', VOLUNTEER);
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByText(/Monatsbudgets/)).not.toBeInTheDocument();
    expect(asked).toBe(0);
  });
});
