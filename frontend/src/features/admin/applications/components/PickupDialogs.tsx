import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Limits } from '@furniture/contracts/limits';
import { DateInput } from '../../../../components/DateInput';
import { Modal } from '../../../../components/Modal';
import { useLanguage } from '../../../../lib/language';
import { dayFromToday, formatDay } from '../../lib/dates';
import { errorText } from '../../lib/errors';
import { DialogActions } from '../../ui/DialogActions';
import { ErrorBox } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import {
  useChangePickupMutation,
  useLapseApplicationMutation,
  type Application,
} from '../api/applications-api';
import { NoteField } from './NoteField';
import { DEFAULT_PICKUP_DAYS } from './StatusActionDialog';

export type PickupAction = 'extend' | 'lapse';

/**
 * The two answers to a pickup date (issue 19): a new date (the family is mailed), or letting the
 * reservation lapse: the application ends, the lot is free and the next family is offered it.
 */
export function PickupDialog({
  application,
  action,
  onClose,
}: {
  application: Application;
  action: PickupAction;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const toast = useToast();
  const [extend, extending] = useChangePickupMutation();
  const [lapse, lapsing] = useLapseApplicationMutation();
  const busy = extending.isLoading || lapsing.isLoading;
  const [note, setNote] = useState('');
  const [day, setDay] = useState(() => {
    const proposed = dayFromToday(DEFAULT_PICKUP_DAYS);
    return application.pickup_by && application.pickup_by > proposed
      ? application.pickup_by
      : proposed;
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const comment = note.trim();
    if (comment.length > Limits.notesMax) return setProblem(t('validation.noteTooLong'));
    if (action === 'extend' && (!day || day < dayFromToday(0)))
      return setProblem(t('applications.pickup.inPast'));
    setProblem(null);
    setFailure(null);
    try {
      if (action === 'extend') {
        await extend({ id: application.id, pickupBy: day, note: comment || null }).unwrap();
        toast('success', t('applications.pickup.extended', { date: formatDay(day, lang) }));
      } else {
        await lapse({ id: application.id, note: comment || null }).unwrap();
        toast('success', t('applications.pickup.lapsed'));
      }
      onClose();
    } catch (error) {
      setFailure(errorText(error, t(`applications.pickup.${action}Failed`)));
    }
  };

  return (
    <Modal
      open
      onClose={busy ? () => undefined : onClose}
      title={t(`applications.pickup.${action}Title`, { name: application.applicant_name })}
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <p className="text-slate-800">
          {t(`applications.pickup.${action}Text`, {
            date: formatDay(application.pickup_by, lang),
          })}
        </p>
        {failure && <ErrorBox>{failure}</ErrorBox>}
        {action === 'extend' && (
          <DateInput
            label={t('applications.pickup.dateLabel')}
            min={dayFromToday(0)}
            value={day}
            required
            onChange={(value) => {
              setDay(value);
              setProblem(null);
            }}
          />
        )}
        <NoteField
          id="pickup-note"
          rows={2}
          value={note}
          problem={problem}
          onChange={(value) => {
            setNote(value);
            setProblem(null);
          }}
        />
        <DialogActions
          onCancel={onClose}
          busy={busy}
          tone={action === 'lapse' ? 'danger' : 'strong'}
          label={t(`applications.pickup.${action}`)}
        />
      </form>
    </Modal>
  );
}
