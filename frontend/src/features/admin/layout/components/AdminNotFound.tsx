import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/PageHeader';

export function AdminNotFound() {
  const { t } = useTranslation('admin');
  return (
    <div className="flex flex-col items-start gap-4">
      <EmptyState title={t('notFound.title')} text={t('notFound.text')} />
      <Link to="/admin/categories" className="btn-primary">
        {t('notFound.back')}
      </Link>
    </div>
  );
}
