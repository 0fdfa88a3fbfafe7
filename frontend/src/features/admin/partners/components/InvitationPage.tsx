import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CheckCircle2, LinkIcon, LogIn, UserCheck } from 'lucide-react';
import { Limits } from '@furniture/contracts/limits';
import { LanguageSwitch } from '../../../../app/layout/LanguageSwitch';
import { TextField } from '../../../../components/TextField';
import { apiErrorOf, errorText, serverFieldErrors } from '../../lib/errors';
import { ErrorBox } from '../../ui/PageHeader';
import { PasswordStrength } from '../../ui/PasswordStrength';
import { useAcceptInvitationMutation } from '../api/partners-api';

type Field = 'name' | 'password' | 'confirm';

/** The acceptance form's rules: a name; a new password (as everywhere) typed twice. */
export function validateInvitation(values: Record<Field, string>): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  if (!values.name.trim()) errors.name = 'nameRequired';
  if (!values.password) errors.password = 'passwordRequired';
  else if (values.password.length < Limits.newPasswordMin) errors.password = 'newPasswordTooShort';
  if (values.password && values.confirm !== values.password) errors.confirm = 'passwordMismatch';
  return errors;
}

function Frame({ children }: { children: ReactNode }) {
  const { t } = useTranslation('admin');
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-100 px-4 py-10">
      <title>{`${t('invitation.title')} – Möbelbrücke`}</title>
      <div className="w-full max-w-md">
        <div className="mb-4 flex justify-end">
          <LanguageSwitch />
        </div>
        <div className="card flex flex-col gap-4 p-6">
          <p className="text-sm font-semibold tracking-wide text-blue-800 uppercase">Möbelbrücke</p>
          {children}
        </div>
      </div>
    </main>
  );
}

/**
 * /admin/invitation/:token (issue 44): the link of the invitation mail. The invited social worker
 * chooses name and password and becomes a referrer of the agency, then logs in. An unknown, used
 * or expired link says so (the API answers 404 and nothing else).
 */
export default function InvitationPage() {
  const { t } = useTranslation('admin');
  const { token = '' } = useParams();
  const [values, setValues] = useState<Record<Field, string>>({
    name: '',
    password: '',
    confirm: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [state, setState] = useState<'form' | 'done' | 'unknown'>('form');
  const [accept, accepting] = useAcceptInvitationMutation();

  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = validateInvitation(values);
    setErrors(Object.fromEntries(Object.entries(found).map(([k, v]) => [k, t(`validation.${v}`)])));
    if (Object.keys(found).length > 0) return;
    try {
      await accept({
        token,
        body: { name: values.name.trim(), password: values.password },
      }).unwrap();
      setState('done');
    } catch (error) {
      if (apiErrorOf(error)?.status === 404) {
        setState('unknown');
        return;
      }
      setErrors(serverFieldErrors(error));
      setFailure(errorText(error, t('invitation.failed')));
    }
  };

  if (state === 'unknown') {
    return (
      <Frame>
        <h1 className="flex items-center gap-2 text-2xl font-bold text-slate-900">
          <LinkIcon aria-hidden="true" className="size-6 shrink-0" />
          {t('invitation.unknownTitle')}
        </h1>
        <p role="alert" className="text-slate-800">
          {t('invitation.unknownText')}
        </p>
        <Link to="/admin/login" className="btn-secondary justify-center">
          <LogIn aria-hidden="true" className="size-5" />
          {t('invitation.toLogin')}
        </Link>
      </Frame>
    );
  }

  if (state === 'done') {
    return (
      <Frame>
        <h1 className="text-2xl font-bold text-slate-900">{t('invitation.doneTitle')}</h1>
        <p
          role="status"
          className="flex items-start gap-2 rounded-lg border border-green-300 bg-green-50 p-3 font-medium text-green-900"
        >
          <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          {t('invitation.doneText')}
        </p>
        <Link to="/admin/login" className="btn-primary justify-center">
          <LogIn aria-hidden="true" className="size-5" />
          {t('invitation.toLogin')}
        </Link>
      </Frame>
    );
  }

  return (
    <Frame>
      <div>
        <h1 className="text-2xl font-bold text-slate-900">{t('invitation.title')}</h1>
        <p className="mt-1 text-slate-700">{t('invitation.lead')}</p>
      </div>
      <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        {failure && <ErrorBox>{failure}</ErrorBox>}
        <TextField
          label={t('invitation.name')}
          required
          autoComplete="name"
          maxLength={Limits.nameMax}
          value={values.name}
          error={errors.name}
          onChange={(e) => set('name')(e.target.value)}
        />
        <div>
          <TextField
            label={t('invitation.password')}
            hint={t('password.hint')}
            required
            type="password"
            autoComplete="new-password"
            value={values.password}
            error={errors.password}
            onChange={(e) => set('password')(e.target.value)}
          />
          <PasswordStrength password={values.password} userInputs={[values.name]} />
        </div>
        <TextField
          label={t('invitation.confirm')}
          required
          type="password"
          autoComplete="new-password"
          value={values.confirm}
          error={errors.confirm}
          onChange={(e) => set('confirm')(e.target.value)}
        />
        <button type="submit" className="btn-primary justify-center" disabled={accepting.isLoading}>
          <UserCheck aria-hidden="true" className="size-5" />
          {t('invitation.submit')}
        </button>
      </form>
    </Frame>
  );
}
