import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowRightIcon, SearchIcon } from '../../components/shell-icons';
import { Spinner } from '../../components/Spinner';
import { hasEarlyAnswer } from '../early-loads';
import { lazyWithStore } from '../lazy';

// The grid, its data and the store arrive after the hero has painted. Where the home page was
// opened first, the boot script has asked for the categories while the app downloaded
// (early-plan.ts) and the grid renders once they are in: a grid rendered with its spinner first
// pushed the link below it down when they came in (Lighthouse: a 0.027 layout shift).
const HomeCategories = lazyWithStore(async () => {
  const [grid] = await Promise.all([
    import('../../features/catalog/components/HomeCategories'),
    hasEarlyAnswer('/categories/')
      ? import('../../features/catalog/api/prefill').then((p) => p.prefillCategories())
      : undefined,
  ]);
  return grid;
});

// below the fold: it need not hold up the first paint (it appears with the grid)
const HowItWorks = lazy(() => import('./HowItWorks'));

/** The category section around the grid, or around the spinner while the grid loads. */
function CategoriesSection({ children }: { children: ReactNode }) {
  const { t } = useTranslation('public');
  return (
    <section aria-labelledby="home-categories" className="container-page py-8 sm:py-12">
      <h2 id="home-categories" className="text-2xl font-bold">
        {t('home.categoriesTitle')}
      </h2>
      <div className="mt-6">{children}</div>
    </section>
  );
}

/** Hero with the headline and the two buttons, then the category grid. */
export function HomePage() {
  const { t } = useTranslation('public');
  return (
    <>
      <title>{`${t('common:app.name')} – ${t('home.titleShort')}`}</title>
      <section className="bg-gradient-to-b from-blue-900 to-blue-800 text-white">
        <div className="container-page py-10 sm:py-16">
          <h1 className="max-w-3xl text-3xl leading-tight font-bold sm:text-4xl lg:text-5xl">
            {t('home.title')}
          </h1>
          <p className="mt-4 max-w-2xl text-lg text-blue-50">{t('home.lead')}</p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link to="/categories" className="btn-accent justify-center px-5 py-3 text-base">
              {t('home.browse')}
              <ArrowRightIcon className="size-5" />
            </Link>
            <Link
              to="/check-status"
              className="btn-outline-light justify-center px-5 py-3 text-base"
            >
              <SearchIcon className="size-5" />
              {t('home.checkStatus')}
            </Link>
          </div>
        </div>
      </section>
      {/* The grid and the steps below it appear together (apart, the steps painted first and the
          grid pushed them down). On a phone the spinner fills the screen below the hero, so the
          footer does not paint there first either (eight categories are taller than that). */}
      <Suspense
        fallback={
          <CategoriesSection>
            <Spinner
              label={t('categories.loading')}
              className="max-sm:min-h-svh max-sm:items-start"
            />
          </CategoriesSection>
        }
      >
        <CategoriesSection>
          <HomeCategories />
        </CategoriesSection>
        <HowItWorks />
      </Suspense>
    </>
  );
}
