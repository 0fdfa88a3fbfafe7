import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { PageSpinner } from '../components/Spinner';
import type { EarlyLoaders } from './early-loads';
import { lazyWithStore } from './lazy';
import { PublicLayout } from './layout/PublicLayout';
import { HomePage } from './routes/HomePage';

/*
 * The routes. Only the home page ships with the first download; every other page is loaded
 * lazily (with the store where it needs data, see lazy.tsx), and the back-office lives behind
 * '/admin/*' in its own chunks. Declarative routes rather than the data router: the pages fetch
 * their own data through RTK Query, and the data router would cost about 17 kB gzip of the home
 * page's 125 kB budget (scripts/report-size.mjs).
 */
const CategoriesPage = lazyWithStore(() => import('../features/catalog/components/CategoriesPage'));
const CategoryLotsPage = lazyWithStore(
  () => import('../features/catalog/components/CategoryLotsPage'),
);
const LotPage = lazyWithStore(() => import('./routes/LotPage'));

/** The pages main.tsx loads early for a deep link to a lot or a category (early-loads.ts). */
const prefill = () => import('../features/catalog/api/prefill');
export const earlyLoaders: EarlyLoaders = {
  lotPage: (lotId) => Promise.all([LotPage.preload(), prefill().then((p) => p.prefillLot(lotId))]),
  categoryPage: (ref) =>
    Promise.all([CategoryLotsPage.preload(), prefill().then((p) => p.prefillCategory(ref))]),
};
const CheckStatusPage = lazyWithStore(
  () => import('../features/applications/components/CheckStatusPage'),
);
const DonatePage = lazyWithStore(() => import('../features/donations/components/DonatePage'));
const HandoverPage = lazyWithStore(() => import('../features/handover/components/HandoverPage'));
const TermsPage = lazy(() => import('../features/legal/components/TermsPage'));
const PrivacyPage = lazy(() => import('../features/legal/components/PrivacyPage'));
const NotFoundPage = lazy(() => import('./routes/NotFoundPage'));
const AdminRoutes = lazyWithStore(() => import('../features/admin/AdminRoutes'));

export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="/admin/*"
        element={
          <Suspense fallback={<PageSpinner />}>
            <AdminRoutes />
          </Suspense>
        }
      />
      <Route element={<PublicLayout />}>
        <Route index element={<HomePage />} />
        <Route path="categories" element={<CategoriesPage />} />
        <Route path="categories/:categoryId" element={<CategoryLotsPage />} />
        <Route path="lots/:lotId" element={<LotPage />} />
        <Route path="check-status" element={<CheckStatusPage />} />
        <Route path="donate" element={<DonatePage />} />
        <Route path="handover/:token" element={<HandoverPage />} />
        <Route path="terms-and-delivery" element={<TermsPage />} />
        <Route path="privacy-policy" element={<PrivacyPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
