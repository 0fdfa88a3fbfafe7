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
            path: 'categories',
            lazy: lazyPage(() => import('../features/catalog/components/CategoriesPage')),
          },
          {
            path: 'categories/:categoryId',
            lazy: lazyPage(() => import('../features/catalog/components/CategoryLotsPage')),
          },
          { path: 'lots/:lotId', lazy: lazyPage(() => import('./routes/LotPage')) },
          {
            path: 'check-status',
            lazy: lazyPage(() => import('../features/applications/components/CheckStatusPage')),
          },
          {
            path: 'terms-and-delivery',
            lazy: async () => ({
              Component: (await import('../features/legal/components/TermsPage')).default,
            }),
          },
          {
            path: 'privacy-policy',
            lazy: async () => ({
              Component: (await import('../features/legal/components/PrivacyPage')).default,
            }),
          },
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
