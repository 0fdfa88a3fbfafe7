import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

/** Any address the site does not know. */
export function NotFoundPage() {
  const { t } = useTranslation('common');
  return (
    <div className="container-page py-16 text-center">
      <p className="text-5xl font-bold text-blue-900" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-2xl font-bold">{t('notFound.title')}</h1>
      <p className="mt-2 text-slate-700">{t('notFound.text')}</p>
      <Link to="/" className="btn-primary mt-6">
        {t('notFound.home')}
      </Link>
    </div>
  );
}

export default NotFoundPage;
