import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowRight } from 'lucide-react';
import type { WishStatus } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { Modal } from '../../../../components/Modal';
import { errorText } from '../../lib/errors';
import { DialogActions } from '../../ui/DialogActions';
import { ErrorBox } from '../../ui/PageHeader';
import { WishStatusBadge } from '../../ui/StatusBadges';
import { useToast } from '../../ui/Toasts';
import { useUpdateWishStatusMutation, type Wish } from '../api/wishes-api';
import { allowedNextStatuses, canSaveWish } from '../lib/wish-rules';

/** Status dialog of back-office §2 Wish detail. */
export function WishStatusDialog({ wish, onClose }: { wish: Wish; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const [update, { isLoading }] = useUpdateWishStatusMutation();
  const [chosen, setChosen] = useState<WishStatus>(wish.status);
  const [notes, setNotes] = useState(wish.admin_notes ?? '');
  const [failure, setFailure] = useState<string | null>(null);
  const next = allowedNextStatuses(wish.status);
  const changed = canSaveWish({
    current: wish.status,
    chosen,
    notes,
    savedNotes: wish.admin_notes,
  });

  const onSave = async () => {
    if (!changed) return onClose();
    setFailure(null);
    try {
      await update({ id: wish.id, status: chosen, adminNotes: notes.trim() }).unwrap();
      toast('success', t('wishes.saved'));
      onClose();
    } catch (error) {
      setFailure(errorText(error, t('wishes.updateFailed')));
    }
  };

  return (
    <Modal
      open
      onClose={isLoading ? () => undefined : onClose}
      title={t('wishes.statusTitle', { id: wish.id })}
    >
      <div className="flex flex-col gap-4">
        <p className="flex items-center gap-2 text-slate-800">
          {t('wishes.currentStatus')} <WishStatusBadge status={wish.status} />
        </p>
        {failure && <ErrorBox>{failure}</ErrorBox>}
        {next.length === 0 ? (
          <p className="rounded-lg bg-slate-100 p-3 text-slate-800">{t('wishes.finalStatus')}</p>
        ) : (
          <fieldset>
            <legend className="field-label">{t('wishes.newStatus')}</legend>
            <div className="flex flex-wrap gap-2">
              {next.map((status) => (
                <button
                  key={status}
                  type="button"
                  aria-pressed={chosen === status}
                  onClick={() => setChosen(chosen === status ? wish.status : status)}
                  className={`btn min-h-10 border ${
                    chosen === status
                      ? 'border-blue-800 bg-blue-800 text-white'
                      : 'border-slate-300 bg-white text-slate-900 hover:bg-slate-100'
                  }`}
                >
                  {t(`wishStatus.${status}`)}
                </button>
              ))}
            </div>
          </fieldset>
        )}
        <div>
          <label htmlFor="wish-notes" className="field-label">
            {t('wishes.adminNotes')}{' '}
            <span className="font-normal text-slate-600">({t('wishes.optional')})</span>
          </label>
          <textarea
            id="wish-notes"
            className="field-input"
            rows={4}
            maxLength={Limits.notesMax}
            value={notes}
            disabled={wish.status === 'fulfilled'}
            onChange={(e) => setNotes(e.target.value)}
          />
        </div>
        {chosen !== wish.status && (
          <p
            className="flex flex-wrap items-center gap-1 rounded-lg bg-blue-50 p-3 text-blue-950"
            aria-live="polite"
          >
            {t('wishes.preview')} <strong>{t(`wishStatus.${wish.status}`)}</strong>
            <ArrowRight aria-hidden="true" className="size-4" />
            <span className="sr-only">→</span>
            <strong>{t(`wishStatus.${chosen}`)}</strong>
          </p>
        )}
        <DialogActions
          onCancel={onClose}
          onConfirm={() => void onSave()}
          busy={isLoading}
          disabled={!changed}
          label={t('ui.save')}
        />
      </div>
    </Modal>
  );
}
