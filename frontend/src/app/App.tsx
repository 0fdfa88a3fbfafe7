import { Suspense, useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { PageSpinner } from '../components/Spinner';
import { createAppRouter } from './router';

/**
 * The router, and a fallback while the translation files load. The store is not created here:
 * it comes with the first lazily loaded part that needs it (lazy.tsx).
 */
export function App() {
  const [router] = useState(createAppRouter);
  return (
    <Suspense fallback={<PageSpinner />}>
      <RouterProvider router={router} />
    </Suspense>
  );
}
