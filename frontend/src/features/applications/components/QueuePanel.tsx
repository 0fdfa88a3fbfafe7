import { useTranslation } from 'react-i18next';
import { Info, TriangleAlert, Users } from 'lucide-react';
import type { LotStatus } from '@furniture/contracts/enums';
import { useGetQueueInfoQuery } from '../api/applications-api';
import { useRememberedPhone } from '../lib/applicant-memory';
import { RememberedPhoneNotice } from './RememberPhone';

/** How crowded the queue is: first applicant, one person, some people, many (public-site §4). */
export function competitionLevel(count: number): 'first' | 'one' | 'some' | 'many' {
  if (count <= 0) return 'first';
  if (count === 1) return 'one';
  if (count < 5) return 'some';
  return 'many';
}

/**
 * Queue status and competition hint (the family's own application, when this tab sent one or
 * this device remembers its number, is shown in place of the apply button: LotActions).
 */
export function QueuePanel({ lot }: { lot: { id: number; status: LotStatus } }) {
  const { t } = useTranslation('public');
  const phone = useRememberedPhone();
  const { data: info, isError } = useGetQueueInfoQuery({
    lotId: lot.id,
    phone: phone ?? undefined,
  });

  if (lot.status === 'transferred') return null;

  const status = info?.lot_status ?? lot.status;
  const mineApproved = info?.user_application_status === 'approved';
  const level = competitionLevel(info?.applications_count ?? 0);

  return (
    <section
      aria-labelledby="queue-title"
      className="rounded-xl border border-blue-200 bg-blue-50 p-4"
    >
      <h2 id="queue-title" className="flex items-center gap-2 text-lg font-semibold text-blue-950">
        <Users aria-hidden="true" className="size-5" />
        {t('queue.title')}
      </h2>

      {(status === 'reserved' || status === 'taken') && !mineApproved && (
        <p className="mt-3 flex items-start gap-2 rounded-lg bg-amber-100 p-3 text-amber-950">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          {status === 'reserved' ? t('queue.reservedWarning') : t('queue.takenWarning')}
        </p>
      )}

      {info && status === 'available' && (
        <>
          <p className="mt-3 text-slate-900">
            {t('queue.count', { count: info.applications_count })}
          </p>
          <p
            className={`mt-1 font-medium ${level === 'many' ? 'text-amber-900' : 'text-blue-950'}`}
          >
            {t(`queue.competition.${level}`)}
          </p>
        </>
      )}

      {isError && !info && <p className="mt-3 text-sm text-slate-700">{t('queue.loadError')}</p>}

      <p className="mt-3 flex items-start gap-2 text-sm text-slate-700">
        <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {t('queue.fairness')}
      </p>
      {/* the number this device remembers for the family, and how to forget it */}
      <RememberedPhoneNotice className="mt-3" />
    </section>
  );
}
