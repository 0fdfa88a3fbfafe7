import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Archive, Package, Sofa } from 'lucide-react';
import { apiError, serveCatalog, category, lot, photosOf } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl, server } from '../../../test/server';
import { i18n } from '../../../app/i18n';
import { categoryIcon } from '../lib/category-icon';

describe('category pages', () => {
  test('when a category has lots, then each card shows photo, name, status, id and description under the breadcrumb', async () => {
    serveCatalog({
      lots: [lot(11, { photos: photosOf(11, 2) }), lot(12, { status: 'reserved' })],
    });
    renderApp('/categories/1');
    const crumbs = await screen.findByRole('navigation', { name: 'Brotkrümelnavigation' });
    expect(within(crumbs).getByRole('link', { name: 'Startseite' })).toHaveAttribute('href', '/');
    expect(within(crumbs).getByRole('link', { name: 'Kategorien' })).toHaveAttribute(
      'href',
      '/categories',
    );
    expect(await within(crumbs).findByText('Sofas & Sessel')).toHaveAttribute(
      'aria-current',
      'page',
    );

    const card = await screen.findByRole('link', { name: /Sofa 11/ });
    expect(within(card).getByRole('img', { name: 'Sofa 11' })).toHaveAttribute(
      'src',
      '/media/lots/11/p1-medium.webp',
    );
    expect(card).toHaveTextContent('Verfügbar');
    expect(card).toHaveTextContent('Lot-Nr. 11');
    expect(card).toHaveTextContent('Bequemes Sofa');
    const other = screen.getByRole('link', { name: /Sofa 12/ });
    expect(other).toHaveTextContent('Reserviert');
    expect(within(other).getByText('Kein Foto')).toBeInTheDocument();
  });

  test('when a category has no lots, then the page says so, hints to come back and gives two tips', async () => {
    serveCatalog({ lots: [] });
    renderApp('/categories/2');
    expect(await screen.findByRole('heading', { name: 'Keine Lots gefunden' })).toBeInTheDocument();
    expect(screen.getByText(/Schauen Sie bald wieder vorbei/)).toBeInTheDocument();
    expect(screen.getByText(/Senden Sie uns einen Möbelwunsch/)).toBeInTheDocument();
    expect(screen.getByText(/anderen Kategorien/)).toBeInTheDocument();
  });

  test('when the lots cannot be loaded, then an error with Retry shows, and Retry loads them', async () => {
    let failing = true;
    serveCatalog(
      {},
      http.get(apiUrl('/lots/category/:ref'), () =>
        failing ? apiError(503, 'SERVICE_UNAVAILABLE', 'weg') : HttpResponse.json([lot(11)]),
      ),
    );
    const { user } = renderApp('/categories/1');
    expect(await screen.findByRole('alert')).toHaveTextContent('Fehler beim Laden der Lots.');
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByRole('link', { name: /Sofa 11/ })).toBeInTheDocument();
  });

  test('when the category is addressed by its slug, then its lots are asked for by that slug', async () => {
    let asked = '';
    serveCatalog(
      {},
      http.get(apiUrl('/lots/category/:ref'), ({ params }) => {
        asked = String(params.ref);
        return HttpResponse.json({ success: true, data: [lot(11)] });
      }),
    );
    renderApp('/categories/sofas-chairs');
    expect(await screen.findByRole('link', { name: /Sofa 11/ })).toBeInTheDocument();
    expect(asked).toBe('sofas-chairs');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Sofas & Sessel');
  });

  test('when the category does not exist, then a not-found text links to all categories', async () => {
    serveCatalog(
      {},
      http.get(apiUrl('/lots/category/:ref'), () =>
        apiError(400, 'CATEGORY_INVALID_ID', 'Unbekannte Kategorie: nope.'),
      ),
    );
    renderApp('/categories/nope');
    expect(
      await screen.findByRole('heading', { name: 'Kategorie nicht gefunden' }),
    ).toBeInTheDocument();
  });

  test('when the category list shows, then a count appears above 0 and a "no lots" text otherwise', async () => {
    serveCatalog({});
    renderApp('/categories');
    expect(await screen.findByRole('link', { name: /Sofas & Sessel/ })).toHaveTextContent(
      'Lots: 2',
    );
    expect(screen.getByRole('link', { name: /Betten/ })).toHaveTextContent('Zurzeit keine Lots');
    expect(screen.getByRole('link', { name: /Betten/ })).toHaveAttribute('href', '/categories/2');
  });
});

describe('category icons', () => {
  test('when one of the eight known categories has an emoji, then the emoji staff chose is shown, not the table by id', () => {
    expect(categoryIcon(category(1, { icon: '🎲' }) as never)).toEqual({
      kind: 'emoji',
      emoji: '🎲',
    });
    // the default box (or none) leaves the by-id icon
    expect(categoryIcon(category(4, { icon: '📦' }) as never)).toEqual({
      kind: 'icon',
      Icon: Archive,
    });
    expect(categoryIcon(category(1, { icon: '' }) as never)).toEqual({ kind: 'icon', Icon: Sofa });
  });

  test('when a new category has an emoji, then it is shown; otherwise keywords decide, else a box', () => {
    const withEmoji = { id: 20, icon: '💡', name: { de: 'Lampen', uk: 'Лампи' } };
    expect(categoryIcon(withEmoji)).toEqual({ kind: 'emoji', emoji: '💡' });
    const byKeyword = { id: 21, icon: '📦', name: { de: 'Kleine Kommoden', uk: '' } };
    expect(categoryIcon(byKeyword)).toEqual({ kind: 'icon', Icon: Archive });
    const byUkrainian = { id: 22, icon: '', name: { de: 'Diverses', uk: 'Дивани б/в' } };
    expect(categoryIcon(byUkrainian)).toEqual({ kind: 'icon', Icon: Sofa });
    const unknown = { id: 23, icon: '📦', name: { de: 'Sonstiges', uk: 'Інше' } };
    expect(categoryIcon(unknown)).toEqual({ kind: 'icon', Icon: Package });
  });
});

describe('more lots of a category', () => {
  /** `count` lots of category 1, newest first (the catalog's order). */
  const manyLots = (count: number) => Array.from({ length: count }, (_, i) => lot(1000 - i));
  const cards = () =>
    within(screen.getAllByRole('list').find((l) => l.classList.contains('grid'))!).getAllByRole(
      'link',
    );

  test('when a category holds more than 24 lots, then 24 show with "24 von 60 Lots", and "Mehr anzeigen" adds the next 24, moving the focus to the first new card', async () => {
    const asked: string[] = [];
    serveCatalog({ lots: manyLots(60) });
    server.events.on('request:start', ({ request }) => {
      if (request.url.includes('/lots/category/')) asked.push(new URL(request.url).search);
    });
    const { user } = renderApp('/categories/1');
    expect(await screen.findByRole('link', { name: /Sofa 1000/ })).toBeInTheDocument();
    expect(cards()).toHaveLength(24);
    expect(screen.getByText('24 von 60 Lots')).toHaveAttribute('role', 'status');

    await user.click(screen.getByRole('button', { name: 'Mehr anzeigen' }));
    expect(await screen.findByText('48 von 60 Lots')).toBeInTheDocument();
    expect(cards()).toHaveLength(48);
    expect(screen.getByRole('link', { name: /Sofa 976/ })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Mehr anzeigen' }));
    expect(await screen.findByText('60 von 60 Lots')).toBeInTheDocument();
    expect(cards().map((c) => c.getAttribute('href'))).toEqual(
      manyLots(60).map((l) => `/lots/${l.id}`),
    );
    expect(screen.getByRole('link', { name: /Sofa 952/ })).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Mehr anzeigen' })).not.toBeInTheDocument();
    expect(asked).toEqual(['?limit=24', '?limit=24&before_id=977', '?limit=24&before_id=953']);
    server.events.removeAllListeners();
  });

  test('when the next lots are loading, then the button says so and a second press asks nothing more; when they fail, an alert shows and the button tries again', async () => {
    let calls = 0;
    let failing = true;
    let release: () => void = () => undefined;
    serveCatalog(
      { lots: manyLots(30) },
      http.get(apiUrl('/lots/category/:ref'), async ({ request }) => {
        const before = new URL(request.url).searchParams.get('before_id');
        if (!before) return undefined; // the first page from the catalog handlers
        calls++;
        await new Promise<void>((resolve) => (release = resolve));
        return failing
          ? apiError(503, 'SERVICE_UNAVAILABLE', 'weg')
          : HttpResponse.json(manyLots(30).slice(24), { headers: { 'X-Total-Count': '30' } });
      }),
    );
    const { user } = renderApp('/categories/1');
    expect(await screen.findByText('24 von 30 Lots')).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Mehr anzeigen' });
    await user.click(button);
    await waitFor(() => expect(button).toHaveTextContent('Weitere Lots werden geladen …'));
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveFocus();
    await user.click(button);
    expect(calls).toBe(1);

    release();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Weitere Lots konnten nicht geladen werden.',
    );
    expect(button).toHaveTextContent('Erneut versuchen');
    expect(button).toHaveFocus();
    expect(cards()).toHaveLength(24);

    failing = false;
    await user.click(button);
    release();
    expect(await screen.findByText('30 von 30 Lots')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Sofa 976/ })).toHaveFocus();
    expect(calls).toBe(2);
  });

  test('when a category holds 24 lots or fewer, then all show without a count or a button', async () => {
    serveCatalog({ lots: manyLots(24) });
    renderApp('/categories/1');
    expect(await screen.findByRole('link', { name: /Sofa 977/ })).toBeInTheDocument();
    expect(cards()).toHaveLength(24);
    expect(screen.queryByRole('button', { name: 'Mehr anzeigen' })).not.toBeInTheDocument();
    expect(screen.queryByText(/von 24 Lots/)).not.toBeInTheDocument();
  });

  test('when the page is Ukrainian, then the count and the button are Ukrainian, with the plural the number needs', async () => {
    await i18n.changeLanguage('uk');
    serveCatalog({ lots: manyLots(50) });
    const { user } = renderApp('/categories/1');
    expect(await screen.findByText('Показано 24 лоти з 50')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Показати більше' }));
    expect(await screen.findByText('Показано 48 лотів з 50')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Показати більше' }));
    expect(await screen.findByText('Показано 50 лотів з 50')).toBeInTheDocument();
  });
});
