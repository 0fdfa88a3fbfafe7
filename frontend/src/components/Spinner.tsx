import { useTranslation } from 'react-i18next';

/** A spinner that screen readers announce as "loading" (or the given label). */
export function Spinner({ label, className = '' }: { label?: string; className?: string }) {
  const { t } = useTranslation('common');
  return (
    <div role="status" className={`flex items-center justify-center gap-3 py-10 ${className}`}>
      <span
        aria-hidden="true"
        className="size-8 animate-spin rounded-full border-4 border-blue-200 border-t-blue-700 motion-reduce:animate-none"
      />
      <span className="text-slate-700">{label ?? t('states.loading')}</span>
    </div>
  );
}

/** Shown while a lazily loaded page or the translations arrive (no texts needed). */
export function PageSpinner() {
  return (
    <div role="status" aria-busy="true" className="flex min-h-[50vh] items-center justify-center">
      <span
        aria-hidden="true"
        className="size-10 animate-spin rounded-full border-4 border-blue-200 border-t-blue-700 motion-reduce:animate-none"
      />
    </div>
  );
}
