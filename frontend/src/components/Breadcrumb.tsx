import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ChevronRight } from 'lucide-react';

export interface Crumb {
  label: string;
  to?: string;
  lang?: string;
}

/** Home > … > current page; the last crumb is the current page. */
export function Breadcrumb({ items }: { items: Crumb[] }) {
  const { t } = useTranslation('common');
  return (
    <nav aria-label={t('nav.breadcrumb')} className="text-sm">
      <ol className="flex flex-wrap items-center gap-1 text-slate-700">
        {items.map((item, i) => {
          const last = i === items.length - 1;
          return (
            <li key={`${i}-${item.label}`} className="flex items-center gap-1">
              {item.to && !last ? (
                <Link
                  to={item.to}
                  lang={item.lang}
                  className="rounded-sm text-blue-800 underline-offset-4 hover:underline"
                >
                  {item.label}
                </Link>
              ) : (
                <span
                  lang={item.lang}
                  aria-current={last ? 'page' : undefined}
                  className="font-medium text-slate-900"
                >
                  {item.label}
                </span>
              )}
              {!last && <ChevronRight aria-hidden="true" className="size-4 text-slate-500" />}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
