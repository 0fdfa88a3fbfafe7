import { useTranslation } from 'react-i18next';
import { AlertTriangle, RotateCcw } from 'lucide-react';

/** A failed load: what went wrong and a Retry button. */
export function ErrorState({
  message,
  onRetry,
  retrying = false,
}: {
  message: string;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  const { t } = useTranslation('common');
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-4 rounded-xl border border-red-200 bg-red-50 px-4 py-8 text-center"
    >
      <AlertTriangle aria-hidden="true" className="size-8 text-red-700" />
      <p className="font-medium text-red-900">{message}</p>
      {onRetry && (
        <button type="button" className="btn-primary" onClick={onRetry} disabled={retrying}>
          <RotateCcw aria-hidden="true" className="size-4" />
          {t('actions.retry')}
        </button>
      )}
    </div>
  );
}
