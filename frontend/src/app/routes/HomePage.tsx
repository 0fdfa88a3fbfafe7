import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowRightIcon, SearchIcon } from '../../components/shell-icons';

/** Hero with the headline and the two buttons, then the category grid. */
export function HomePage() {
  const { t } = useTranslation('public');
  return (
    <>
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
    </>
  );
}
