import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertCircle, X } from 'lucide-react';

/** An error message that goes away by itself after `durationMs` (or when closed). */
export function ErrorBanner({
  message,
  onDismiss,
  durationMs,
}: {
  message: string;
  onDismiss: () => void;
  durationMs: number;
}) {
  const { t } = useTranslation('common');
  useEffect(() => {
    const timer = setTimeout(onDismiss, durationMs);
    return () => clearTimeout(timer);
  }, [message, onDismiss, durationMs]);
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-lg border border-red-300 bg-red-50 p-3 text-red-900"
    >
      <AlertCircle aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <p className="flex-1 font-medium">{message}</p>
      <button
        type="button"
        onClick={onDismiss}
        aria-label={t('actions.close')}
        className="-m-1 inline-flex size-8 shrink-0 items-center justify-center rounded-full hover:bg-red-100"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
