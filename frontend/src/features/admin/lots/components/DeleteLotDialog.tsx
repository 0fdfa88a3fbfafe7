import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorOf } from '../../lib/errors';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useToast } from '../../ui/Toasts';
import { useDeleteLotMutation, type AdminLot } from '../api/lots-api';

/** 'Keine Berechtigung …' when the refusal is about credentials, else the general text (§8). */
function deleteErrorKey(error: unknown): string {
  const api = apiErrorOf(error);
  const text = `${api?.message ?? ''} ${api?.code ?? ''}`.toLowerCase();
  if (api?.status === 401 || api?.status === 403 || /credential|unauthori[sz]ed|401/.test(text)) {
    return 'lots.deleteForbidden';
  }
  return 'lots.deleteFailed';
}

/** Delete with a confirmation that says it cannot be undone (back-office §2 Lots list). */
export function DeleteLotDialog({
  lot,
  onClose,
  onDeleted,
}: {
  lot: AdminLot | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const [remove, removal] = useDeleteLotMutation();
  const [error, setError] = useState<string | null>(null);

  const onConfirm = async () => {
    if (!lot) return;
    setError(null);
    try {
      await remove(lot.id).unwrap();
      toast('success', t('lots.deleted', { name: lot.name.de }));
      onClose();
      onDeleted?.();
    } catch (e) {
      setError(t(deleteErrorKey(e)));
    }
  };

  return (
    <ConfirmDialog
      open={lot !== null}
      title={t('lots.deleteTitle')}
      confirmLabel={t('ui.delete')}
      onConfirm={() => void onConfirm()}
      onClose={() => {
        setError(null);
        onClose();
      }}
      busy={removal.isLoading}
      error={error}
    >
      {t('lots.deleteText', { name: lot?.name.de ?? '', id: lot?.id ?? '' })}
    </ConfirmDialog>
  );
}
