import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import deAdmin from '../../../../../public/locales/de/admin.json';
import { apiUrl, server } from '../../../../test/server';
import { ADMIN, meHandler, renderAdmin } from '../../test/admin-test-utils';
import { QUEUE_KEY } from '../lib/outcome-queue';

/** The day plan (issue 29): outcomes, the order, and outcomes kept through a lost connection. */
const plan = deAdmin.handovers.plan;
const DAY = '2026-05-12';

const stop = (id: number, name: string, over: Record<string, unknown> = {}) => ({
  id,
  application_id: 100 + id,
  donation_id: null,
  lot: { id: 7, name: { de: 'Graues Sofa', uk: 'Сірий диван' } },
  kind: 'delivery',
  slot_id: 50,
  starts_at: `${DAY}T10:00:00+02:00`,
  ends_at: `${DAY}T12:00:00+02:00`,
  location: { id: 1, name: 'Lager Nord', address: 'Hafenstraße 4', city: 'Leipzig' },
  family: { name, phone: '+4917612345678', address: 'Ringweg 3', city: 'Leipzig' },
  status: 'booked',
  position: id,
  note: null,
  ...over,
});

let online = true;
beforeAll(() => {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
});
beforeEach(() => {
  online = true;
});

function serve(stops: ReturnType<typeof stop>[]) {
  const state = { stops, patches: [] as { id: string; body: unknown }[] };
  server.use(
    meHandler(ADMIN),
    http.get(apiUrl('/handovers/'), ({ request }) => {
      expect(new URL(request.url).searchParams.get('date')).toBe(DAY);
      return HttpResponse.json({ handovers: state.stops });
    }),
  );
  return state;
}

async function markDone(user: ReturnType<typeof renderAdmin>['user'], name: string) {
  await user.click(screen.getByRole('button', { name: `${plan.outcome.done} (${name})` }));
  const dialog = await screen.findByRole('dialog', {
    name: plan.confirmTitle.done.replace('{{name}}', name),
  });
  await user.type(within(dialog).getByRole('textbox', { name: /^Notiz/ }), 'Sofa im 2. Stock');
  await user.click(within(dialog).getByRole('button', { name: plan.outcome.done }));
}

/** The page's chunk is compiled on first use: the first wait may take longer. */
const firstLoad = { timeout: 15_000 };

describe('the day plan', () => {
  test('when a stop is shown, then it has the map, phone and WhatsApp links and the lot', async () => {
    serve([stop(1, 'Olena K.')]);
    renderAdmin(`/admin/handovers?date=${DAY}`);
    const card = await screen.findByRole('listitem', { name: /Olena K\./ }, firstLoad);
    expect(within(card).getByRole('link', { name: plan.map })).toHaveAttribute(
      'href',
      'https://www.openstreetmap.org/search?query=Ringweg%203%2C%20Leipzig',
    );
    expect(within(card).getByRole('link', { name: /WhatsApp/ })).toHaveAttribute(
      'href',
      'https://wa.me/4917612345678',
    );
    expect(within(card).getByRole('link', { name: /\+49 176/ })).toHaveAttribute(
      'href',
      'tel:+4917612345678',
    );
    expect(within(card).getByRole('link', { name: 'Graues Sofa' })).toHaveAttribute(
      'href',
      '/admin/lots/7',
    );
  });

  test('when the connection is gone, then the outcome waits on the phone and goes out once it is back', async () => {
    const state = serve([stop(1, 'Olena K.')]);
    server.use(
      http.patch(apiUrl('/handovers/:id'), async ({ params, request }) => {
        state.patches.push({ id: String(params.id), body: await request.json() });
        state.stops = [stop(1, 'Olena K.', { status: 'done', note: 'Sofa im 2. Stock' })];
        return HttpResponse.json(state.stops[0]);
      }),
    );
    const { user } = renderAdmin(`/admin/handovers?date=${DAY}`);
    await screen.findByRole('listitem', { name: /Olena K\./ });
    online = false;
    act(() => void window.dispatchEvent(new Event('offline')));
    await markDone(user, 'Olena K.');

    const card = screen.getByRole('listitem', { name: /Olena K\./ });
    await within(card).findByText(plan.waiting);
    expect(screen.getByText(/1 Rückmeldung wartet auf Verbindung/)).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(QUEUE_KEY)!)).toEqual([
      { id: 1, outcome: 'done', note: 'Sofa im 2. Stock', date: DAY },
    ]);
    expect(state.patches).toEqual([]);
    // no second outcome for a stop that waits
    expect(within(card).queryByRole('button', { name: /erledigt/ })).toBeNull();

    online = true;
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() =>
      expect(state.patches).toEqual([
        { id: '1', body: { outcome: 'done', note: 'Sofa im 2. Stock' } },
      ]),
    );
    await within(card).findByText(deAdmin.handovers.status.done);
    expect(within(card).queryByText(plan.waiting)).toBeNull();
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
  });

  test('when the call itself gets no answer, then the outcome is kept as well', async () => {
    const state = serve([stop(1, 'Olena K.')]);
    server.use(http.patch(apiUrl('/handovers/:id'), () => HttpResponse.error()));
    const { user } = renderAdmin(`/admin/handovers?date=${DAY}`);
    await screen.findByRole('listitem', { name: /Olena K\./ });
    await markDone(user, 'Olena K.');
    await screen.findByText(plan.waiting);
    expect(JSON.parse(localStorage.getItem(QUEUE_KEY)!)).toHaveLength(1);
    expect(state.patches).toEqual([]);
  });

  test('when a kept outcome is sent on page load and someone else was first (409 HANDOVER_CLOSED), then the stop says so', async () => {
    localStorage.setItem(
      QUEUE_KEY,
      JSON.stringify([{ id: 2, outcome: 'absent', note: null, date: DAY }]),
    );
    const state = serve([stop(2, 'Andrii B.', { status: 'done' })]);
    server.use(
      http.patch(apiUrl('/handovers/:id'), ({ params }) => {
        state.patches.push({ id: String(params.id), body: null });
        return HttpResponse.json(
          {
            code: 'HANDOVER_CLOSED',
            message: 'Für diesen Termin ist bereits „erledigt“ eingetragen.',
          },
          { status: 409 },
        );
      }),
    );
    renderAdmin(`/admin/handovers?date=${DAY}`);
    const card = await screen.findByRole('listitem', { name: /Andrii B\./ });
    await within(card).findByText(plan.closedByOtherStop);
    expect(state.patches.map((p) => p.id)).toEqual(['2']);
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
  });

  test('when a stop is moved up, then the new order is sent and shown', async () => {
    const state = serve([stop(1, 'Olena K.'), stop(2, 'Andrii B.')]);
    const orders: unknown[] = [];
    server.use(
      http.put(apiUrl('/handovers/order'), async ({ request }) => {
        orders.push(await request.json());
        state.stops = [stop(2, 'Andrii B.', { position: 0 }), stop(1, 'Olena K.', { position: 1 })];
        return HttpResponse.json({});
      }),
    );
    const { user } = renderAdmin(`/admin/handovers?date=${DAY}`);
    await screen.findByRole('listitem', { name: /Andrii B\./ });
    await user.click(
      screen.getByRole('button', { name: plan.moveUp.replace('{{name}}', 'Andrii B.') }),
    );
    await waitFor(() => expect(orders).toEqual([{ date: DAY, ids: [2, 1] }]));
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: plan.stops }))
          .getAllByRole('heading', { level: 2 })
          .map((h) => h.textContent),
      ).toEqual([expect.stringContaining('Andrii B.'), expect.stringContaining('Olena K.')]),
    );
  });
});
