import { render, screen } from '@testing-library/react';
import '../../test/admin-test-utils';
import { pageRange, pageWindow } from '../../lib/page-window';
import { Pagination } from '../../ui/Pagination';

describe('pagination window', () => {
  test.each([
    [1, 20, 2, [1, 2, 3, 'gap', 20]],
    [10, 20, 2, [1, 'gap', 8, 9, 10, 11, 12, 'gap', 20]],
    [20, 20, 2, [1, 'gap', 18, 19, 20]],
    [4, 20, 2, [1, 2, 3, 4, 5, 6, 'gap', 20]],
    [5, 9, 2, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    [10, 20, 1, [1, 'gap', 9, 10, 11, 'gap', 20]],
    [1, 20, 1, [1, 2, 'gap', 20]],
    [3, 20, 1, [1, 2, 3, 4, 'gap', 20]],
    [1, 1, 2, [1]],
    [1, 0, 2, []],
  ])(
    'when page %i of %i is shown with %i on each side, then the buttons are %j',
    (page, total, siblings, expected) => {
      expect(pageWindow(page, total, siblings)).toEqual(expected);
    },
  );

  test('when the range line is computed, then the last page ends at the total', () => {
    expect(pageRange(1, 20, 95)).toEqual({ from: 1, to: 20 });
    expect(pageRange(5, 20, 95)).toEqual({ from: 81, to: 95 });
    expect(pageRange(1, 20, 0)).toEqual({ from: 0, to: 0 });
  });
});

function mockScreenWidth(width: number) {
  window.matchMedia = ((query: string) => {
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    return {
      matches: max ? width <= Number(max[1]) : false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    };
  }) as unknown as typeof window.matchMedia;
}

const pageButtons = () =>
  [...screen.getByRole('navigation', { name: 'Seitennavigation' }).querySelectorAll('li')].map(
    (item) => item.textContent || item.querySelector('button')?.getAttribute('aria-label'),
  );

describe('numbered pagination', () => {
  afterEach(() => {
    delete (window as { matchMedia?: unknown }).matchMedia;
  });

  test('when the screen is wide, then two pages show on each side and the range line counts lots', () => {
    mockScreenWidth(1366);
    render(
      <Pagination
        page={10}
        total={400}
        pageSize={20}
        onPage={() => undefined}
        rangeKey="lots.range"
      />,
    );
    expect(screen.getByText('Zeige 181 bis 200 von 400 Lots')).toBeInTheDocument();
    expect(pageButtons()).toEqual([
      'Vorherige Seite',
      '1',
      '…',
      '8',
      '9',
      '10',
      '11',
      '12',
      '…',
      '20',
      'Nächste Seite',
    ]);
    expect(screen.getByRole('button', { name: 'Seite 10' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('when the screen is narrower than 640 px, then one page shows on each side', () => {
    mockScreenWidth(390);
    render(
      <Pagination
        page={10}
        total={400}
        pageSize={20}
        onPage={() => undefined}
        rangeKey="lots.range"
      />,
    );
    expect(pageButtons()).toEqual([
      'Vorherige Seite',
      '1',
      '…',
      '9',
      '10',
      '11',
      '…',
      '20',
      'Nächste Seite',
    ]);
  });
});
