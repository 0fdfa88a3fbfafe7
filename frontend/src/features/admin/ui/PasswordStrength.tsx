import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Limits } from '@furniture/contracts/limits';
import { loadPasswordCheck, type PasswordCheck } from '../lib/password-check';

const STEPS = [1, 2, 3, 4];

/**
 * Under a new password: what the server will decide, by the same policy (at least
 * Limits.newPasswordMin characters and zxcvbn's estimate with the user's name and e-mail as
 * known words), and why a password would be refused. The bar is zxcvbn's score of 4.
 */
export function PasswordStrength({
  password,
  userInputs = [],
}: {
  password: string;
  /** the user's name and e-mail: a password made of them is refused */
  userInputs?: readonly string[];
}) {
  const { t } = useTranslation('admin');
  const [check, setCheck] = useState<PasswordCheck | null>(null);
  const [failed, setFailed] = useState(false);
  const wanted = password !== '' && check === null;
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    loadPasswordCheck().then(
      (loaded) => live && setCheck(() => loaded),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [wanted]);
  if (!password) return null;
  if (!check) {
    return (
      <p className="mt-1 text-sm text-slate-700" aria-live="polite">
        {failed ? t('password.checkUnavailable') : t('password.checking')}
      </p>
    );
  }
  const verdict = check(password, userInputs.filter(Boolean));
  const color = verdict.ok ? 'bg-green-600' : 'bg-red-600';
  return (
    <div className="mt-2" aria-live="polite">
      <div className="flex gap-1" aria-hidden="true">
        {STEPS.map((step) => (
          <span
            key={step}
            className={`h-1.5 flex-1 rounded-full ${step <= verdict.score ? color : 'bg-slate-200'}`}
          />
        ))}
      </div>
      <p className="mt-1 text-sm text-slate-700">
        {verdict.ok ? t('password.accepted') : t('password.refused')}
      </p>
      {!verdict.ok && (
        <ul className="mt-1 list-disc ps-5 text-sm text-red-800">
          {verdict.problems.map((p) => (
            <li key={p}>
              {t(`password.problem.${p}`, {
                length: password.length,
                min: Limits.newPasswordMin,
              })}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
