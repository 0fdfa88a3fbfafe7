import { useTranslation } from 'react-i18next';
import { Smartphone, X } from 'lucide-react';
import { forgetPhone, maskPhone, useDevicePhone } from '../lib/applicant-memory';

/** "Remember my number on this device" (off unless the family chose it before). */
export function RememberCheckbox({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const { t } = useTranslation('public');
  return (
    <label className="flex items-start gap-3 rounded-lg border border-slate-300 p-3">
      <input
        type="checkbox"
        name="rememberPhone"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="mt-1 size-5 shrink-0 accent-blue-800"
      />
      <span>
        <span className="font-medium">{t('remember.label')}</span>
        <span className="block text-sm text-slate-700">{t('remember.hint')}</span>
      </span>
    </label>
  );
}

/**
 * Which number this device remembers, and the "forget" control; nothing when it remembers none.
 */
export function RememberedPhoneNotice({
  className = '',
  onForget,
}: {
  className?: string;
  /** after forgetting (a form clears what it filled in) */
  onForget?: () => void;
}) {
  const { t } = useTranslation('public');
  const phone = useDevicePhone();
  if (!phone) return null;
  return (
    <div
      className={`flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-slate-300 bg-white p-3 text-sm text-slate-800 ${className}`}
    >
      <Smartphone aria-hidden="true" className="size-4 shrink-0 text-slate-600" />
      <span>{t('remember.saved', { phone: maskPhone(phone) })}</span>
      <button
        type="button"
        className="inline-flex items-center gap-1 font-medium text-blue-800 underline underline-offset-4"
        onClick={() => {
          forgetPhone();
          onForget?.();
        }}
      >
        <X aria-hidden="true" className="size-4" />
        {t('remember.forget')}
      </button>
    </div>
  );
}
