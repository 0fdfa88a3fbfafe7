import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckCircle2 } from 'lucide-react';
import { Languages, type Language } from '@furniture/contracts/enums';
import { Modal } from '../../../../components/Modal';
import { SelectField, TextField } from '../../../../components/TextField';
import { useLanguage } from '../../../../lib/language';
import { emailProblem } from '../../session';
import { formatDate } from '../../lib/dates';
import { errorText, serverFieldErrors } from '../../lib/errors';
import { CopyButton } from '../../ui/CopyButton';
import { DialogActions } from '../../ui/DialogActions';
import { ErrorBox } from '../../ui/PageHeader';
import { useInviteReferrerMutation, type Agency } from '../api/partners-api';

/**
 * Invites a social worker of the agency: address and language; the answer's personal link is
 * shown to copy (it went out by e-mail too, in the chosen language).
 */
export function InviteDialog({ agency, onClose }: { agency: Agency; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [email, setEmail] = useState('');
  const [language, setLanguage] = useState<Language>('de');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [invite, inviting] = useInviteReferrerMutation();
  const sent = inviting.data;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const problem = emailProblem(email);
    setError(problem ? t(`validation.${problem}`) : undefined);
    if (problem) return;
    try {
      await invite({ agencyId: agency.id, body: { email: email.trim(), language } }).unwrap();
    } catch (e) {
      setError(serverFieldErrors(e).email);
      setFailure(errorText(e, t('agencies.inviteFailed')));
    }
  };

  return (
    <Modal
      open
      onClose={inviting.isLoading ? () => undefined : onClose}
      title={t('agencies.inviteTitle', { name: agency.name })}
    >
      {sent ? (
        <div className="flex flex-col gap-3">
          <p
            role="status"
            className="flex items-start gap-2 rounded-lg border border-green-300 bg-green-50 p-3 font-medium text-green-900"
          >
            <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
            {t('agencies.invited', { email: email.trim() })}
          </p>
          <p className="text-slate-800">
            {t('agencies.inviteLinkLead', { date: formatDate(sent.expires_at, lang, false) })}
          </p>
          <p
            className="rounded-lg bg-slate-100 p-3 font-mono text-sm break-all text-slate-900"
            data-testid="invite-url"
          >
            {sent.invite_url}
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <CopyButton text={sent.invite_url} label={t('agencies.copyLink')} />
          </div>
          <div className="flex justify-end">
            <button type="button" className="btn-primary" onClick={onClose}>
              {t('agencies.done')}
            </button>
          </div>
        </div>
      ) : (
        <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
          <p className="text-slate-800">{t('agencies.inviteLead')}</p>
          {failure && <ErrorBox>{failure}</ErrorBox>}
          <TextField
            label={t('agencies.inviteEmail')}
            required
            type="email"
            value={email}
            error={error}
            onChange={(e) => {
              setEmail(e.target.value);
              setError(undefined);
            }}
          />
          <SelectField
            label={t('agencies.inviteLanguage')}
            hint={t('agencies.inviteLanguageHint')}
            required
            value={language}
            onChange={(e) => setLanguage(e.target.value as Language)}
          >
            {Languages.map((l) => (
              <option key={l} value={l}>
                {t(`agencies.language.${l}`)}
              </option>
            ))}
          </SelectField>
          <DialogActions
            onCancel={onClose}
            busy={inviting.isLoading}
            label={t('agencies.inviteSend')}
          />
        </form>
      )}
    </Modal>
  );
}
