import { Suspense } from 'react';
import { BrowserRouter } from 'react-router';
import { BusyNotice } from '../components/BusyNotice';
import { PageSpinner } from '../components/Spinner';
import { AppRoutes } from './router';

/**
 * The router, and a fallback while the translation files load. The store is not created here:
 * it comes with the first lazily loaded part that needs it (lazy.tsx).
 */
export function App() {
  return (
    <BrowserRouter>
      <Suspense fallback={<PageSpinner />}>
        <AppRoutes />
        <BusyNotice />
      </Suspense>
    </BrowserRouter>
  );
}
