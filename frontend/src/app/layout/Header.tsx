import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CloseIcon, HeartIcon, MenuIcon, SofaIcon } from '../../components/shell-icons';
import { LanguageSwitch } from './LanguageSwitch';
import { useOpenWishDialog } from '../../lib/wish-dialog';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 font-medium ${
    isActive
      ? 'bg-blue-50 text-blue-900 underline underline-offset-4'
      : 'text-slate-800 hover:bg-slate-100'
  }`;

/** Logo link, links, DE/UA switch, wish button; on phones the links sit in a menu. */
export function Header() {
  const { t } = useTranslation('common');
  const openWish = useOpenWishDialog();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const location = useLocation();

  // the menu closes when the page changes
  useEffect(() => setMenuOpen(false), [location.pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMenuOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const links = (
    <>
      <NavLink to="/categories" className={navLinkClass}>
        {t('nav.categories')}
      </NavLink>
      <NavLink to="/check-status" className={navLinkClass}>
        {t('nav.checkStatus')}
      </NavLink>
      <NavLink to="/donate" className={navLinkClass}>
        {t('nav.donate')}
      </NavLink>
    </>
  );

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
      <div className="container-page flex h-16 items-center justify-between gap-2">
        <Link
          to="/"
          className="flex min-w-0 items-center gap-2 rounded-md text-lg font-bold text-blue-900"
        >
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-yellow-300 text-blue-900">
            <SofaIcon className="size-5" />
          </span>
          <span className="truncate">{t('app.name')}</span>
        </Link>

        <nav aria-label={t('nav.main')} className="hidden items-center gap-1 md:flex">
          {links}
        </nav>

        <div className="flex items-center gap-2">
          <LanguageSwitch />
          <button type="button" onClick={openWish} className="btn-accent hidden md:inline-flex">
            <HeartIcon className="size-4" />
            {t('wish.button')}
          </button>
          <button
            ref={menuButton}
            type="button"
            className="inline-flex size-10 items-center justify-center rounded-md text-slate-800 hover:bg-slate-100 md:hidden"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            aria-label={menuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <CloseIcon className="size-6" /> : <MenuIcon className="size-6" />}
          </button>
        </div>
      </div>

      <div id={menuId} hidden={!menuOpen} className="border-t border-slate-200 md:hidden">
        <nav aria-label={t('nav.mobile')} className="container-page flex flex-col gap-1 py-3">
          {links}
          <button
            type="button"
            className="btn-accent mt-2 w-full justify-center"
            onClick={() => {
              // the menu hides this button: the dialog returns focus to the menu's button
              menuButton.current?.focus();
              setMenuOpen(false);
              openWish();
            }}
          >
            <HeartIcon className="size-4" />
            {t('wish.button')}
          </button>
        </nav>
      </div>
    </header>
  );
}
