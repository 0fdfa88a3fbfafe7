import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DonationStatus } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { Modal } from '../../../../components/Modal';
import { errorText } from '../../lib/errors';
import { useFamilyT } from '../../lib/family-language';
import { DialogActions } from '../../ui/DialogActions';
import { ErrorBox } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import { useUpdateDonationStatusMutation, type Donation } from '../api/donations-api';
import { DECLINE_REASONS } from '../lib/donation-rules';

function TextBox({
  id,
  label,
  value,
  onChange,
  problem,
  hint,
  lang,
  rows = 3,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem?: string | null;
  hint?: string;
  /** the language the text is written in (the donor's, for the reason) */
  lang?: string;
  rows?: number;
}) {
  const { t } = useTranslation('admin');
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="field-hint mb-1">
          {hint}
        </p>
      )}
      <textarea
        id={id}
        className="field-input min-h-20"
        rows={rows}
        lang={lang}
        maxLength={Limits.notesMax}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={[hint ? `${id}-hint` : '', problem ? `${id}-problem` : '', `${id}-count`]
          .filter(Boolean)
          .join(' ')}
        onChange={(e) => onChange(e.target.value)}
      />
      <div className="mt-1 flex justify-between gap-2 text-sm">
        <span id={`${id}-problem`} className="font-medium text-red-800">
          {problem}
        </span>
        <span id={`${id}-count`} className="text-slate-600">
          {t('donations.counter', { n: value.length, max: Limits.notesMax })}
        </span>
      </div>
    </div>
  );
}

/**
 * Accept, decline, collected, cancelled (DonationTransitions). A decline needs the reason the
 * donor is told, in their language: the templates fill it in that language, to be edited; every
 * change may carry an internal note.
 */
export function DonationStatusDialog({
  donation,
  status,
  onClose,
}: {
  donation: Donation;
  status: DonationStatus;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const donorT = useFamilyT(donation.language);
  const toast = useToast();
  const [update, { isLoading }] = useUpdateDonationStatusMutation();
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const declining = status === 'declined';
  // a decline must say why; a cancelled pickup may (the donor is told either)
  const withReason = declining || status === 'cancelled';

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (isLoading) return;
    if (declining && !reason.trim()) {
      setProblem(t('donations.reasonRequired'));
      document.getElementById('donation-reason')?.focus();
      return;
    }
    setFailure(null);
    try {
      await update({
        id: donation.id,
        status,
        ...(note.trim() ? { note: note.trim() } : {}),
        ...(withReason && reason.trim() ? { reason: reason.trim() } : {}),
      }).unwrap();
      toast('success', t('donations.statusChanged', { status: t(`donationStatus.${status}`) }));
      onClose();
    } catch (error) {
      setFailure(errorText(error, t('donations.statusFailed')));
    }
  };

  return (
    <Modal
      open
      onClose={isLoading ? () => undefined : onClose}
      title={t(`donations.actionTitle.${status}`, { id: donation.id })}
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <p className="text-slate-800">{t(`donations.actionText.${status}`)}</p>
        {failure && <ErrorBox>{failure}</ErrorBox>}
        {withReason && (
          <>
            {declining && (
              <fieldset>
                <legend className="field-label">{t('donations.reasonTemplates')}</legend>
                <div className="flex flex-wrap gap-2">
                  {DECLINE_REASONS.map((key) => (
                    <button
                      key={key}
                      type="button"
                      className="btn-secondary min-h-10"
                      onClick={() => {
                        setReason(donorT(`donations.reasons.${key}.text`));
                        setProblem(null);
                      }}
                    >
                      {t(`donations.reasons.${key}.label`)}
                    </button>
                  ))}
                </div>
              </fieldset>
            )}
            <TextBox
              id="donation-reason"
              label={declining ? t('donations.reasonLabel') : t('donations.reasonOptionalLabel')}
              hint={t('donations.reasonHint', {
                language: t(`donations.language.${donation.language}`),
              })}
              value={reason}
              problem={problem}
              lang={donation.language}
              rows={4}
              onChange={(value) => {
                setReason(value);
                setProblem(null);
              }}
            />
          </>
        )}
        <TextBox
          id="donation-note"
          label={t('donations.noteLabel')}
          value={note}
          onChange={setNote}
        />
        <DialogActions
          onCancel={onClose}
          busy={isLoading}
          tone={declining || status === 'cancelled' ? 'danger' : 'strong'}
          label={t(`donations.actions.${status}`)}
        />
      </form>
    </Modal>
  );
}
