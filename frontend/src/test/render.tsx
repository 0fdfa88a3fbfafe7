import { Suspense, type ReactElement } from 'react';
import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import {
  MemoryRouter,
  Route,
  Routes,
  useLocation,
  useNavigate,
  type Location,
  type NavigateFunction,
} from 'react-router';
import { AppRoutes } from '../app/router';
import { makeStore, type AppStore } from '../app/store';

/** What a test can see of and do with the router: the current location, and navigate. */
export interface TestRouter {
  state: { location: Location };
  navigate(to: string): Promise<void>;
}

function RouterProbe({ into }: { into: { location?: Location; navigate?: NavigateFunction } }) {
  into.location = useLocation();
  into.navigate = useNavigate();
  return null;
}

function testRouter(probe: { location?: Location; navigate?: NavigateFunction }): TestRouter {
  return {
    state: {
      get location() {
        if (!probe.location) throw new Error('the router has not rendered yet');
        return probe.location;
      },
    },
    async navigate(to: string) {
      await act(async () => {
        await probe.navigate?.(to);
      });
    },
  };
}

/**
 * Renders the whole app at `path` with a fresh store (its own API cache); the app's lazily
 * loaded parts use it instead of the app-wide one.
 */
export function renderApp(path = '/', opts: { store?: AppStore; fakeTimers?: boolean } = {}) {
  const store = opts.store ?? makeStore();
  const probe: { location?: Location; navigate?: NavigateFunction } = {};
  const user = userEvent.setup(opts.fakeTimers ? { advanceTimers: jest.advanceTimersByTime } : {});
  const view = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <RouterProbe into={probe} />
        <Suspense fallback={null}>
          <AppRoutes />
        </Suspense>
      </MemoryRouter>
    </Provider>,
  );
  return { ...view, store, router: testRouter(probe), user };
}

/** Renders one component inside a fresh store and a router (for links). */
export function renderWithProviders(
  ui: ReactElement,
  opts: { store?: AppStore; path?: string; routePath?: string } = {},
) {
  const store = opts.store ?? makeStore();
  const probe: { location?: Location; navigate?: NavigateFunction } = {};
  const user = userEvent.setup();
  const view = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[opts.path ?? '/']}>
        <RouterProbe into={probe} />
        <Suspense fallback={null}>
          <Routes>
            <Route path={opts.routePath ?? '*'} element={ui} />
          </Routes>
        </Suspense>
      </MemoryRouter>
    </Provider>,
  );
  return { ...view, store, router: testRouter(probe), user };
}
