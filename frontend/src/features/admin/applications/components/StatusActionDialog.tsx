import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApplicationStatus } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { DateInput } from '../../../../components/DateInput';
import { Modal } from '../../../../components/Modal';
import { dayFromToday } from '../../lib/dates';
import { errorText } from '../../lib/errors';
import { DialogActions } from '../../ui/DialogActions';
import { ErrorBox } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import { useUpdateApplicationStatusMutation, type Application } from '../api/applications-api';
import { NoteField } from './NoteField';

/** The staff actions of back-office §4 and the status each leads to. */
export const ACTIONS = {
  approve: 'approved',
  reject: 'rejected',
  complete: 'completed',
  cancel_reservation: 'pending',
  reconsider: 'pending',
} as const satisfies Record<string, ApplicationStatus>;
export type StatusAction = keyof typeof ACTIONS;

/** The pickup date an approval proposes (the server's default, PICKUP_DAYS, is the same). */
export const DEFAULT_PICKUP_DAYS = 7;

/**
 * Confirms an action, with the note it needs: required to reject, optional otherwise. An
 * approval also carries the last day to pick the lot up (issue 19), a week ahead unless changed.
 */
export function StatusActionDialog({
  application,
  action,
  onClose,
}: {
  application: Application;
  action: StatusAction;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const [update, { isLoading }] = useUpdateApplicationStatusMutation();
  const [note, setNote] = useState('');
  const [pickupBy, setPickupBy] = useState(() => dayFromToday(DEFAULT_PICKUP_DAYS));
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const required = action === 'reject';

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (isLoading) return;
    const comment = note.trim();
    if (required && !comment) return setProblem(t('validation.noteRequired'));
    if (comment.length > Limits.notesMax) return setProblem(t('validation.noteTooLong'));
    if (action === 'approve' && pickupBy && pickupBy < dayFromToday(0))
      return setProblem(t('applications.pickup.inPast'));
    setProblem(null);
    setFailure(null);
    const status = ACTIONS[action];
    try {
      const answer = await update({
        id: application.id,
        status,
        note: comment || null,
        pickupBy: action === 'approve' ? pickupBy || null : null,
      }).unwrap();
      toast(
        'success',
        answer.approval?.state === 'requested'
          ? t('applications.approvalRequestedToast')
          : t('applications.statusChanged', { status: t(`applicationStatus.${status}`) }),
      );
      onClose();
    } catch (error) {
      setFailure(
        `${t('applications.statusFailed')}: ${errorText(error, t(`applications.actionFailed.${action}`))}`,
      );
    }
  };

  return (
    <Modal
      open
      onClose={isLoading ? () => undefined : onClose}
      title={t(`applications.actionTitle.${action}`, { name: application.applicant_name })}
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <p className="text-slate-800">{t(`applications.actionText.${action}`)}</p>
        {failure && <ErrorBox>{failure}</ErrorBox>}
        {action === 'approve' && (
          <DateInput
            label={t('applications.pickup.dateLabel')}
            hint={t('applications.pickup.dateHint')}
            min={dayFromToday(0)}
            value={pickupBy}
            onChange={(value) => {
              setPickupBy(value);
              setProblem(null);
            }}
          />
        )}
        <NoteField
          id="status-note"
          value={note}
          required={required}
          problem={problem}
          onChange={(value) => {
            setNote(value);
            setProblem(null);
          }}
        />
        <DialogActions
          onCancel={onClose}
          busy={isLoading}
          tone={action === 'reject' ? 'danger' : 'strong'}
          label={t(`applications.actions.${action}`)}
        />
      </form>
    </Modal>
  );
}
