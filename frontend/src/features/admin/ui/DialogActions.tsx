import { useTranslation } from 'react-i18next';

/**
 * The two buttons every dialog ends with: cancel, and the action (a form's submit unless
 * `onConfirm` is given), stacked on a phone with the action on top, side by side from `sm` on.
 */
export function DialogActions({
  onCancel,
  label,
  busy = false,
  disabled = false,
  tone = 'primary',
  onConfirm,
  className = '',
}: {
  onCancel: () => void;
  label: string;
  busy?: boolean;
  disabled?: boolean;
  tone?: 'primary' | 'danger' | 'strong';
  onConfirm?: () => void;
  className?: string;
}) {
  const { t } = useTranslation('admin');
  const style = {
    primary: 'btn-primary',
    strong: 'btn text-white bg-blue-800 hover:bg-blue-900',
    danger: 'btn text-white bg-red-700 hover:bg-red-800',
  }[tone];
  return (
    <div className={`flex flex-col-reverse gap-2 sm:flex-row sm:justify-end ${className}`}>
      <button
        type="button"
        className="btn-secondary justify-center"
        onClick={onCancel}
        disabled={busy}
      >
        {t('ui.cancel')}
      </button>
      <button
        type={onConfirm ? 'button' : 'submit'}
        className={`${style} justify-center`}
        onClick={onConfirm}
        disabled={busy || disabled}
      >
        {label}
      </button>
    </div>
  );
}
