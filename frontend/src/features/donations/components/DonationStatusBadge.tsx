import { useTranslation } from 'react-i18next';
import type { DonationStatus } from '@furniture/contracts/enums';

const STYLES: Record<DonationStatus, string> = {
  submitted: 'bg-amber-100 text-amber-900 ring-amber-700/30',
  accepted: 'bg-green-100 text-green-900 ring-green-700/30',
  declined: 'bg-red-100 text-red-900 ring-red-700/30',
  collected: 'bg-sky-100 text-sky-900 ring-sky-700/30',
  cancelled: 'bg-slate-200 text-slate-800 ring-slate-600/30',
  expired: 'bg-slate-200 text-slate-800 ring-slate-600/30',
};

export function DonationStatusBadge({ status }: { status: DonationStatus }) {
  const { t } = useTranslation('donate');
  return (
    <span
      className={`inline-flex items-center rounded-full whitespace-nowrap px-2.5 py-0.5 text-sm font-semibold ring-1 ring-inset ${STYLES[status] ?? STYLES.submitted}`}
    >
      {t(`status.${status}`)}
    </span>
  );
}
