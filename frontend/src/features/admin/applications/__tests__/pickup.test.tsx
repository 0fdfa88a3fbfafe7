import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '../../../../test/server';
import { ADMIN, meHandler, renderAdmin } from '../../test/admin-test-utils';
import { dayFromToday } from '../../lib/dates';
import { application, lotRef } from '../../test/application-fixtures';

/** Pickup dates in the back-office (issue 19): proposed, shown, overdue, extended, lapsed. */
const german = (day: string) => day.split('-').reverse().join('.');

function stats() {
  return http.get(apiUrl('/applications/stats'), () =>
    HttpResponse.json({ total: 3, pending: 2, approved: 1, rejected: 0, completed: 0, lots: [] }),
  );
}

describe('pickup dates', () => {
  test('when staff approve, then the dialog proposes the day a week ahead and sends the chosen day', async () => {
    const bodies: unknown[] = [];
    const app = application({ id: 41, lot_id: 4, lot: lotRef(4), queue_position: 1 });
    server.use(
      meHandler(ADMIN),
      stats(),
      http.get(apiUrl('/applications'), () => HttpResponse.json({ applications: [app], total: 1 })),
      http.patch(apiUrl('/applications/:id/status'), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(app, { status: 202 });
      }),
    );
    const { user } = renderAdmin('/admin/applications');
    await screen.findByText(app.applicant_name);
    await user.click(screen.getByRole('button', { name: 'Genehmigen' }));
    const dialog = await screen.findByRole('dialog');
    const date = within(dialog).getByLabelText('Abholung bis (letzter Tag)');
    // typed and shown as TT.MM.JJJJ, whatever the browser's language
    expect(date).toHaveValue(german(dayFromToday(7)));
    await user.clear(date);
    await user.type(date, german(dayFromToday(10)));
    await user.click(within(dialog).getByRole('button', { name: 'Genehmigen' }));
    await waitFor(() =>
      expect(bodies).toEqual([{ status: 'approved', pickup_by: dayFromToday(10) }]),
    );
  });

  test('when a reservation is overdue, then the card says so and staff let it lapse; when it is not, only the date can change', async () => {
    const calls: { url: string; body: unknown }[] = [];
    const overdue = application({
      id: 51,
      lot_id: 5,
      lot: lotRef(5, 'reserved'),
      status: 'approved',
      applicant_name: 'Halyna B.',
      pickup_by: dayFromToday(-2),
      pickup_overdue: true,
    });
    const onTime = application({
      id: 61,
      lot_id: 6,
      lot: lotRef(6, 'reserved'),
      status: 'approved',
      applicant_name: 'Nina W.',
      pickup_by: dayFromToday(3),
      pickup_reminded_at: '2026-03-01T10:00:00Z',
    });
    const next = application({
      id: 71,
      lot_id: 7,
      lot: lotRef(7),
      queue_position: 1,
      applicant_name: 'Marta K.',
      next_in_queue_after: 70,
    });
    server.use(
      meHandler(ADMIN),
      stats(),
      http.get(apiUrl('/applications'), () =>
        HttpResponse.json({ applications: [overdue, onTime, next], total: 3 }),
      ),
      http.post(apiUrl('/applications/:id/lapse'), async ({ request }) => {
        calls.push({ url: request.url, body: await request.json() });
        return HttpResponse.json({ ...overdue, status: 'rejected' });
      }),
      http.patch(apiUrl('/applications/:id/pickup'), async ({ request }) => {
        calls.push({ url: request.url, body: await request.json() });
        return HttpResponse.json(onTime);
      }),
    );
    const { user } = renderAdmin('/admin/applications');
    const card = async (name: string) => (await screen.findByText(name)).closest('li')!;

    const halyna = await card('Halyna B.');
    expect(within(halyna).getByText('Abholung überfällig')).toBeInTheDocument();
    expect(
      within(halyna).getByText(new RegExp(`Abholfrist am ${german(dayFromToday(-2))} abgelaufen`)),
    ).toBeInTheDocument();
    const nina = await card('Nina W.');
    expect(
      within(nina).getByText(`Abholung bis ${german(dayFromToday(3))}. Erinnerung verschickt.`),
    ).toBeInTheDocument();
    expect(within(nina).queryByRole('button', { name: 'Nicht abgeholt – weitergeben' })).toBeNull();
    const marta = await card('Marta K.');
    expect(within(marta).getByText(/weil Bewerbung #70 es nicht abgeholt hat/)).toBeInTheDocument();

    await user.click(within(halyna).getByRole('button', { name: 'Nicht abgeholt – weitergeben' }));
    const lapse = await screen.findByRole('dialog', { name: /Halyna B\./ });
    await user.type(within(lapse).getByLabelText(/Notiz/), 'Nicht erreichbar');
    await user.click(within(lapse).getByRole('button', { name: 'Nicht abgeholt – weitergeben' }));
    expect(
      await screen.findByText('Reservierung verfallen: Das Lot geht an die nächste Familie.'),
    ).toBeInTheDocument();

    await user.click(within(nina).getByRole('button', { name: 'Abholfrist ändern' }));
    const extend = await screen.findByRole('dialog', { name: /Nina W\./ });
    const date = within(extend).getByLabelText('Abholung bis (letzter Tag)');
    expect(date).toHaveValue(german(dayFromToday(7)));
    await user.click(within(extend).getByRole('button', { name: 'Abholfrist ändern' }));
    expect(
      await screen.findByText(`Neue Abholfrist: ${german(dayFromToday(7))}`),
    ).toBeInTheDocument();
    expect(calls.map((c) => [new URL(c.url).pathname, c.body])).toEqual([
      ['/api/v1/applications/51/lapse', { note: 'Nicht erreichbar' }],
      ['/api/v1/applications/61/pickup', { pickup_by: dayFromToday(7) }],
    ]);
  });
});
