import { http, HttpResponse, type JsonBodyType } from 'msw';
import { waitFor } from '@testing-library/react';
import { catalogApi } from '../../features/catalog/api/catalog-api';
import {
  clearEarlyAnswers,
  hasEarlyAnswer,
  startEarlyLoads,
  type EarlyLoaders,
} from '../early-loads';
import { i18n } from '../i18n';
import { makeStore } from '../store';
import { apiUrl, server } from '../../test/server';

const photo = '/media/lots/7/abc-medium.webp';
const large = '/media/lots/7/abc-large.webp';

function loaders(): EarlyLoaders & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    lotPage: () => {
      calls.push('lot');
      return Promise.resolve();
    },
    categoryPage: () => {
      calls.push('category');
      return Promise.resolve();
    },
  };
}

/** Counts the calls of one API address (any query) and answers `body`. */
function answerCounting(
  path: string,
  body: JsonBodyType,
): { count: () => number; queries: string[] } {
  const queries: string[] = [];
  server.use(
    http.get(apiUrl(path), ({ request }) => {
      queries.push(new URL(request.url).search);
      return HttpResponse.json(body);
    }),
  );
  return { count: () => queries.length, queries };
}

const preloads = () =>
  Array.from(document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]'));

afterEach(() => {
  clearEarlyAnswers();
  for (const link of preloads()) link.remove();
});

describe('early loads', () => {
  test('when a lot page opens, then its chunk, the lot and the categories load once and the first photo is preloaded as the gallery shows it', async () => {
    const lot = answerCounting('/lots/7', {
      id: 7,
      name: { de: 'Sofa' },
      photos: [photo],
      gallery_photos: [large],
    });
    const categories = answerCounting('/categories/', []);
    const chunks = loaders();

    startEarlyLoads('/lots/7', chunks);
    expect(chunks.calls).toEqual(['lot']);
    await waitFor(() => expect(preloads()).toHaveLength(1));
    const link = preloads()[0]!;
    expect(link.getAttribute('href')).toBe(photo);
    expect(link.getAttribute('imagesrcset')).toBe(`${photo} 800w, ${large} 1600w`);
    expect(link.getAttribute('imagesizes')).toBe('(min-width: 1024px) 50vw, 100vw');
    expect(link.getAttribute('fetchpriority')).toBe('high');

    // the page's own queries take the early answers instead of calling again
    const store = makeStore();
    const result = await store.dispatch(catalogApi.endpoints.getLot.initiate(7));
    await store.dispatch(catalogApi.endpoints.getCategories.initiate());
    expect(result.data).toMatchObject({ id: 7, photos: [photo], galleryPhotos: [large] });
    expect(lot.count()).toBe(1);
    expect(categories.count()).toBe(1);

    // an early answer is handed over once: the next load calls the API again
    await store.dispatch(catalogApi.endpoints.getLot.initiate(7, { forceRefetch: true }));
    expect(lot.count()).toBe(2);
  });

  test('when a category page opens, then the list is loaded early and its first photo is preloaded as the card shows it', async () => {
    const list = answerCounting('/lots/category/k%C3%BCche', {
      success: true,
      data: [{ id: 3, photos: [photo] }],
    });
    answerCounting('/categories/', []);
    const chunks = loaders();

    startEarlyLoads('/categories/k%C3%BCche', chunks);
    expect(chunks.calls).toEqual(['category']);
    await waitFor(() => expect(preloads()).toHaveLength(1));
    expect(preloads()[0]!.getAttribute('imagesrcset')).toBe(
      '/media/lots/7/abc-thumbnail.webp 320w, /media/lots/7/abc-medium.webp 800w',
    );

    // the page's first page is the address the early load asked for: one call in all
    const store = makeStore();
    const result = await store.dispatch(catalogApi.endpoints.getLotsByCategory.initiate('küche'));
    expect(result.data?.pages.flatMap((p) => p.lots).map((l) => l.id)).toEqual([3]);
    expect(list.queries).toEqual(['?limit=24']);
  });

  test('when the language changed before the page asked, then the early answer is not used', async () => {
    const lot = answerCounting('/lots/7', { id: 7, photos: [] });
    answerCounting('/categories/', []);
    startEarlyLoads('/lots/7', loaders());
    await waitFor(() => expect(lot.count()).toBe(1));

    await i18n.changeLanguage('uk');
    await makeStore().dispatch(catalogApi.endpoints.getLot.initiate(7));
    expect(lot.count()).toBe(2);
  });

  test('when the home page opens, then the categories load early, without holding up the first render, and its grid takes them', async () => {
    const categories = answerCounting('/categories/', [{ id: 1, name: { de: 'Sofas' } }]);
    const chunks = loaders();

    // answers at once: the headline paints without waiting for the grid's data
    let settled = false;
    void startEarlyLoads('/', chunks).then(() => (settled = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toBe(true);
    expect(chunks.calls).toEqual([]);
    // the grid waits for it (HomePage.tsx)
    expect(hasEarlyAnswer('/categories/')).toBe(true);
    await waitFor(() => expect(categories.count()).toBe(1));

    const result = await makeStore().dispatch(catalogApi.endpoints.getCategories.initiate());
    expect(result.data?.map((c) => c.id)).toEqual([1]);
    expect(categories.count()).toBe(1);
    expect(hasEarlyAnswer('/categories/')).toBe(false);
    expect(preloads()).toHaveLength(0);
  });

  test('when a back-office page or an unknown address opens, then nothing is loaded early', () => {
    const chunks = loaders();
    startEarlyLoads('/admin/lots/7', chunks);
    startEarlyLoads('/lots/abc', chunks);
    expect(chunks.calls).toEqual([]);
    expect(preloads()).toHaveLength(0);
  });
});
