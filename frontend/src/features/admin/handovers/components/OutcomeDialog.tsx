import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { HandoverOutcome } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { Modal } from '../../../../components/Modal';
import { TextAreaField } from '../../../../components/TextField';
import { DialogActions } from '../../ui/DialogActions';
import { ErrorBox } from '../../ui/PageHeader';

/** "erledigt" or "nicht angetroffen" for one stop, with an optional note. */
export function OutcomeDialog({
  outcome,
  name,
  onConfirm,
  onClose,
  unscanned = false,
}: {
  outcome: HandoverOutcome;
  /** a lot's stop whose item was not scanned (issue 45): said before the confirmation */
  unscanned?: boolean;
  /** the family's or donor's name (the dialog's title) */
  name: string;
  /** answers an error text to show, or null when done */
  onConfirm: (note: string | null) => Promise<string | null>;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const failed = await onConfirm(note.trim() || null);
    setBusy(false);
    if (failed) setError(failed);
  };
  return (
    <Modal
      open
      onClose={busy ? () => undefined : onClose}
      title={t(`handovers.plan.confirmTitle.${outcome}`, { name })}
      size="sm"
    >
      <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        <p className="text-slate-800">{t(`handovers.plan.confirmText.${outcome}`)}</p>
        {unscanned && (
          <p className="rounded-lg bg-amber-50 px-3 py-2 text-amber-950">
            {t('handovers.scan.unscanned')}
          </p>
        )}
        <TextAreaField
          label={t('handovers.plan.noteLabel')}
          value={note}
          maxLength={Limits.notesMax}
          onChange={(e) => setNote(e.target.value)}
        />
        {error && <ErrorBox>{error}</ErrorBox>}
        <DialogActions
          onCancel={onClose}
          busy={busy}
          tone={outcome === 'absent' ? 'danger' : 'primary'}
          label={t(`handovers.plan.outcome.${outcome}`)}
        />
      </form>
    </Modal>
  );
}
