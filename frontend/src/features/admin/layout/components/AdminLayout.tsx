import { Suspense, useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogBackdrop, DialogPanel } from '@headlessui/react';
import { ExternalLink, LogOut, Menu, X } from 'lucide-react';
import { api } from '../../../../app/api';
import { env } from '../../../../config/env';
import { useAppDispatch } from '../../../../app/hooks';
import { LanguageSwitch } from '../../../../app/layout/LanguageSwitch';
import { PageSpinner } from '../../../../components/Spinner';
import { useReturnFocus } from '../../../../lib/use-return-focus';
import { clearAllDrafts } from '../../lib/form-draft';
import {
  endSession,
  type StaffUser,
  updateSessionUser,
  useGetMeQuery,
  useLogoutMutation,
  useSession,
} from '../../session';
import { BudgetBanner } from '../../messages';
import { navItemsFor } from '../nav-items';

function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation('admin');
  const { user, token } = useSession();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [logout, { isLoading }] = useLogoutMutation();

  const onLogout = async () => {
    // a failed server logout is ignored (back-office §7): the browser forgets the session anyway
    await logout()
      .unwrap()
      .catch(() => undefined);
    endSession(dispatch, null);
    // a logout on purpose keeps nothing typed on this computer (an ended session keeps drafts)
    clearAllDrafts();
    dispatch(api.util.resetApiState());
    void navigate('/admin/login', { replace: true });
  };

  return (
    <div className="flex h-full flex-col bg-blue-950 text-blue-50">
      <div className="px-5 pt-5 pb-4">
        <p className="text-lg font-bold text-white">Möbelbrücke</p>
        <p className="text-sm text-blue-200">{t('layout.subtitle')}</p>
      </div>
      <nav aria-label={t('layout.navigation')} className="flex-1 overflow-y-auto px-3">
        <ul className="flex flex-col gap-1">
          {navItemsFor(user?.role).map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.end}
                onClick={onNavigate}
                className={({ isActive }) =>
                  `flex min-h-11 items-center gap-3 rounded-lg px-3 font-medium ${
                    isActive ? 'bg-white text-blue-950' : 'text-blue-50 hover:bg-blue-900'
                  }`
                }
              >
                <item.icon aria-hidden="true" className="size-5 shrink-0" />
                {t(`nav.${item.key}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="border-t border-blue-900 p-4">
        {user && (
          <div className="mb-3 text-sm">
            <p className="truncate font-semibold text-white">{user.name}</p>
            <p className="truncate text-blue-200">{user.email}</p>
            <p className="text-blue-200">{t(`roles.${user.role}`)}</p>
          </div>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <LanguageSwitch />
          <a
            href="/"
            className="inline-flex min-h-9 items-center gap-1 rounded-md px-2 text-sm text-blue-100 hover:bg-blue-900"
          >
            <ExternalLink aria-hidden="true" className="size-4" />
            {t('layout.publicSite')}
          </a>
        </div>
        <button
          type="button"
          onClick={() => void onLogout()}
          disabled={isLoading || !token}
          className="mt-3 inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-lg border border-blue-800 px-3 font-semibold text-white hover:bg-blue-900"
        >
          <LogOut aria-hidden="true" className="size-5" />
          {t('layout.logout')}
        </button>
        <p className="mt-3 text-xs text-blue-200">
          {t('layout.version', { version: env.version })}
        </p>
      </div>
    </div>
  );
}

/**
 * The back-office frame: a fixed sidebar from 1024 px, a top bar with a drawer below. It asks
 * the server who is logged in, so a changed name or role shows without a new login.
 */
export function AdminLayout() {
  const { t } = useTranslation('admin');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const location = useLocation();
  const dispatch = useAppDispatch();
  const { user } = useSession();
  const me = useGetMeQuery();

  useEffect(() => setDrawerOpen(false), [location.pathname]);
  useReturnFocus(drawerOpen);
  // each answer of the server is applied once: an older answer must not undo a newer local save
  const applied = useRef<StaffUser | undefined>(undefined);
  useEffect(() => {
    const fresh = me.data;
    if (!fresh || fresh === applied.current) return;
    applied.current = fresh;
    if (
      user &&
      (fresh.role !== user.role || fresh.name !== user.name || fresh.email !== user.email)
    ) {
      updateSessionUser(dispatch, fresh);
    }
  }, [me.data, user, dispatch]);

  return (
    <div className="min-h-screen bg-slate-50 lg:flex">
      <a
        href="#admin-main"
        className="sr-only focus:not-sr-only focus:absolute focus:z-50 focus:m-2 focus:rounded focus:bg-white focus:p-2"
      >
        {t('layout.skipToContent')}
      </a>
      <aside className="hidden w-64 shrink-0 bg-blue-950 lg:block">
        <div className="sticky top-0 h-screen">
          <Sidebar />
        </div>
      </aside>
      <header className="sticky top-0 z-30 flex items-center justify-between gap-3 bg-blue-950 px-4 py-2 text-white lg:hidden">
        <span className="flex items-baseline gap-2">
          <span className="font-bold">Möbelbrücke</span>
          <span className="text-sm text-blue-200">{t('layout.subtitle')}</span>
        </span>
        <button
          type="button"
          onClick={() => setDrawerOpen(true)}
          aria-label={t('layout.openMenu')}
          aria-expanded={drawerOpen}
          className="inline-flex size-11 items-center justify-center rounded-lg hover:bg-blue-900"
        >
          <Menu aria-hidden="true" className="size-6" />
        </button>
      </header>
      <Dialog
        open={drawerOpen}
        onClose={setDrawerOpen}
        aria-label={t('layout.navigation')}
        className="relative z-50 lg:hidden"
      >
        <DialogBackdrop className="fixed inset-0 bg-slate-950/60" />
        <DialogPanel className="fixed inset-y-0 left-0 w-72 max-w-[85vw] shadow-xl">
          <button
            type="button"
            onClick={() => setDrawerOpen(false)}
            aria-label={t('layout.closeMenu')}
            className="absolute top-3 right-3 z-10 inline-flex size-10 items-center justify-center rounded-full text-white hover:bg-blue-900"
          >
            <X aria-hidden="true" className="size-6" />
          </button>
          <Sidebar onNavigate={() => setDrawerOpen(false)} />
        </DialogPanel>
      </Dialog>
      <main
        id="admin-main"
        className="mx-auto w-full max-w-7xl min-w-0 px-4 py-5 sm:px-6 lg:px-8 lg:py-8"
      >
        {/* a message budget that ran low (issue 30): administrators see it on every page */}
        {user?.role === 'admin' && <BudgetBanner />}
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
