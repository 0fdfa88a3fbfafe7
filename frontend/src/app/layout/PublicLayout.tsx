import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from '../../components/Spinner';
import { lazyWithStore } from '../lazy';
import { RouteErrorBoundary } from '../routes/RouteErrorPage';
import { Header } from './Header';
import { WishDialogContext } from '../../lib/wish-dialog';

// below the fold on every page: it need not hold up the first paint
const Footer = lazy(() => import('./Footer'));
// loaded when someone first opens it; it stays mounted afterwards so nothing typed is lost
const WishDialog = lazyWithStore(() => import('./WishDialog'));

/** Header, page, footer; a spinner while the next page's code loads. */
export function PublicLayout() {
  const { t } = useTranslation('common');
  const [wishOpen, setWishOpen] = useState(false);
  const [wishUsed, setWishUsed] = useState(false);
  const openWish = useCallback(() => {
    setWishUsed(true);
    setWishOpen(true);
  }, []);
  const closeWish = useCallback(() => setWishOpen(false), []);

  // after a page change: back to the top, and focus on the new page (screen readers announce it)
  const { pathname } = useLocation();
  const firstPath = useRef(pathname);
  useEffect(() => {
    if (pathname === firstPath.current) return;
    (document.scrollingElement ?? document.documentElement).scrollTop = 0;
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <WishDialogContext.Provider value={openWish}>
      <div className="flex min-h-dvh flex-col bg-slate-50 text-slate-900">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-white px-4 py-2 font-semibold text-blue-900 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          {t('nav.skipToContent')}
        </a>
        <Header />
        {/* at least a screen high under the 4rem header: the footer starts below the fold, so
            content arriving later pushes nothing the family sees (Lighthouse: the footer was
            the element that moved, CLS 0.36 on the lot page, 0.77 on a category page) */}
        <main id="main" tabIndex={-1} className="min-h-[calc(100dvh-4rem)] flex-1 outline-none">
          <RouteErrorBoundary resetKey={pathname}>
            <Suspense fallback={<PageSpinner />}>
              <Outlet />
            </Suspense>
          </RouteErrorBoundary>
        </main>
        <Suspense fallback={null}>
          <Footer />
        </Suspense>
      </div>
      {wishUsed && (
        <Suspense fallback={null}>
          <WishDialog open={wishOpen} onClose={closeWish} />
        </Suspense>
      )}
    </WishDialogContext.Provider>
  );
}
