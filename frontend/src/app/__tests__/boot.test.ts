import { http, HttpResponse, type JsonBodyType } from 'msw';
import { waitFor } from '@testing-library/react';
import { boot, detectLanguage } from '../../boot/boot';
import { catalogApi } from '../../features/catalog/api/catalog-api';
import { prefillCategories, prefillCategory, prefillLot } from '../../features/catalog/api/prefill';
import { clearEarlyAnswers, startEarlyLoads, type EarlyLoaders } from '../early-loads';
import { api } from '../api';
import { getAppStore } from '../StoreProvider';
import { apiUrl, server } from '../../test/server';

const photo = '/media/lots/7/abc-medium.webp';
const large = '/media/lots/7/abc-large.webp';

/** Counts the calls of one API address and answers `body`. */
function answerCounting(path: string, body: JsonBodyType): { count: () => number } {
  let count = 0;
  server.use(
    http.get(apiUrl(path), () => {
      count++;
      return HttpResponse.json(body);
    }),
  );
  return { count: () => count };
}

const imagePreloads = () =>
  Array.from(document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]'));

const noLoaders: EarlyLoaders = {
  lotPage: () => Promise.resolve(),
  categoryPage: () => Promise.resolve(),
};

// the app's one store lives on between tests: each starts with an empty cache
beforeEach(() => {
  getAppStore().dispatch(api.util.resetApiState());
});

afterEach(() => {
  clearEarlyAnswers();
  for (const link of imagePreloads()) link.remove();
  window.history.replaceState(null, '', '/');
  document.cookie = 'i18next=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

describe('the boot script', () => {
  test('when a lot page opens, then it starts the lot and the categories and preloads the first photo, and the app takes its answers over instead of asking again', async () => {
    const lot = answerCounting('/lots/7', { id: 7, photos: [photo], gallery_photos: [large] });
    const categories = answerCounting('/categories/', []);
    window.history.replaceState(null, '', '/lots/7');

    boot();
    expect(window.__earlyBoot?.map((a) => [a.url, a.language])).toEqual([
      [apiUrl('/lots/7'), 'de'],
      [apiUrl('/categories/'), 'de'],
    ]);
    await waitFor(() => expect(imagePreloads()).toHaveLength(1));
    expect(imagePreloads()[0]!.getAttribute('imagesrcset')).toBe(`${photo} 800w, ${large} 1600w`);

    await startEarlyLoads('/lots/7', noLoaders);
    const store = getAppStore();
    const result = await store.dispatch(catalogApi.endpoints.getLot.initiate(7));
    await store.dispatch(catalogApi.endpoints.getCategories.initiate());
    expect(result.data).toMatchObject({ id: 7, galleryPhotos: [large] });
    expect(lot.count()).toBe(1);
    expect(categories.count()).toBe(1);
    // the app preloads nothing a second time
    expect(imagePreloads()).toHaveLength(1);
    expect(window.__earlyBoot).toEqual([]);
  });

  test("when a category page opens, then it asks for the page's first 24 lots at the address the page asks for, and the page takes that answer over", async () => {
    const queries: string[] = [];
    server.use(
      http.get(apiUrl('/lots/category/sofas'), ({ request }) => {
        queries.push(new URL(request.url).search);
        return HttpResponse.json([{ id: 3, photos: [photo] }], {
          headers: { 'X-Total-Count': '30' },
        });
      }),
    );
    answerCounting('/categories/', []);
    window.history.replaceState(null, '', '/categories/sofas');

    boot();
    expect(window.__earlyBoot?.map((a) => a.url)).toEqual([
      apiUrl('/lots/category/sofas?limit=24'),
      apiUrl('/categories/'),
    ]);
    await startEarlyLoads('/categories/sofas', noLoaders);
    await prefillCategory('sofas');
    const page = catalogApi.endpoints.getLotsByCategory.select('sofas')(getAppStore().getState())
      .data?.pages[0];
    expect(page).toMatchObject({ lots: [{ id: 3 }], total: 30 });
    expect(queries).toEqual(['?limit=24']);
    expect(window.__earlyBoot).toEqual([]);
  });

  test('when the boot script asked in another language than the app speaks, then the app asks again in its own', async () => {
    const lot = answerCounting('/lots/8', { id: 8, photos: [] });
    answerCounting('/categories/', []);
    window.history.replaceState(null, '', '/lots/8?lng=ua');

    boot();
    expect(window.__earlyBoot?.[0]?.language).toBe('uk');
    // the app still speaks German (the test's i18next): the Ukrainian answer is not its answer
    await startEarlyLoads('/lots/8', noLoaders);
    await getAppStore().dispatch(catalogApi.endpoints.getLot.initiate(8));
    expect(lot.count()).toBe(2);
  });

  test('when the home page opens, then it starts the categories of its grid, and the app takes the answer over', async () => {
    const categories = answerCounting('/categories/', []);
    window.history.replaceState(null, '', '/');

    boot();
    expect(window.__earlyBoot?.map((a) => a.url)).toEqual([apiUrl('/categories/')]);
    await startEarlyLoads('/', noLoaders);
    await getAppStore().dispatch(catalogApi.endpoints.getCategories.initiate());
    expect(categories.count()).toBe(1);
    expect(imagePreloads()).toHaveLength(0);
  });

  test('when a back-office page or an unknown address opens, then it loads nothing', () => {
    for (const path of ['/admin/lots/7', '/lots/abc', '/categories']) {
      window.history.replaceState(null, '', path);
      boot();
    }
    expect(window.__earlyBoot).toBeUndefined();
  });

  test("when it detects the language, then it follows the app's order: address, cookie, stored choice, browser, page", () => {
    window.history.replaceState(null, '', '/lots/1?lng=uk-UA');
    expect(detectLanguage()).toBe('uk');
    window.history.replaceState(null, '', '/lots/1');
    document.cookie = 'i18next=ua';
    localStorage.setItem('i18nextLng', 'de');
    expect(detectLanguage()).toBe('uk');
    document.cookie = 'i18next=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    expect(detectLanguage()).toBe('de');
    localStorage.setItem('i18nextLng', 'fr');
    sessionStorage.setItem('i18nextLng', 'uk');
    expect(detectLanguage()).toBe('uk');
  });
});

describe('the data of a deep link before the first render', () => {
  test('when a lot page is prefilled, then the store holds the lot and the categories and the page asks for nothing more', async () => {
    const lot = answerCounting('/lots/9', { id: 9, photos: [photo] });
    const categories = answerCounting('/categories/', [{ id: 1, name: { de: 'Sofas' } }]);

    await prefillLot(9);
    const state = getAppStore().getState();
    expect(catalogApi.endpoints.getLot.select(9)(state).data).toMatchObject({ id: 9 });
    expect(catalogApi.endpoints.getCategories.select()(state).data).toHaveLength(1);
    // the page's own queries find the data
    await getAppStore().dispatch(catalogApi.endpoints.getLot.initiate(9));
    expect(lot.count()).toBe(1);
    expect(categories.count()).toBe(1);
  });

  test('when a category page is prefilled, then the store holds its lots', async () => {
    answerCounting('/lots/category/sofas', { success: true, data: [{ id: 3, photos: [] }] });
    answerCounting('/categories/', []);

    await prefillCategory('sofas');
    const state = getAppStore().getState();
    expect(
      catalogApi.endpoints.getLotsByCategory
        .select('sofas')(state)
        .data?.pages.flatMap((p) => p.lots)
        .map((l) => l.id),
    ).toEqual([3]);
  });

  test("when the home page's grid is prefilled, then the store holds the categories and the grid asks for nothing more", async () => {
    const categories = answerCounting('/categories/', [{ id: 1, name: { de: 'Sofas' } }]);

    await prefillCategories();
    expect(catalogApi.endpoints.getCategories.select()(getAppStore().getState()).data).toHaveLength(
      1,
    );
    await getAppStore().dispatch(catalogApi.endpoints.getCategories.initiate());
    expect(categories.count()).toBe(1);
  });

  test('when the categories cannot be loaded, then prefilling the grid still settles (the grid shows the error)', async () => {
    server.use(http.get(apiUrl('/categories/'), () => HttpResponse.json({}, { status: 503 })));
    await expect(prefillCategories()).resolves.toBeUndefined();
  });

  test('when the lot cannot be loaded, then prefilling still settles (the page shows the error)', async () => {
    server.use(http.get(apiUrl('/lots/10'), () => HttpResponse.json({}, { status: 503 })));
    answerCounting('/categories/', []);
    await expect(prefillLot(10)).resolves.toBeUndefined();
  });
});
