import { useTranslation } from 'react-i18next';
import type { LotStatus } from '@furniture/contracts/enums';

const STYLES: Record<LotStatus, string> = {
  available: 'bg-green-100 text-green-900 ring-green-700/30',
  reserved: 'bg-amber-100 text-amber-900 ring-amber-700/30',
  transferred: 'bg-sky-100 text-sky-900 ring-sky-700/30',
  taken: 'bg-slate-200 text-slate-800 ring-slate-600/30',
  archived: 'bg-slate-200 text-slate-800 ring-slate-600/30',
};

export function LotStatusBadge({ status }: { status: LotStatus }) {
  const { t } = useTranslation('public');
  return (
    <span
      className={`inline-flex items-center rounded-full whitespace-nowrap px-2.5 py-0.5 text-sm font-semibold ring-1 ring-inset ${STYLES[status]}`}
    >
      {t(`lotStatus.${status}`)}
    </span>
  );
}
