import { act, screen, waitFor } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { api } from '../../../app/api';
import { makeStore } from '../../../app/store';
import { CATEGORIES, catalogHandlers, category } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl, server } from '../../../test/server';
import { CATEGORY_CACHE_SECONDS, catalogApi } from '../api/catalog-api';

/** Counts the category calls; each answer can be held back and its body chosen. */
function countCategoryCalls(answers: { delayMs?: number; data?: unknown[] }[] = []) {
  const calls = { count: 0 };
  server.use(
    http.get(apiUrl('/categories/'), async () => {
      const answer = answers[calls.count] ?? {};
      calls.count += 1;
      if (answer.delayMs) await delay(answer.delayMs);
      return HttpResponse.json({ success: true, data: answer.data ?? CATEGORIES });
    }),
  );
  return calls;
}

describe('category list cache', () => {
  beforeEach(() => server.use(...catalogHandlers()));
  test('when the cache lifetime is read, then it is 5 minutes (public-site §9)', () => {
    expect(CATEGORY_CACHE_SECONDS).toBe(300);
  });

  test('when another page needs the categories within 5 minutes, then they come from the cache without a call', async () => {
    const calls = countCategoryCalls();
    const { router } = renderApp('/categories');
    expect(await screen.findByRole('link', { name: /Sofas & Sessel/ })).toBeInTheDocument();

    await act(() => router.navigate('/'));
    expect(await screen.findByRole('link', { name: /Sofas & Sessel/ })).toBeInTheDocument();
    expect(calls.count).toBe(1);
  });

  test('when 5 minutes have passed, and not before, then the next page that needs them loads them again', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      const calls = countCategoryCalls();
      const { router } = renderApp('/categories', { fakeTimers: true });
      await screen.findByRole('link', { name: /Sofas & Sessel/ });

      jest.setSystemTime(Date.now() + (CATEGORY_CACHE_SECONDS - 10) * 1000);
      await act(() => router.navigate('/check-status'));
      await act(() => router.navigate('/categories'));
      await screen.findByRole('link', { name: /Sofas & Sessel/ });
      expect(calls.count).toBe(1);

      jest.setSystemTime(Date.now() + 11 * 1000);
      await act(() => router.navigate('/'));
      await waitFor(() => expect(calls.count).toBe(2));
    } finally {
      jest.useRealTimers();
    }
  });

  test('when the list failed and Retry is pressed, then it is loaded again at once', async () => {
    let failing = true;
    server.use(
      http.get(apiUrl('/categories/'), () =>
        failing ? HttpResponse.error() : HttpResponse.json({ success: true, data: CATEGORIES }),
      ),
    );
    const { user } = renderApp('/categories');
    expect(await screen.findByRole('alert')).toHaveTextContent('Fehler beim Laden der Kategorien.');

    failing = false;
    await user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByRole('link', { name: /Sofas & Sessel/ })).toBeInTheDocument();
  });

  test('when a refresh is forced within the 5 minutes, then the cache is skipped', async () => {
    const calls = countCategoryCalls([{}, { data: [category(9)] }]);
    const store = makeStore();
    await store.dispatch(catalogApi.endpoints.getCategories.initiate());
    const forced = await store.dispatch(
      catalogApi.endpoints.getCategories.initiate(undefined, { forceRefetch: true }),
    );
    expect(calls.count).toBe(2);
    expect(forced.data?.map((c) => c.id)).toEqual([9]);
  });

  test('when a load is running, then a second load, even a forced one, starts no second call', async () => {
    const calls = countCategoryCalls([{ delayMs: 50 }]);
    const store = makeStore();
    const first = store.dispatch(catalogApi.endpoints.getCategories.initiate());
    const second = store.dispatch(catalogApi.endpoints.getCategories.initiate());
    const forced = store.dispatch(
      catalogApi.endpoints.getCategories.initiate(undefined, { forceRefetch: true }),
    );
    await Promise.all([first, second, forced]);
    expect(calls.count).toBe(1);
    expect((await forced).data).toHaveLength(CATEGORIES.length);
  });

  test('when an older request answers after a newer one, then its answer is ignored', async () => {
    countCategoryCalls([{ delayMs: 80, data: [category(1)] }, { data: [category(2)] }]);
    const store = makeStore();
    const stale = store.dispatch(catalogApi.endpoints.getCategories.initiate());
    await delay(10);
    // the cache is dropped while the first call runs (as a reset does), and loaded anew
    store.dispatch(api.util.resetApiState());
    const fresh = await store.dispatch(catalogApi.endpoints.getCategories.initiate());
    expect(fresh.data?.map((c) => c.id)).toEqual([2]);

    await stale;
    const current = catalogApi.endpoints.getCategories.select()(store.getState());
    expect(current.data?.map((c) => c.id)).toEqual([2]);
  });

  test('when nothing has used the list for 5 minutes, then it is dropped from memory', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      countCategoryCalls();
      const store = makeStore();
      const subscription = store.dispatch(catalogApi.endpoints.getCategories.initiate());
      await subscription;
      subscription.unsubscribe();
      const cached = () => catalogApi.endpoints.getCategories.select()(store.getState()).data;

      act(() => jest.advanceTimersByTime((CATEGORY_CACHE_SECONDS - 1) * 1000));
      expect(cached()).toHaveLength(CATEGORIES.length);
      act(() => jest.advanceTimersByTime(2000));
      expect(cached()).toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });
});
