import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '../../../../test/server';
import { CATEGORIES, lot } from '../../../../test/fixtures';
import { ADMIN, meHandler, renderAdmin } from '../../test/admin-test-utils';
import type { Donation, DonationItem } from '../api/donations-api';
import { lotValuesOf, nextStatuses, photoUrls, shortened } from '../lib/donation-rules';

function item(id: number, overrides: Partial<DonationItem> = {}): DonationItem {
  return {
    id,
    category_id: 1,
    description: 'Сірий диван, три місця, чистий',
    dimensions: '210 × 90 × 85',
    condition: 'good',
    can_disassemble: true,
    photos: [
      {
        thumbnail: `/media/donations/5/i${id}a-thumbnail.webp`,
        medium: `/media/donations/5/i${id}a-medium.webp`,
        large: `/media/donations/5/i${id}a-large.webp`,
      },
    ],
    lot_id: null,
    ...overrides,
  };
}

function donation(overrides: Partial<Donation> = {}): Donation {
  return {
    id: 5,
    status: 'submitted',
    created_at: '2026-06-01T08:00:00.000Z',
    updated_at: '2026-06-01T08:00:00.000Z',
    donor_name: 'Oksana Petrenko',
    donor_phone: '+4917612345678',
    donor_phone_raw: '0176 12345678',
    donor_email: 'oksana@example.org',
    language: 'uk',
    city: 'Leipzig',
    address: 'Ringweg 3',
    floor: 2,
    has_elevator: false,
    available_until: '2026-07-15',
    donor_name_public: false,
    items: [item(51), item(52, { description: 'Kinderbett', photos: [], category_id: 2 })],
    history: [
      {
        at: '2026-06-01T08:00:00.000Z',
        from: null,
        to: 'submitted',
        cause: 'donor',
        by: null,
        note: null,
        reason: null,
      },
    ],
    erased: false,
    ...overrides,
  };
}

describe('donation rules', () => {
  test('when a donation is submitted or accepted, then staff may move it on as DonationTransitions say; declined, collected, cancelled and expired are final', () => {
    expect(nextStatuses('submitted')).toEqual(['accepted', 'declined']);
    expect(nextStatuses('accepted')).toEqual(['collected', 'cancelled']);
    for (const status of ['declined', 'collected', 'cancelled', 'expired'] as const) {
      expect(nextStatuses(status)).toEqual([]);
    }
  });

  test('when a lot is made of a Ukrainian donor’s item, then the form holds the Ukrainian description, category, dimensions, condition, "anonym" and the city', () => {
    const values = lotValuesOf(donation(), item(51));
    expect(values).toMatchObject({
      nameDe: '',
      descriptionDe: '',
      descriptionUk: 'Сірий диван, три місця, чистий',
      detailedUk: '',
      categoryId: '1',
      status: 'available',
      dimensions: '210 × 90 × 85',
      condition: 'good',
      donor: 'anonym',
      location: 'Leipzig',
    });
  });

  test('when the donor agreed and wrote German above the short limit, then the name stands as donor and the text is cut, whole in the detailed description', () => {
    const long = `${'Massiver Eichentisch mit sechs Stühlen '.repeat(8)}und Tischdecke`;
    const values = lotValuesOf(
      donation({ language: 'de', donor_name_public: true }),
      item(51, { description: long, condition: 'worn' }),
    );
    expect(values.donor).toBe('Oksana Petrenko');
    expect(values.descriptionDe.length).toBeLessThanOrEqual(200);
    expect(values.descriptionDe.endsWith('…')).toBe(true);
    expect(values.detailedDe).toBe(long);
    expect(values.condition).toBe('worn');
    expect(shortened('kurz', 200)).toBe('kurz');
  });

  test('when a photo lacks a size, then tiles and the full view fall back to the others', () => {
    expect(photoUrls({ thumbnail: '', medium: '/m.webp', large: '' })).toEqual({
      thumbnail: '/m.webp',
      large: '/m.webp',
    });
  });
});

describe('donation screens', () => {
  beforeEach(() =>
    server.use(
      meHandler(ADMIN),
      // the detail's messages (issue 30; their own tests: admin/messages)
      http.get(apiUrl('/messages/'), () =>
        HttpResponse.json({ success: true, data: { messages: [] } }),
      ),
      http.post(apiUrl('/messages/opt-outs/lookup'), async ({ request }) => {
        const { phone } = (await request.json()) as { phone: string };
        return HttpResponse.json({ success: true, data: { phone, whatsapp: false, sms: false } });
      }),
      http.get(apiUrl('/categories/'), () =>
        HttpResponse.json({ success: true, data: CATEGORIES }),
      ),
    ),
  );

  test('when the list opens, then the status filter shows the counts, the search waits 500 ms and a donor’s name opens the detail', async () => {
    const seen: URL[] = [];
    server.use(
      http.get(apiUrl('/donations/'), ({ request }) => {
        seen.push(new URL(request.url));
        return HttpResponse.json({
          donations: [donation()],
          total: 41,
          counts: {
            submitted: 3,
            accepted: 1,
            declined: 0,
            collected: 30,
            cancelled: 2,
            expired: 5,
          },
        });
      }),
    );
    const { user, router } = renderAdmin('/admin/donations');
    const row = (await screen.findByRole('link', { name: 'Oksana Petrenko' })).closest('tr')!;
    expect(row).toHaveTextContent('2 Möbelstück(e)');
    expect(row).toHaveTextContent('15.07.2026');
    expect(row).toHaveTextContent('Eingegangen');
    const filter = screen.getByRole('combobox', { name: 'Status' });
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Alle',
      'Eingegangen (3)',
      'Angenommen (1)',
      'Abgelehnt (0)',
      'Abgeholt (30)',
      'Abgesagt (2)',
      'Abgelaufen (5)',
    ]);
    expect(screen.getByText('Zeige 1 bis 20 von 41 Spenden')).toBeInTheDocument();
    expect(seen[0]!.searchParams.get('limit')).toBe('20');
    expect(seen[0]!.searchParams.get('skip')).toBe('0');

    await user.selectOptions(filter, 'submitted');
    await waitFor(() => expect(seen.at(-1)!.searchParams.get('status')).toBe('submitted'));
    await user.click(screen.getByRole('button', { name: /Weiter/ }));
    await waitFor(() => expect(seen.at(-1)!.searchParams.get('skip')).toBe('20'));
    await user.type(screen.getByRole('searchbox', { name: 'Suchen' }), 'Leipzig');
    await waitFor(() => expect(seen.at(-1)!.searchParams.get('search')).toBe('Leipzig'), {
      timeout: 2000,
    });
    // a new search starts on the first page
    expect(seen.at(-1)!.searchParams.get('skip')).toBe('0');

    await user.click(screen.getByRole('link', { name: 'Oksana Petrenko' }));
    expect(router.state.location.pathname).toBe('/admin/donations/5');
  });

  test('when a submitted donation opens, then contact links, photos, history and accept/decline show; no lot can be made yet', async () => {
    server.use(http.get(apiUrl('/donations/5'), () => HttpResponse.json(donation())));
    renderAdmin('/admin/donations/5');
    await screen.findByRole('heading', { level: 1, name: 'Spende #5' });
    expect(screen.getByRole('link', { name: 'Telefon: +49 176 12345678' })).toHaveAttribute(
      'href',
      'tel:+4917612345678',
    );
    const whatsapp = screen.getByRole('link', { name: /WhatsApp/ });
    const href = new URL(whatsapp.getAttribute('href')!);
    expect(href.origin + href.pathname).toBe('https://wa.me/4917612345678');
    // the message is in the donor's language
    expect(href.searchParams.get('text')).toContain('Добрий день, Oksana Petrenko!');
    expect(href.searchParams.get('text')).toContain('№ 5');
    expect(screen.getByRole('link', { name: 'oksana@example.org' })).toHaveAttribute(
      'href',
      'mailto:oksana@example.org',
    );
    const first = screen.getByRole('listitem', { name: 'Möbelstück 1' });
    expect(within(first).getByRole('img', { name: 'Foto 1 von Möbelstück 1' })).toHaveAttribute(
      'src',
      '/media/donations/5/i51a-thumbnail.webp',
    );
    expect(within(first).getByText('Gut')).toBeInTheDocument();
    expect(
      within(screen.getByRole('listitem', { name: 'Möbelstück 2' })).getByText(
        'Der Spender hat keine Fotos geschickt.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Lot anlegen/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Annehmen' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ablehnen' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Als abgeholt markieren' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Verlauf' })).toHaveTextContent(
      '01.06.2026, 08:00EingegangenSpender',
    );
  });

  test('when staff decline without a reason, then nothing is sent; a template fills the reason in the donor’s language and the decline goes out with it', async () => {
    let patched: unknown;
    let current = donation();
    server.use(
      http.get(apiUrl('/donations/5'), () => HttpResponse.json(current)),
      http.patch(apiUrl('/donations/5/status'), async ({ request }) => {
        patched = await request.json();
        current = donation({ status: 'declined' });
        return HttpResponse.json(current);
      }),
    );
    const { user } = renderAdmin('/admin/donations/5');
    await user.click(await screen.findByRole('button', { name: 'Ablehnen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Spende #5 ablehnen' });
    const confirm = within(dialog).getByRole('button', { name: 'Ablehnen' });
    await user.click(confirm);
    const reason = within(dialog).getByRole('textbox', { name: 'Grund für den Spender' });
    expect(reason).toHaveAccessibleDescription(
      /Bitte geben Sie einen Grund an: Der Spender bekommt ihn mitgeteilt\./,
    );
    expect(reason).toHaveFocus();
    expect(patched).toBeUndefined();

    await user.click(within(dialog).getByRole('button', { name: 'Kein Lagerplatz' }));
    expect(reason).toHaveValue(
      'Щиро дякуємо за вашу пропозицію! На жаль, зараз у нас немає місця, щоб зберігати ці меблі.',
    );
    await user.type(within(dialog).getByRole('textbox', { name: /Interne Notiz/ }), 'Lager voll');
    await user.click(confirm);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(patched).toEqual({
      status: 'declined',
      note: 'Lager voll',
      reason:
        'Щиро дякуємо за вашу пропозицію! На жаль, зараз у нас немає місця, щоб зберігати ці меблі.',
    });
    expect(await screen.findByText('Status geändert: Abgelehnt.')).toBeInTheDocument();
    // a declined donation is final
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Annehmen' })).toBeNull());
  });

  test('when staff accept, then the status goes without a reason; the accepted items offer "Lot anlegen" and a made lot is linked', async () => {
    let patched: unknown;
    let current = donation();
    server.use(
      http.get(apiUrl('/donations/5'), () => HttpResponse.json(current)),
      http.patch(apiUrl('/donations/5/status'), async ({ request }) => {
        patched = await request.json();
        current = donation({
          status: 'accepted',
          items: [item(51), item(52, { lot_id: 77, photos: [] })],
        });
        return HttpResponse.json(current);
      }),
    );
    const { user } = renderAdmin('/admin/donations/5');
    await user.click(await screen.findByRole('button', { name: 'Annehmen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Spende #5 annehmen' });
    expect(within(dialog).queryByRole('textbox', { name: 'Grund für den Spender' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Annehmen' }));
    await waitFor(() => expect(patched).toEqual({ status: 'accepted' }));
    expect(await screen.findByRole('link', { name: 'Lot anlegen (Möbelstück 1)' })).toHaveAttribute(
      'href',
      '/admin/donations/5/items/51/lot',
    );
    expect(screen.getByRole('link', { name: 'Lot 77 ansehen' })).toHaveAttribute(
      'href',
      '/admin/lots/77',
    );
    expect(screen.getByRole('button', { name: 'Als abgeholt markieren' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Abholung absagen' })).toBeInTheDocument();
  });

  test('when a pickup is cancelled, then a reason for the donor may go with it (no templates), and a refusal’s message stays in the dialog', async () => {
    let patched: unknown;
    server.use(
      http.get(apiUrl('/donations/5'), () => HttpResponse.json(donation({ status: 'accepted' }))),
      http.patch(apiUrl('/donations/5/status'), async ({ request }) => {
        patched = await request.json();
        return HttpResponse.json(
          { code: 'INVALID_TRANSITION', message: 'Die Spende wurde bereits geändert.' },
          { status: 409 },
        );
      }),
    );
    const { user } = renderAdmin('/admin/donations/5');
    await user.click(await screen.findByRole('button', { name: 'Abholung absagen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Abholung von Spende #5 absagen' });
    expect(within(dialog).queryByRole('button', { name: 'Kein Lagerplatz' })).toBeNull();
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Grund für den Spender (optional)' }),
      'Unser Transporter ist ausgefallen.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Abholung absagen' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Die Spende wurde bereits geändert.',
    );
    expect(patched).toEqual({ status: 'cancelled', reason: 'Unser Transporter ist ausgefallen.' });
  });

  test('when "Lot anlegen" is used, then the lot form is filled from the item with its photos, the donor is locked to "anonym", and saving creates the lot from the item and shows it', async () => {
    let posted: Record<string, unknown> | undefined;
    server.use(
      http.get(apiUrl('/donations/5'), () => HttpResponse.json(donation({ status: 'accepted' }))),
      http.post(apiUrl('/donations/5/items/51/lot'), async ({ request }) => {
        posted = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(
          lot(77, { ...posted, photos: ['/media/donations/5/i51a-medium.webp'] }),
          {
            status: 201,
          },
        );
      }),
      http.get(apiUrl('/lots/77'), () =>
        HttpResponse.json(lot(77, { name: { de: 'Graues Sofa', uk: 'Сірий диван' } })),
      ),
      http.get(apiUrl('/lots/77/wish-matches'), () => HttpResponse.json({ wishes: [] })),
    );
    const { user, router } = renderAdmin('/admin/donations/5/items/51/lot');
    await screen.findByRole('heading', {
      level: 1,
      name: 'Lot anlegen aus Möbelstück 1 der Spende #5',
    });
    expect(screen.getByLabelText(/^Kurzbeschreibung \(Ukrainisch\)/)).toHaveValue(
      'Сірий диван, три місця, чистий',
    );
    await waitFor(() => expect(screen.getByLabelText(/^Kategorie/)).toHaveValue('1'));
    expect(screen.getByLabelText(/^Maße/)).toHaveValue('210 × 90 × 85');
    // free text with the five conditions as suggestions: the item's key shows as its label
    expect(screen.getByLabelText(/^Zustand/)).toHaveValue('Gut');
    expect(screen.getByLabelText(/^Standort/)).toHaveValue('Leipzig');
    const donor = screen.getByLabelText(/^Spender/);
    expect(donor).toHaveValue('anonym');
    expect(donor).toHaveAttribute('readonly');
    expect(donor).toHaveAccessibleDescription(
      'Der Spender hat nicht zugestimmt, dass sein Name gezeigt wird.',
    );
    expect(screen.getByRole('img', { name: 'Foto 1' })).toHaveAttribute(
      'src',
      '/media/donations/5/i51a-thumbnail.webp',
    );

    // a German name and short description are required, as for every lot
    await user.click(screen.getByRole('button', { name: 'Lot anlegen' }));
    expect(screen.getByLabelText(/^Name \(Deutsch\)/)).toHaveFocus();
    expect(posted).toBeUndefined();
    await user.type(screen.getByLabelText(/^Name \(Deutsch\)/), 'Graues Sofa');
    await user.type(screen.getByLabelText(/^Name \(Ukrainisch\)/), 'Сірий диван');
    await user.type(screen.getByLabelText(/^Kurzbeschreibung \(Deutsch\)/), 'Dreisitzer, sauber');
    await user.click(screen.getByRole('button', { name: 'Lot anlegen' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/lots/77'));
    expect(posted).toEqual({
      name: { de: 'Graues Sofa', uk: 'Сірий диван' },
      description: { de: 'Dreisitzer, sauber', uk: 'Сірий диван, три місця, чистий' },
      detailed_description: {
        de: 'Dreisitzer, sauber',
        uk: 'Сірий диван, три місця, чистий',
      },
      category_id: 1,
      status: 'available',
      dimensions: '210 × 90 × 85',
      condition: 'good',
      donor: 'anonym',
      location: 'Leipzig',
    });
    expect(await screen.findByText('Lot 77 „Graues Sofa“ wurde angelegt.')).toBeInTheDocument();
  });

  test('when the item already is a lot, then "Lot anlegen" leads to that lot', async () => {
    server.use(
      http.get(apiUrl('/donations/5'), () =>
        HttpResponse.json(donation({ status: 'accepted', items: [item(51, { lot_id: 77 })] })),
      ),
      http.get(apiUrl('/lots/77'), () => HttpResponse.json(lot(77))),
      http.get(apiUrl('/lots/77/wish-matches'), () => HttpResponse.json({ wishes: [] })),
    );
    const { router } = renderAdmin('/admin/donations/5/items/51/lot');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/lots/77'));
    await act(async () => undefined);
  });
});
