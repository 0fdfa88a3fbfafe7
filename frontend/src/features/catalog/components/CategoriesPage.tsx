import { useTranslation } from 'react-i18next';
import { Breadcrumb } from '../../../components/Breadcrumb';
import { CategoryGrid } from './CategoryGrid';

/** /categories */
export default function CategoriesPage() {
  const { t } = useTranslation('public');
  return (
    <div className="container-page py-6 sm:py-8">
      <title>{`${t('categories.title')} – ${t('common:app.name')}`}</title>
      <Breadcrumb
        items={[{ label: t('common:nav.home'), to: '/' }, { label: t('categories.title') }]}
      />
      <h1 className="mt-4 text-2xl font-bold sm:text-3xl">{t('categories.title')}</h1>
      <p className="mt-2 max-w-2xl text-slate-700">{t('categories.lead')}</p>
      <div className="mt-6">
        <CategoryGrid />
      </div>
    </div>
  );
}
