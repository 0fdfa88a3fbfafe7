import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/language';
import { localize } from '../../../lib/localized';
import type { PublicCategory } from '../api/catalog-api';
import { CategoryIconView } from '../lib/category-icon';

/** Icon or image, name, optional description, the number of lots; links to the category. */
export function CategoryCard({ category }: { category: PublicCategory }) {
  const { t } = useTranslation('public');
  const lang = useLanguage();
  const name = localize(category.name, lang);
  const description = localize(category.description, lang);
  return (
    <Link
      to={`/categories/${category.id}`}
      className="card group flex h-full gap-4 p-4 transition-shadow hover:shadow-md"
    >
      <span className="flex size-14 shrink-0 items-center justify-center overflow-hidden rounded-xl bg-blue-50 text-blue-800">
        {category.image ? (
          <img src={category.image} alt="" className="size-full object-cover" loading="lazy" />
        ) : (
          <CategoryIconView category={category} />
        )}
      </span>
      <span className="flex min-w-0 flex-col gap-1">
        <span lang={name.lang} className="font-semibold text-slate-900 group-hover:underline">
          {name.text}
        </span>
        {description.text && (
          <span lang={description.lang} className="line-clamp-2 text-sm text-slate-700">
            {description.text}
          </span>
        )}
        <span className="mt-auto text-sm font-medium text-blue-800">
          {category.lotCount > 0
            ? t('categories.lotCount', { count: category.lotCount })
            : t('categories.noLots')}
        </span>
      </span>
    </Link>
  );
}
