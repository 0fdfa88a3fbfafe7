import { useTranslation } from 'react-i18next';
import type { ApplicationStatus } from '@furniture/contracts/enums';

const STYLES: Record<ApplicationStatus, string> = {
  pending: 'bg-amber-100 text-amber-900 ring-amber-700/30',
  approved: 'bg-green-100 text-green-900 ring-green-700/30',
  rejected: 'bg-red-100 text-red-900 ring-red-700/30',
  completed: 'bg-sky-100 text-sky-900 ring-sky-700/30',
};

export function ApplicationStatusBadge({ status }: { status: ApplicationStatus }) {
  const { t } = useTranslation('public');
  return (
    <span
      className={`inline-flex items-center rounded-full whitespace-nowrap px-2.5 py-0.5 text-sm font-semibold ring-1 ring-inset ${STYLES[status] ?? STYLES.pending}`}
    >
      {t(`applicationStatus.${status}`)}
    </span>
  );
}
