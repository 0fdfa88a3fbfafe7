import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import deHandover from '../../../../public/locales/de/handover.json';
import ukHandover from '../../../../public/locales/uk/handover.json';
import { i18n } from '../../../app/i18n';
import { serveCatalog } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl, server } from '../../../test/server';

i18n.addResourceBundle('de', 'handover', deHandover, true, true);
i18n.addResourceBundle('uk', 'handover', ukHandover, true, true);

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz012345';
const PLACE = { name: 'Lager Nord', address: 'Hafenstraße 4', city: 'Leipzig' };
const future = (days: number, hour: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hour - 2, 0, 0, 0);
  return d.toISOString();
};
const SLOTS = [
  {
    id: 11,
    kind: 'pickup',
    starts_at: future(3, 10),
    ends_at: future(3, 12),
    location: PLACE,
    free: 2,
  },
  {
    id: 12,
    kind: 'delivery',
    starts_at: future(4, 14),
    ends_at: future(4, 16),
    location: PLACE,
    free: 1,
  },
];
const answer = (over: Record<string, unknown> = {}) => ({
  application_id: 5,
  lot: { id: 3, name: { de: 'Graues Sofa', uk: 'Сірий диван' } },
  pickup_by: '2099-12-31',
  booking: null,
  slots: SLOTS,
  language: 'uk',
  ...over,
});
const bookingOf = (slot: (typeof SLOTS)[number]) => ({
  slot_id: slot.id,
  kind: slot.kind,
  starts_at: slot.starts_at,
  ends_at: slot.ends_at,
  location: PLACE,
  changeable_until: future(2, 10),
});

describe('the family handover page', () => {
  beforeEach(() => serveCatalog());

  test('when a Ukrainian family opens its link in a German browser, then the page is Ukrainian, sends no referrer, and books a slot', async () => {
    let current = answer();
    const posted: unknown[] = [];
    server.use(
      http.get(apiUrl(`/handovers/${TOKEN}`), () => HttpResponse.json(current)),
      http.post(apiUrl(`/handovers/${TOKEN}/booking`), async ({ request }) => {
        posted.push(await request.json());
        current = answer({ booking: bookingOf(SLOTS[0]!) });
        return HttpResponse.json({ booking: bookingOf(SLOTS[0]!) });
      }),
    );
    const { user } = renderApp(`/handover/${TOKEN}`);
    await screen.findByRole('heading', { level: 1, name: ukHandover.title });
    expect(i18n.language).toBe('uk');
    expect(document.querySelector('meta[name="referrer"]')).toHaveAttribute(
      'content',
      'no-referrer',
    );
    expect(screen.getByRole('link', { name: 'Сірий диван' })).toHaveAttribute('href', '/lots/3');
    expect(screen.getByText(ukHandover.kind.pickup)).toBeInTheDocument();
    expect(screen.getByText(ukHandover.kind.delivery)).toBeInTheDocument();
    expect(screen.getByText('Залишилось 2 місця')).toBeInTheDocument();

    const book = screen.getAllByRole('button', { name: new RegExp(ukHandover.slots.book) });
    await user.click(book[0]!);
    await screen.findByText(ukHandover.notice.booked);
    expect(posted).toEqual([{ slot_id: 11 }]);
    const card = screen.getByRole('region', { name: ukHandover.booking.title });
    expect(within(card).getByRole('link', { name: ukHandover.booking.calendar })).toHaveAttribute(
      'href',
      `/api/v1/handovers/${TOKEN}/calendar.ics`,
    );
    expect(within(card).getByRole('link', { name: ukHandover.booking.map })).toHaveAttribute(
      'href',
      'https://www.openstreetmap.org/search?query=Hafenstra%C3%9Fe%204%2C%20Leipzig',
    );
  });

  test('when the visitor switched to German on the page, then a reload keeps German', async () => {
    server.use(http.get(apiUrl(`/handovers/${TOKEN}`), () => HttpResponse.json(answer())));
    const first = renderApp(`/handover/${TOKEN}`);
    await screen.findByRole('heading', { level: 1, name: ukHandover.title });
    // the visitor presses DE in the header
    await act(() => first.user.click(screen.getAllByRole('button', { name: /^DE/ })[0]!));
    await screen.findByRole('heading', { level: 1, name: deHandover.title });
    first.unmount();
    renderApp(`/handover/${TOKEN}`);
    await screen.findByRole('heading', { level: 1, name: deHandover.title });
    await screen.findAllByText(deHandover.kind.pickup);
    expect(i18n.language).toBe('de');
  });

  test('when the slot filled meanwhile (409 SLOT_FULL), then the list is read again and the page says so', async () => {
    let reads = 0;
    server.use(
      http.get(apiUrl(`/handovers/${TOKEN}`), () => {
        reads += 1;
        return HttpResponse.json(answer({ language: 'de', slots: reads > 1 ? [SLOTS[1]] : SLOTS }));
      }),
      http.post(apiUrl(`/handovers/${TOKEN}/booking`), () =>
        HttpResponse.json(
          { code: 'SLOT_FULL', message: 'Dieser Termin ist inzwischen ausgebucht.' },
          { status: 409 },
        ),
      ),
    );
    const { user } = renderApp(`/handover/${TOKEN}`);
    await screen.findByRole('heading', { level: 1, name: deHandover.title });
    await user.click(
      screen.getAllByRole('button', { name: new RegExp(deHandover.slots.book) })[0]!,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(deHandover.errors.full);
    await waitFor(() =>
      expect(
        screen.getAllByRole('button', { name: new RegExp(deHandover.slots.book) }),
      ).toHaveLength(1),
    );
    expect(reads).toBe(2);
  });

  test('when the family cancels after the confirmation, then the booking is gone and the slots show again', async () => {
    let current = answer({ language: 'de', booking: bookingOf(SLOTS[0]!) });
    let deleted = 0;
    server.use(
      http.get(apiUrl(`/handovers/${TOKEN}`), () => HttpResponse.json(current)),
      http.delete(apiUrl(`/handovers/${TOKEN}/booking`), () => {
        deleted += 1;
        current = answer({ language: 'de' });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = renderApp(`/handover/${TOKEN}`);
    await screen.findByRole('region', { name: deHandover.booking.title });
    await user.click(screen.getByRole('button', { name: deHandover.booking.cancel }));
    const dialog = await screen.findByRole('alertdialog', { name: deHandover.cancelDialog.title });
    await user.click(within(dialog).getByRole('button', { name: deHandover.cancelDialog.confirm }));
    await screen.findByText(deHandover.notice.cancelled);
    expect(deleted).toBe(1);
    await screen.findByRole('heading', { name: deHandover.slots.title });
  });

  test('when a change comes too late (409 HANDOVER_CHANGE_CLOSED), then the page says to call, in its language', async () => {
    server.use(
      http.get(apiUrl(`/handovers/${TOKEN}`), () =>
        HttpResponse.json(answer({ booking: bookingOf(SLOTS[0]!) })),
      ),
      http.post(apiUrl(`/handovers/${TOKEN}/booking`), () =>
        HttpResponse.json({ code: 'HANDOVER_CHANGE_CLOSED', message: 'x' }, { status: 409 }),
      ),
    );
    const { user } = renderApp(`/handover/${TOKEN}`);
    await screen.findByRole('region', { name: ukHandover.booking.title });
    await user.click(screen.getByRole('button', { name: ukHandover.booking.change }));
    await user.click(screen.getByRole('button', { name: new RegExp(ukHandover.slots.move) }));
    expect(await screen.findByRole('alert')).toHaveTextContent(ukHandover.errors.changeClosed);
  });

  test('when the link is unknown (404), then a kind page says it is not valid and nothing more', async () => {
    server.use(
      http.get(apiUrl(`/handovers/${TOKEN}`), () =>
        HttpResponse.json({ code: 'HANDOVER_NOT_FOUND', message: 'x' }, { status: 404 }),
      ),
    );
    renderApp(`/handover/${TOKEN}`);
    await screen.findByRole('heading', { level: 1, name: deHandover.invalid.title });
    expect(screen.getByText(deHandover.invalid.text)).toBeInTheDocument();
  });

  test('when the address holds no token of the right form, then nothing is asked of the server', async () => {
    renderApp('/handover/short');
    await screen.findByRole('heading', { level: 1, name: deHandover.invalid.title });
  });
});
