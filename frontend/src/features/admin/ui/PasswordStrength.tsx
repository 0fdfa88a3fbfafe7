import { useTranslation } from 'react-i18next';
import { passwordStrength } from '../lib/password-strength';

const COLORS = { weak: 'bg-red-600', medium: 'bg-amber-500', strong: 'bg-green-600' };

/** The strength bar and label under a new password (back-office §5). */
export function PasswordStrength({ password }: { password: string }) {
  const { t } = useTranslation('admin');
  if (!password) return null;
  const { score, label } = passwordStrength(password);
  return (
    <div className="mt-2" aria-live="polite">
      <div className="flex gap-1" aria-hidden="true">
        {[1, 2, 3, 4, 5].map((step) => (
          <span
            key={step}
            className={`h-1.5 flex-1 rounded-full ${step <= score ? COLORS[label] : 'bg-slate-200'}`}
          />
        ))}
      </div>
      <p className="mt-1 text-sm text-slate-700">
        {t('password.strength', { label: t(`password.${label}`), score })}
      </p>
    </div>
  );
}
