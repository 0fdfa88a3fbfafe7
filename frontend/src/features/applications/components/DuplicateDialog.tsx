import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/Modal';

/** "Application already submitted": the family applied for this lot before (public-site §8). */
export function DuplicateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('public');
  return (
    <Modal open={open} onClose={onClose} title={t('duplicate.title')} size="sm" role="alertdialog">
      <p className="text-slate-800">{t('duplicate.text')}</p>
      <p className="mt-2 font-medium text-slate-900">{t('duplicate.noResubmit')}</p>
      <div className="mt-6 flex justify-end">
        <button type="button" className="btn-primary" onClick={onClose}>
          {t('duplicate.understood')}
        </button>
      </div>
    </Modal>
  );
}
