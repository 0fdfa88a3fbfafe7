import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../../components/ErrorState';
import { Spinner } from '../../../components/Spinner';
import { useCategories } from '../api/catalog-api';
import { CategoryCard } from './CategoryCard';

/** The grid's columns: 1 on phones, 2 at sm, 3 at lg, 4 at xl, 6 at 2xl (public-site §2). */
export const GRID_COLUMNS =
  'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4 2xl:grid-cols-6';

/** The categories, with a spinner while they load and Retry when they could not be loaded. */
export function CategoryGrid() {
  const { t } = useTranslation('public');
  const { data, isLoading, isError, isFetching, refetch } = useCategories();
  if (isLoading) return <Spinner label={t('categories.loading')} />;
  if (isError && !data) {
    return (
      <ErrorState
        message={t('categories.loadError')}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  }
  if (!data || data.length === 0) {
    return <p className="py-8 text-center text-slate-700">{t('categories.empty')}</p>;
  }
  return (
    <ul className={GRID_COLUMNS}>
      {data.map((category) => (
        <li key={category.id}>
          <CategoryCard category={category} />
        </li>
      ))}
    </ul>
  );
}
