import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LinkIcon } from 'lucide-react';

/** An unknown or ended link: a kind page that says nothing about any family. */
export function LinkInvalid() {
  const { t } = useTranslation('handover');
  return (
    <div className="container-page py-8">
      <title>{`${t('invalid.title')} – ${t('common:app.name')}`}</title>
      <div className="card mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-10 text-center">
        <LinkIcon aria-hidden="true" className="size-10 text-slate-500" />
        <h1 className="text-2xl font-bold text-slate-900">{t('invalid.title')}</h1>
        <p className="text-slate-700">{t('invalid.text')}</p>
        <Link to="/" className="btn-primary">
          {t('common:notFound.home')}
        </Link>
      </div>
    </div>
  );
}
