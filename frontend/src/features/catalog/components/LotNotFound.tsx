import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PackageX, RotateCcw } from 'lucide-react';

/** A lot that is missing or could not be loaded; Retry when it was the connection. */
export function LotNotFound({ onRetry }: { onRetry?: () => void }) {
  const { t } = useTranslation('public');
  return (
    <div className="container-page py-12">
      <title>{`${t('lot.notFoundTitle')} – ${t('common:app.name')}`}</title>
      <div className="card mx-auto max-w-xl px-4 py-10 text-center">
        <PackageX aria-hidden="true" className="mx-auto size-12 text-slate-500" />
        <h1 className="mt-4 text-2xl font-bold">{t('lot.notFoundTitle')}</h1>
        <p className="mt-2 text-slate-700">{t('lot.notFoundText')}</p>
        <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to="/categories" className="btn-primary justify-center">
            {t('lot.backToCategories')}
          </Link>
          {onRetry && (
            <button type="button" className="btn-secondary justify-center" onClick={onRetry}>
              <RotateCcw aria-hidden="true" className="size-4" />
              {t('common:actions.retry')}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
