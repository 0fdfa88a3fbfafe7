import { File as NodeFile } from 'node:buffer';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '../../../../test/server';
import { CATEGORIES, lot } from '../../../../test/fixtures';
import { ADMIN, meHandler, renderAdmin } from '../../test/admin-test-utils';

jest.mock('../../../../lib/image-size', () => ({
  readImageSize: async () => ({ width: 1200, height: 800 }),
}));

// Node's File, which Node's FormData and URL.createObjectURL (the test environment's) accept
const photoFile = (name: string, type: string) =>
  new NodeFile([new Uint8Array(2000)], name, { type }) as unknown as File;

const LOTS = [
  lot(7, {
    name: { de: 'Graues Sofa', uk: 'Сірий диван' },
    photos: ['/media/lots/7/a-medium.webp'],
    donor: 'Familie Weber',
    condition: 'gut',
  }),
  lot(6, { name: { de: 'Esstisch', uk: 'Стіл' }, category_id: 2, status: 'reserved' }),
];

function listHandlers(opts: { count?: number; seen?: URL[] } = {}) {
  return [
    meHandler(ADMIN),
    http.get(apiUrl('/categories/'), () => HttpResponse.json({ success: true, data: CATEGORIES })),
    http.get(apiUrl('/lots/'), ({ request }) => {
      opts.seen?.push(new URL(request.url));
      return HttpResponse.json(LOTS);
    }),
    http.get(apiUrl('/lots/count'), () => HttpResponse.json({ count: opts.count ?? 2 })),
    http.get(apiUrl('/applications/stats'), ({ request }) => {
      const ids = new URL(request.url).searchParams.get('lot_ids');
      expect(ids).toBe('7,6');
      return HttpResponse.json({
        total: 5,
        pending: 3,
        approved: 1,
        rejected: 1,
        completed: 0,
        lots: [
          { lot_id: 7, total: 5, pending: 3, approved: 1 },
          { lot_id: 6, total: 0, pending: 0, approved: 0 },
        ],
      });
    }),
  ];
}

describe('lots list', () => {
  test('when the list loads, then each row shows category, status, application counts, donor with condition', async () => {
    server.use(...listHandlers({ count: 45 }));
    renderAdmin('/admin/lots');
    const table = await screen.findByRole('table');
    const sofa = within(table).getByText('Graues Sofa').closest('tr')!;
    await within(sofa).findByText('Bewerbungen: 5');
    expect(within(sofa).getByText('3 offen')).toBeInTheDocument();
    expect(within(sofa).getByText('Sofas & Sessel')).toBeInTheDocument();
    expect(within(sofa).getByText('Verfügbar')).toBeInTheDocument();
    expect(within(sofa).getByText('Familie Weber')).toBeInTheDocument();
    expect(within(sofa).getByText('Gut')).toBeInTheDocument();
    const table2 = within(table).getByText('Esstisch').closest('tr')!;
    expect(within(table2).getByText('Keine Bewerbungen')).toBeInTheDocument();
    expect(within(table2).getByText('Reserviert')).toBeInTheDocument();
    expect(screen.getByText('Zeige 1 bis 20 von 45 Lots')).toBeInTheDocument();
  });

  test('when a category has a chosen emoji, then the row shows it, for the eight known categories too', async () => {
    server.use(
      // before the list's handlers: the first that matches answers
      http.get(apiUrl('/categories/'), () =>
        HttpResponse.json({
          success: true,
          data: [
            { ...CATEGORIES[0], icon: '🛋️' },
            { ...CATEGORIES[1], icon: '🎲' },
          ],
        }),
      ),
      ...listHandlers(),
    );
    renderAdmin('/admin/lots');
    const table = await screen.findByRole('table');
    const sofa = within(table).getByText('Graues Sofa').closest('tr')!;
    await within(sofa).findByText('🛋️');
    const table2 = within(table).getByText('Esstisch').closest('tr')!;
    expect(within(table2).getByText('🎲')).toBeInTheDocument();
  });

  test('when filters are set, then they go to the server (search after 500 ms) and are kept as lot-management', async () => {
    const seen: URL[] = [];
    server.use(...listHandlers({ seen }));
    const { user } = renderAdmin('/admin/lots');
    await screen.findByRole('table');
    await user.selectOptions(screen.getByLabelText('Status'), 'reserved');
    await user.selectOptions(screen.getByLabelText('Kategorie'), 'Betten');
    await user.type(screen.getByLabelText('Angelegt ab'), '01.02.2026');
    jest.useFakeTimers({ advanceTimers: true });
    try {
      await user.type(screen.getByRole('searchbox'), '  tisch ');
      act(() => jest.advanceTimersByTime(500));
      await waitFor(() => expect(seen.at(-1)?.searchParams.get('search')).toBe('tisch'));
    } finally {
      jest.useRealTimers();
    }
    const last = seen.at(-1)!;
    expect(Object.fromEntries(last.searchParams)).toEqual({
      limit: '20',
      skip: '0',
      search: 'tisch',
      status: 'reserved',
      category_id: '2',
      date_from: '2026-02-01',
    });
    expect(JSON.parse(localStorage.getItem('lot-management')!)).toEqual({
      search: '  tisch ',
      status: 'reserved',
      categoryId: '2',
      dateFrom: '2026-02-01',
      dateTo: '',
    });
  });

  test('when a lot is deleted and the server refuses, then the dialog shows the spec texts', async () => {
    let attempt = 0;
    server.use(
      ...listHandlers(),
      http.delete(apiUrl('/lots/:id'), () => {
        attempt += 1;
        return attempt === 1
          ? HttpResponse.json({ code: 'INTERNAL', message: 'kaputt' }, { status: 500 })
          : HttpResponse.json(
              { code: 'FORBIDDEN', message: 'Keine Berechtigung' },
              { status: 403 },
            );
      }),
    );
    const { user } = renderAdmin('/admin/lots');
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('button', { name: 'Lot 7 löschen' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Lot löschen?' });
    expect(dialog).toHaveTextContent('Das kann nicht rückgängig gemacht werden.');
    await user.click(within(dialog).getByRole('button', { name: 'Löschen' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Fehler beim Löschen des Lots. Bitte versuchen Sie es erneut.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Löschen' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent(
        'Keine Berechtigung zum Löschen. Bitte melden Sie sich erneut an.',
      ),
    );
  });

  test('when a row is clicked, then the lot detail opens', async () => {
    server.use(
      ...listHandlers(),
      http.get(apiUrl('/lots/:id'), () => HttpResponse.json(LOTS[0])),
    );
    const { user, router } = renderAdmin('/admin/lots');
    const table = await screen.findByRole('table');
    await user.click(within(table).getByText('Graues Sofa'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/lots/7'));
  });
});

describe('lot detail', () => {
  beforeEach(() =>
    server.use(
      meHandler(ADMIN),
      http.get(apiUrl('/categories/'), () =>
        HttpResponse.json({ success: true, data: CATEGORIES }),
      ),
    ),
  );

  test('when the lot does not exist, then "Lot nicht gefunden" and its explanation are shown', async () => {
    server.use(
      http.get(apiUrl('/lots/:id'), () =>
        HttpResponse.json(
          { code: 'LOT_NOT_FOUND', message: 'Lot nicht gefunden' },
          { status: 404 },
        ),
      ),
    );
    renderAdmin('/admin/lots/999');
    expect(await screen.findByText('Lot nicht gefunden')).toBeInTheDocument();
    expect(
      screen.getByText('Das angeforderte Lot konnte nicht gefunden werden.'),
    ).toBeInTheDocument();
  });

  test('when the detailed description equals the short one, then it is not shown twice; the creator is "Benutzer #id"', async () => {
    server.use(
      http.get(apiUrl('/lots/:id'), () =>
        HttpResponse.json(
          lot(7, {
            description: { de: 'Kurz', uk: 'Коротко' },
            detailed_description: { de: 'Kurz', uk: 'Довгий опис' },
            created_by_user_id: 4,
          }),
        ),
      ),
    );
    renderAdmin('/admin/lots/7');
    await screen.findByRole('heading', { level: 1, name: 'Sofa 7' });
    expect(screen.getAllByRole('heading', { name: 'Ausführliche Beschreibung' })).toHaveLength(1);
    expect(screen.getByText('Довгий опис')).toBeInTheDocument();
    expect(screen.getByText('Benutzer #4')).toBeInTheDocument();
  });
});

describe('lot form', () => {
  beforeEach(() =>
    server.use(
      meHandler(ADMIN),
      http.get(apiUrl('/categories/'), () =>
        HttpResponse.json({ success: true, data: CATEGORIES }),
      ),
    ),
  );

  test('when the form is sent empty, then German name, short description and category are required', async () => {
    let posted = false;
    server.use(http.post(apiUrl('/lots/'), () => ((posted = true), HttpResponse.json({}))));
    const { user } = renderAdmin('/admin/lots/new');
    await user.click(await screen.findByRole('button', { name: 'Lot anlegen' }));
    for (const label of [/^Name \(Deutsch\)/, /^Kurzbeschreibung \(Deutsch\)/, /^Kategorie/]) {
      expect(screen.getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
    }
    expect(screen.getByLabelText(/^Name \(Ukrainisch\)/)).not.toHaveAttribute('aria-invalid');
    expect(screen.getAllByText('Dieses Feld ist erforderlich')).toHaveLength(3);
    expect(screen.getByLabelText(/^Name \(Deutsch\)/)).toHaveFocus();
    expect(posted).toBe(false);
  });

  test('when staff type a condition, then a suggestion is stored by its key and any other text as typed', async () => {
    const created: Record<string, unknown>[] = [];
    server.use(
      http.post(apiUrl('/lots/'), async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        created.push(body);
        return HttpResponse.json(lot(43, body), { status: 201 });
      }),
      http.get(apiUrl('/lots/'), () => HttpResponse.json([])),
      http.get(apiUrl('/lots/count'), () => HttpResponse.json({ count: 0 })),
    );
    const { user, router } = renderAdmin('/admin/lots/new');
    const condition = await screen.findByLabelText(/^Zustand/);
    expect(condition.tagName).toBe('INPUT');
    const suggestions = document.getElementById(condition.getAttribute('list')!)!;
    expect([...suggestions.querySelectorAll('option')].map((o) => o.value)).toEqual([
      'Neu',
      'Wie neu',
      'Sehr gut',
      'Gut',
      'Mit Gebrauchsspuren',
    ]);
    await user.type(screen.getByLabelText(/^Name \(Deutsch\)/), 'Kommode');
    await user.type(screen.getByLabelText(/^Kurzbeschreibung \(Deutsch\)/), 'Drei Schubladen');
    await user.selectOptions(screen.getByLabelText(/^Kategorie/), '2');
    await user.type(condition, 'Wie neu');
    expect(condition).toHaveValue('Wie neu');
    await user.click(screen.getByRole('button', { name: 'Lot anlegen' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/lots'));
    expect(created[0]).toMatchObject({ condition: 'like_new' });

    await router.navigate('/admin/lots/new');
    await user.type(await screen.findByLabelText(/^Name \(Deutsch\)/), 'Regal');
    await user.type(screen.getByLabelText(/^Kurzbeschreibung \(Deutsch\)/), 'Aus Holz');
    await user.selectOptions(screen.getByLabelText(/^Kategorie/), '2');
    await user.type(screen.getByLabelText(/^Zustand/), 'ein Bein wackelt');
    await user.click(screen.getByRole('button', { name: 'Lot anlegen' }));
    await waitFor(() => expect(created).toHaveLength(2));
    expect(created[1]).toMatchObject({ condition: 'ein Bein wackelt' });
  });

  test('when an older lot with a free-text condition is edited, then its text stays as it was', async () => {
    server.use(
      http.get(apiUrl('/lots/:id'), () =>
        HttpResponse.json(lot(8, { condition: 'leicht beschädigt', version: 1 })),
      ),
    );
    renderAdmin('/admin/lots/8/edit');
    expect(await screen.findByLabelText(/^Zustand/)).toHaveValue('leicht beschädigt');
  });

  test('when a new lot is saved with two photos, then the lot is created, the photos uploaded and the lot given their medium and large URLs in order', async () => {
    const calls: string[] = [];
    let created: Record<string, unknown> | undefined;
    let patched: unknown;
    let uploads = 0;
    server.use(
      http.post(apiUrl('/lots/'), async ({ request }) => {
        created = (await request.json()) as Record<string, unknown>;
        calls.push('create');
        return HttpResponse.json(lot(42, created), { status: 201 });
      }),
      http.post(apiUrl('/lots/42/photos'), async ({ request }) => {
        const form = await request.formData();
        const file = form.get('file') as File;
        uploads += 1;
        calls.push(`upload ${file.name} ${String(form.get('generate_thumbnails'))}`);
        const n = uploads;
        return HttpResponse.json(
          {
            success: true,
            message: 'Foto erfolgreich hochgeladen.',
            data: {
              id: n,
              lot_id: 42,
              urls: {
                thumbnail: `/media/lots/42/p${n}-thumbnail.webp`,
                medium: `/media/lots/42/p${n}-medium.webp`,
                large: `/media/lots/42/p${n}-large.webp`,
              },
            },
          },
          { status: 201 },
        );
      }),
      http.patch(apiUrl('/lots/42'), async ({ request }) => {
        patched = await request.json();
        calls.push('patch');
        return HttpResponse.json(lot(42));
      }),
      http.get(apiUrl('/lots/'), () => HttpResponse.json([])),
      http.get(apiUrl('/lots/count'), () => HttpResponse.json({ count: 0 })),
    );
    const { user, router } = renderAdmin('/admin/lots/new');
    await user.type(await screen.findByLabelText(/^Name \(Deutsch\)/), 'Kleiderschrank');
    await user.type(screen.getByLabelText(/^Kurzbeschreibung \(Deutsch\)/), 'Zweitürig');
    await user.selectOptions(screen.getByLabelText(/^Kategorie/), '2');
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await user.upload(input, [
      photoFile('vorne.jpg', 'image/jpeg'),
      photoFile('seite.png', 'image/png'),
    ]);
    const gallery = await screen.findByRole('img', { name: 'Foto 2' });
    // the second photo becomes the main one
    await user.click(within(gallery.closest('li')!).getByRole('button', { name: 'Als Hauptfoto' }));
    await user.click(screen.getByRole('button', { name: 'Lot anlegen' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/lots'));
    expect(calls).toEqual(['create', 'upload seite.png true', 'upload vorne.jpg true', 'patch']);
    expect(created).toMatchObject({
      name: { de: 'Kleiderschrank', uk: '' },
      description: { de: 'Zweitürig', uk: '' },
      detailed_description: { de: 'Zweitürig', uk: '' },
      category_id: 2,
      status: 'available',
    });
    expect(patched).toEqual({
      photos: ['/media/lots/42/p1-medium.webp', '/media/lots/42/p2-medium.webp'],
      gallery_photos: ['/media/lots/42/p1-large.webp', '/media/lots/42/p2-large.webp'],
    });
  });

  test('when someone else saved the lot meanwhile, then the conflict names the changed fields and "keep mine" saves with the new version', async () => {
    const loaded = lot(7, { version: 3 });
    const theirs = lot(7, { version: 4, status: 'reserved', donor: 'Kita Sonnenschein' });
    let current = loaded;
    const versions: unknown[] = [];
    server.use(
      http.get(apiUrl('/lots/7'), () => HttpResponse.json(current)),
      http.get(apiUrl('/lots/7/photos'), () => HttpResponse.json({ success: true, data: [] })),
      http.put(apiUrl('/lots/7'), async ({ request }) => {
        const body = (await request.json()) as { version: number; name: { de: string } };
        versions.push(body.version);
        if (body.version !== 4) {
          current = theirs;
          return HttpResponse.json(
            {
              success: false,
              code: 'STALE_VERSION',
              message: 'Dieser Eintrag wurde inzwischen von jemand anderem geändert.',
              current_version: 4,
            },
            { status: 409 },
          );
        }
        return HttpResponse.json({
          ...theirs,
          version: 5,
          name: { ...theirs.name, de: body.name.de },
        });
      }),
      http.get(apiUrl('/lots/'), () => HttpResponse.json([])),
      http.get(apiUrl('/lots/count'), () => HttpResponse.json({ count: 0 })),
    );
    const { user, router } = renderAdmin('/admin/lots/7/edit');
    const name = await screen.findByLabelText(/^Name \(Deutsch\)/);
    await user.clear(name);
    await user.type(name, 'Sofa, frisch bezogen');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    const conflict = await screen.findByText('Das Lot wurde inzwischen geändert');
    expect(conflict.parentElement).toHaveTextContent('Dort geändert: Status, Spender.');
    await user.click(screen.getByRole('button', { name: 'Meine Fassung speichern' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/lots'));
    expect(versions).toEqual([3, 4]);
  });
});
