import { useTranslation } from 'react-i18next';
import { useSyncExternalStore } from 'react';
import { busyWaiting, subscribeBusy } from '../lib/busy';

/**
 * "Very many visitors right now, trying again": shown while a call the platform shed under load
 * waits to try again (lib/busy.ts), on every page; announced politely to screen readers.
 */
export function BusyNotice() {
  const { t } = useTranslation('common');
  const waiting = useSyncExternalStore(subscribeBusy, busyWaiting, () => 0);
  if (waiting === 0) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed inset-x-0 bottom-0 z-50 flex justify-center p-3 print:hidden"
    >
      <p className="max-w-xl rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-center font-medium text-amber-950 shadow-lg">
        {t('states.busy')}
      </p>
    </div>
  );
}
