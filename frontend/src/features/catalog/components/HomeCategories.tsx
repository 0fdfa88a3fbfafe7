import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CategoryGrid } from './CategoryGrid';

/** The home page's category section (loaded lazily with the store, see app/lazy.tsx). */
export default function HomeCategories() {
  const { t } = useTranslation('public');
  return (
    <>
      <CategoryGrid />
      <p className="mt-6">
        <Link to="/categories" className="font-semibold text-blue-800 underline underline-offset-4">
          {t('home.allCategories')}
        </Link>
      </p>
    </>
  );
}
