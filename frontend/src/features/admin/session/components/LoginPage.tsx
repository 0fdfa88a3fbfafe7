import { useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, LogIn } from 'lucide-react';
import { api } from '../../../../app/api';
import { useAppDispatch } from '../../../../app/hooks';
import { LanguageSwitch } from '../../../../app/layout/LanguageSwitch';
import { TextField } from '../../../../components/TextField';
import { ErrorBox } from '../../ui/PageHeader';
import { errorText } from '../../lib/errors';
import { useLoginMutation } from '../api/auth-api';
import { startSession } from '../session-slice';
import { useSession } from '../use-session';
import { validateLogin, type LoginErrors } from '../login-form';
import type { LoginLocationState } from './RequireAuth';

/** Where to go after login: the remembered page, or the back-office's start. */
function targetOf(state: unknown): string {
  const from = (state as LoginLocationState | null)?.from;
  if (!from?.pathname?.startsWith('/admin') || from.pathname.startsWith('/admin/login')) {
    return '/admin';
  }
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

/** /admin/login (back-office §2, public-site §5). */
export default function LoginPage() {
  const { t } = useTranslation('admin');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const session = useSession();
  const [login, { isLoading }] = useLoginMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<LoginErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  // the seeded administrator sets an own password before anything else
  const [mustChange, setMustChange] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  if (session.isAuthenticated)
    return mustChange ? (
      <Navigate to="/admin/profile" state={{ mustChangePassword: true }} replace />
    ) : (
      <Navigate to={targetOf(location.state)} replace />
    );

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateLogin(email, password);
    setErrors(found);
    setFailure(null);
    if (found.email) return emailRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();
    try {
      const answer = await login({ email: email.trim(), password }).unwrap();
      // nothing the previous user loaded may show up for this one
      dispatch(api.util.resetApiState());
      if (answer.must_change_password) {
        setMustChange(true);
        startSession(dispatch, answer);
        return;
      }
      startSession(dispatch, answer);
      void navigate(targetOf(location.state), { replace: true });
    } catch (error) {
      setFailure(
        error instanceof Error ? t('login.profileFailed') : errorText(error, t('login.failed')),
      );
    }
  };

  const ended = session.endedReason;

  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-100 px-4 py-10">
      <title>{`${t('login.title')} – Möbelbrücke Admin`}</title>
      <div className="w-full max-w-md">
        <div className="mb-4 flex items-center justify-between">
          <Link
            to="/"
            className="inline-flex items-center gap-1 font-medium text-blue-800 hover:underline"
          >
            <ArrowLeft aria-hidden="true" className="size-4" />
            {t('login.backToSite')}
          </Link>
          <LanguageSwitch />
        </div>
        <form onSubmit={onSubmit} noValidate className="card flex flex-col gap-4 p-6">
          <div>
            <p className="text-sm font-semibold tracking-wide text-blue-800 uppercase">
              Möbelbrücke
            </p>
            <h1 className="text-2xl font-bold text-slate-900">{t('login.title')}</h1>
            <p className="mt-1 text-slate-700">{t('login.lead')}</p>
          </div>
          {ended && !failure && (
            <div
              role="status"
              className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950"
            >
              {t(`session.${ended}`)}
            </div>
          )}
          {failure && <ErrorBox>{failure}</ErrorBox>}
          <TextField
            ref={emailRef}
            label={t('login.email')}
            required
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setErrors((x) => ({ ...x, email: undefined }));
            }}
            error={errors.email ? t(`validation.${errors.email}`) : undefined}
          />
          <TextField
            ref={passwordRef}
            label={t('login.password')}
            required
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setErrors((x) => ({ ...x, password: undefined }));
            }}
            error={errors.password ? t(`validation.${errors.password}`) : undefined}
          />
          <button type="submit" className="btn-primary justify-center" disabled={isLoading}>
            <LogIn aria-hidden="true" className="size-5" />
            {isLoading ? t('login.submitting') : t('login.submit')}
          </button>
        </form>
      </div>
    </main>
  );
}
