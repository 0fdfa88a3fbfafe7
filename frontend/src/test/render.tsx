import { Suspense, type ReactElement } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { routes } from '../app/router';
import { makeStore, type AppStore } from '../app/store';

/**
 * Renders the whole app at `path` with a fresh store (its own API cache); the app's lazily
 * loaded parts use it instead of the app-wide one.
 */
export function renderApp(path = '/', opts: { store?: AppStore; fakeTimers?: boolean } = {}) {
  const store = opts.store ?? makeStore();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup(opts.fakeTimers ? { advanceTimers: jest.advanceTimersByTime } : {});
  const view = render(
    <Provider store={store}>
      <Suspense fallback={null}>
        <RouterProvider router={router} />
      </Suspense>
    </Provider>,
  );
  return { ...view, store, router, user };
}

/** Renders one component inside a fresh store and a router (for links). */
export function renderWithProviders(
  ui: ReactElement,
  opts: { store?: AppStore; path?: string; routePath?: string } = {},
) {
  const store = opts.store ?? makeStore();
  const router = createMemoryRouter([{ path: opts.routePath ?? '*', element: ui }], {
    initialEntries: [opts.path ?? '/'],
  });
  const user = userEvent.setup();
  const view = render(
    <Provider store={store}>
      <Suspense fallback={null}>
        <RouterProvider router={router} />
      </Suspense>
    </Provider>,
  );
  return { ...view, store, router, user };
}
