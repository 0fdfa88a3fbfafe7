import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Archive, Package, Sofa } from 'lucide-react';
import { apiError, serveCatalog, category, lot, photosOf } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl } from '../../../test/server';
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
  test('when the id is one of the eight known, then its icon is used, whatever the emoji', () => {
    expect(categoryIcon(category(1, { icon: '🎲' }) as never)).toEqual({
      kind: 'icon',
      Icon: Sofa,
    });
    expect(categoryIcon(category(4) as never)).toEqual({ kind: 'icon', Icon: Archive });
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
