import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowRightIcon, SearchIcon } from '../../components/shell-icons';
import { Spinner } from '../../components/Spinner';
import { lazyWithStore } from '../lazy';

// the grid, its data calls and the store arrive after the hero has painted
const HomeCategories = lazyWithStore(
  () => import('../../features/catalog/components/HomeCategories'),
);

// below the fold: it need not hold up the first paint
const HowItWorks = lazy(() => import('./HowItWorks'));

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
      <section aria-labelledby="home-categories" className="container-page py-8 sm:py-12">
        <h2 id="home-categories" className="text-2xl font-bold">
          {t('home.categoriesTitle')}
        </h2>
        <div className="mt-6">
          <Suspense fallback={<Spinner label={t('categories.loading')} />}>
            <HomeCategories />
          </Suspense>
        </div>
      </section>
      <Suspense fallback={null}>
        <HowItWorks />
      </Suspense>
    </>
  );
}
