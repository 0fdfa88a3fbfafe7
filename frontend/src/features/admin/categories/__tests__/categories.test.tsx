import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '../../../../test/server';
import { category } from '../../../../test/fixtures';
import { ADMIN, meHandler, renderAdmin } from '../../test/admin-test-utils';
import { associatedLotCount } from '../category-rules';

const CATEGORIES = [
  category(1, { name: { de: 'Sofas & Sessel', uk: 'Дивани та крісла' }, icon: '🛋️', lot_count: 3 }),
  category(2, {
    name: { de: 'Betten', uk: 'Ліжка' },
    description: { de: 'Auch Matratzen und Lattenroste', uk: '' },
    lot_count: 1,
    archived_lot_count: 2,
  }),
  category(3, { name: { de: 'Küche', uk: 'Кухня' } }),
];

const cardNames = () =>
  screen.queryAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);

describe('categories', () => {
  beforeEach(() =>
    server.use(
      meHandler(ADMIN),
      http.get(apiUrl('/categories/'), () =>
        HttpResponse.json({ success: true, data: CATEGORIES }),
      ),
    ),
  );

  test('when a search is typed, then after 500 ms the grid matches both names and the German description, and the search is kept', async () => {
    const { user } = renderAdmin('/admin/categories');
    await screen.findByRole('heading', { level: 2, name: 'Küche' });
    expect(cardNames()).toEqual(['Sofas & Sessel', 'Betten', 'Küche']);
    jest.useFakeTimers({ advanceTimers: true });
    try {
      await user.type(screen.getByRole('searchbox'), 'matratz');
      act(() => jest.advanceTimersByTime(400));
      expect(cardNames()).toHaveLength(3);
      act(() => jest.advanceTimersByTime(100));
      await waitFor(() => expect(cardNames()).toEqual(['Betten']));
      await user.clear(screen.getByRole('searchbox'));
      await user.type(screen.getByRole('searchbox'), 'дивани');
      act(() => jest.advanceTimersByTime(500));
      await waitFor(() => expect(cardNames()).toEqual(['Sofas & Sessel']));
    } finally {
      jest.useRealTimers();
    }
    expect(JSON.parse(localStorage.getItem('category-management')!)).toEqual({ search: 'дивани' });
  });

  test('when a category holds archived lots, then its card counts them with the others (the number a delete refusal names) and says how many are archived', async () => {
    renderAdmin('/admin/categories');
    const beds = (await screen.findByRole('heading', { name: 'Betten' })).closest('li')!;
    expect(beds).toHaveTextContent('Lots: 3 (davon 2 archiviert)');
    const sofas = screen.getByRole('heading', { name: 'Sofas & Sessel' }).closest('li')!;
    expect(sofas).toHaveTextContent('Lots: 3');
    expect(sofas).not.toHaveTextContent('archiviert');
  });

  test('when the server refuses a delete because lots are assigned, then a dialog names how many', async () => {
    server.use(
      http.delete(apiUrl('/categories/:id'), () =>
        HttpResponse.json(
          {
            success: false,
            code: 'CATEGORY_HAS_LOTS',
            message:
              'Cannot delete category: 3 lots are associated with it. Die Kategorie kann nicht gelöscht werden, 3 Lots sind ihr zugeordnet.',
          },
          { status: 409 },
        ),
      ),
    );
    const { user } = renderAdmin('/admin/categories');
    await user.click(await screen.findByRole('button', { name: 'Sofas & Sessel löschen' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Kategorie löschen?' });
    await user.click(within(confirm).getByRole('button', { name: 'Löschen' }));
    const blocked = await screen.findByRole('alertdialog', {
      name: 'Kategorie kann nicht gelöscht werden',
    });
    expect(blocked).toHaveTextContent('(Anzahl: 3)');
  });

  test('when a delete fails otherwise, then the confirmation says "Fehler beim Löschen der Kategorie."', async () => {
    server.use(
      http.delete(apiUrl('/categories/:id'), () => HttpResponse.json({}, { status: 500 })),
    );
    const { user } = renderAdmin('/admin/categories');
    await user.click(await screen.findByRole('button', { name: 'Betten löschen' }));
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Löschen' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(
      'Fehler beim Löschen der Kategorie.',
    );
  });

  test('when a category is created with both names missing, then both are required; with a taken name, the server says so', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl('/categories/'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(
          {
            success: false,
            code: 'CATEGORY_DUPLICATE_NAME',
            message: 'Eine Kategorie mit diesem Namen existiert bereits.',
          },
          { status: 409 },
        );
      }),
    );
    const { user } = renderAdmin('/admin/categories/new');
    await user.click(await screen.findByRole('button', { name: 'Kategorie anlegen' }));
    expect(screen.getByText('Deutscher Name ist erforderlich')).toBeInTheDocument();
    expect(screen.getByText('Ukrainischer Name ist erforderlich')).toBeInTheDocument();
    expect(body).toBeUndefined();

    await user.type(screen.getByLabelText(/^Name \(Deutsch\)/), 'Betten');
    await user.type(screen.getByLabelText(/^Name \(Ukrainisch\)/), 'Ліжка');
    await user.click(screen.getByRole('radio', { name: /Bücher/ }));
    await user.click(screen.getByRole('button', { name: 'Kategorie anlegen' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Eine Kategorie mit diesem Namen existiert bereits.',
    );
    expect(body).toEqual({
      name: { de: 'Betten', uk: 'Ліжка' },
      description: { de: '', uk: '' },
      icon: '📚',
    });
  });

  test('when the picker opens, then it offers the 20 icons with the box preselected', async () => {
    renderAdmin('/admin/categories/new');
    const radios = await screen.findAllByRole('radio');
    expect(radios).toHaveLength(20);
    expect(screen.getByRole('radio', { name: /Sonstiges/ })).toBeChecked();
  });
});

describe('category delete refusal', () => {
  test.each([
    ['Cannot delete category: 12 lots are associated with it.', 12],
    ['Cannot delete category: 1 lot is associated with it.', 1],
    ['Fehler', null],
  ])('when the message is %p, then the count is %p', (message, count) => {
    expect(associatedLotCount(message)).toBe(count);
  });
});
