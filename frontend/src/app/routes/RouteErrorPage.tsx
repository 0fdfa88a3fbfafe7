import { useTranslation } from 'react-i18next';

/**
 * A page whose code failed to load (a new version was deployed, or the connection dropped) or
 * that crashed: offer a reload instead of a blank screen.
 */
export function RouteErrorPage() {
  const { t } = useTranslation('common');
  return (
    <div className="container-page py-16 text-center" role="alert">
      <h1 className="text-2xl font-bold">{t('routeError.title')}</h1>
      <p className="mt-2 text-slate-700">{t('routeError.text')}</p>
      <button type="button" className="btn-primary mt-6" onClick={() => window.location.reload()}>
        {t('actions.reload')}
      </button>
    </div>
  );
}
