import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageSpinner } from '../components/Spinner';
import { lazyPage } from './lazy';
import { PublicLayout } from './layout/PublicLayout';
import { HomePage } from './routes/HomePage';
import { RouteErrorPage } from './routes/RouteErrorPage';

/**
 * The routes. Only the home page ships with the first download; every other page is a lazy
 * route (with the store, see lazy.tsx), and the back-office lives behind '/admin/*' in its own
 * chunks.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: PublicLayout,
    HydrateFallback: PageSpinner,
    children: [
      {
        ErrorBoundary: RouteErrorPage,
        children: [
          { index: true, Component: HomePage },
          {
            path: '*',
            lazy: async () => ({ Component: (await import('./routes/NotFoundPage')).NotFoundPage }),
          },
        ],
      },
    ],
  },
  {
    path: '/admin/*',
    HydrateFallback: PageSpinner,
    lazy: lazyPage(() => import('../features/admin/AdminRoutes')),
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
