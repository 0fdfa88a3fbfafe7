import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { CheckCircle2 } from 'lucide-react';
import { Limits } from '@furniture/contracts/limits';
import { useAppDispatch } from '../../../../app/hooks';
import { TextField } from '../../../../components/TextField';
import { errorText, serverFieldErrors } from '../../lib/errors';
import {
  emailProblem,
  renewSession,
  updateSessionUser,
  useChangePasswordMutation,
  useSession,
  useUpdateProfileMutation,
} from '../../session';
import { ErrorBox, PageHeader } from '../../ui/PageHeader';
import { PasswordStrength } from '../../ui/PasswordStrength';
import { validatePasswordChange, type PasswordErrors } from '../password-form';

/** A success line that goes away after 3 s (back-office §2 Profile, §9). */
function useTimedSuccess(): [string | null, (text: string) => void] {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    if (!text) return;
    const timer = setTimeout(() => setText(null), Limits.profileSuccessMs);
    return () => clearTimeout(timer);
  }, [text]);
  return [text, setText];
}

function Success({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p
      role="status"
      className="flex items-center gap-2 rounded-lg border border-green-300 bg-green-50 p-3 font-medium text-green-900"
    >
      <CheckCircle2 aria-hidden="true" className="size-5" />
      {text}
    </p>
  );
}

function ProfileForm() {
  const { t } = useTranslation('admin');
  const dispatch = useAppDispatch();
  const { user } = useSession();
  const [update, { isLoading }] = useUpdateProfileMutation();
  const [name, setName] = useState(user?.name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [errors, setErrors] = useState<{ name?: string; email?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useTimedSuccess();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (!name.trim()) found.name = t('validation.nameRequired');
    const mailProblem = emailProblem(email);
    if (mailProblem) found.email = t(`validation.${mailProblem}`);
    setErrors(found);
    setFailure(null);
    if (found.name || found.email) return;
    try {
      const saved = await update({ name: name.trim(), email: email.trim() }).unwrap();
      updateSessionUser(dispatch, saved);
      setSuccess(t('profile.saved'));
    } catch (error) {
      const fields = serverFieldErrors(error);
      setErrors({ name: fields.name, email: fields.email });
      setFailure(errorText(error, t('profile.saveFailed')));
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex max-w-xl flex-col gap-4">
      <Success text={success} />
      {failure && <ErrorBox>{failure}</ErrorBox>}
      <TextField
        label={t('profile.name')}
        required
        value={name}
        autoComplete="name"
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
      />
      <TextField
        label={t('profile.email')}
        required
        type="email"
        value={email}
        autoComplete="email"
        onChange={(e) => setEmail(e.target.value)}
        error={errors.email}
      />
      <div>
        <button type="submit" className="btn-primary" disabled={isLoading}>
          {t('profile.save')}
        </button>
      </div>
    </form>
  );
}

function PasswordForm() {
  const { t } = useTranslation('admin');
  const { user } = useSession();
  const dispatch = useAppDispatch();
  const [change, { isLoading }] = useChangePasswordMutation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useTimedSuccess();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validatePasswordChange(current, next, confirm);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    try {
      const answer = await change({ current_password: current, new_password: next }).unwrap();
      // the change ended every other session; this device goes on with the fresh token
      renewSession(dispatch, answer, true);
      setCurrent('');
      setNext('');
      setConfirm('');
      setSuccess(t('password.changed'));
    } catch (error) {
      setFailure(errorText(error, t('password.changeFailed')));
    }
  };

  const text = (key: PasswordErrors[keyof PasswordErrors]) =>
    key ? t(`validation.${key}`) : undefined;

  return (
    <form onSubmit={onSubmit} noValidate className="flex max-w-xl flex-col gap-4">
      <Success text={success} />
      {failure && <ErrorBox>{failure}</ErrorBox>}
      <TextField
        label={t('password.current')}
        required
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
        error={text(errors.current)}
      />
      <div>
        <TextField
          label={t('password.new')}
          required
          type="password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          error={text(errors.next)}
          hint={t('password.hint')}
        />
        <PasswordStrength password={next} userInputs={[user?.name ?? '', user?.email ?? '']} />
      </div>
      <TextField
        label={t('password.confirm')}
        required
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        error={text(errors.confirm)}
      />
      <div>
        <button type="submit" className="btn-primary" disabled={isLoading}>
          {t('password.submit')}
        </button>
      </div>
    </form>
  );
}

/** /admin/profile: two tabs, the profile and the password (back-office §2). */
export default function ProfilePage() {
  const { t } = useTranslation('admin');
  const location = useLocation();
  const mustChange =
    (location.state as { mustChangePassword?: boolean } | null)?.mustChangePassword === true;
  const tab = ({ selected }: { selected: boolean }) =>
    `min-h-11 rounded-t-lg border-b-2 px-4 font-semibold ${
      selected
        ? 'border-blue-800 text-blue-900'
        : 'border-transparent text-slate-700 hover:text-slate-900'
    }`;
  return (
    <div>
      <PageHeader title={t('profile.title')} />
      {mustChange && (
        <p role="status" className="mb-4 rounded-lg border border-amber-300 bg-amber-50 p-3">
          {t('profile.mustChangePassword')}
        </p>
      )}
      <TabGroup className="card p-4 sm:p-6" defaultIndex={mustChange ? 1 : 0}>
        <TabList className="mb-5 flex gap-2 border-b border-slate-200">
          <Tab className={tab}>{t('profile.tabProfile')}</Tab>
          <Tab className={tab}>{t('profile.tabPassword')}</Tab>
        </TabList>
        <TabPanels>
          <TabPanel>
            <ProfileForm />
          </TabPanel>
          <TabPanel>
            <PasswordForm />
          </TabPanel>
        </TabPanels>
      </TabGroup>
    </div>
  );
}
