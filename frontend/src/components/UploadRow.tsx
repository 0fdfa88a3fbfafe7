import { useTranslation } from 'react-i18next';
import { RotateCcw, X } from 'lucide-react';
import type { QueuedUpload } from '../lib/upload-queue';

/**
 * One photo on its way up (lib/upload-queue): its name, what it is doing, a progress bar, and
 * once it failed, why, with "try again" where sending it again can help and, given `onDismiss`,
 * a button that takes the row away. Used by the donors' form and the back-office's lot photos.
 */
export function UploadRow({
  upload,
  label,
  barLabel = label,
  preview,
  failure,
  onRetry,
  onDismiss,
}: {
  upload: QueuedUpload;
  /** what the row names (a file name, "photo 2 of item 1") */
  label: string;
  /** the progress bar's accessible name */
  barLabel?: string;
  /** an object URL of the photo, shown beside the bar */
  preview?: string;
  /** the failure as the page words it (default: the server's message, else "no connection") */
  failure?: string;
  /** sends it again (a failed photo that can be retried shows the button) */
  onRetry?: () => void;
  onDismiss?: () => void;
}) {
  const { t } = useTranslation('common');
  const stateText = {
    waiting: t('upload.waiting'),
    preparing: t('upload.preparing'),
    uploading: `${upload.percent} %`,
    done: t('upload.done'),
    failed: t('upload.failed'),
  }[upload.state];
  const failed = upload.state === 'failed';
  return (
    <li className="flex items-center gap-3">
      {preview && <img src={preview} alt="" className="size-14 shrink-0 rounded-md object-cover" />}
      <div className="min-w-0 flex-1">
        <div className="flex justify-between gap-2 text-sm">
          <span className="truncate font-medium">{label}</span>
          <span className={failed ? 'font-medium text-red-800' : 'text-slate-700'}>
            {stateText}
          </span>
        </div>
        <div
          role="progressbar"
          aria-label={barLabel}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={upload.percent}
          aria-valuetext={stateText}
          className="mt-1 h-2 overflow-hidden rounded-full bg-slate-200"
        >
          <div
            className={`h-full transition-[width] ${failed ? 'bg-red-700' : upload.state === 'done' ? 'bg-green-700' : 'bg-blue-700'}`}
            style={{ width: `${failed ? 100 : upload.percent}%` }}
          />
        </div>
        {failed && (
          <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-red-900">
            <span>{failure ?? upload.error ?? t('upload.network')}</span>
            {upload.canRetry && onRetry && (
              <button type="button" className="btn-secondary min-h-9 py-1" onClick={onRetry}>
                <RotateCcw aria-hidden="true" className="size-4" />
                {t('upload.retry')}
                <span className="sr-only"> ({label})</span>
              </button>
            )}
            {onDismiss && (
              <button type="button" className="btn-secondary min-h-9 py-1" onClick={onDismiss}>
                <X aria-hidden="true" className="size-4" />
                {t('upload.dismiss')}
                <span className="sr-only"> ({label})</span>
              </button>
            )}
          </div>
        )}
      </div>
    </li>
  );
}
