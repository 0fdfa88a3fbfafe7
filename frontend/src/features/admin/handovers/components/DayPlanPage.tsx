import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  ArrowDown,
  ArrowUp,
  Check,
  ChevronLeft,
  ChevronRight,
  CloudOff,
  MapPin,
  MessageCircle,
  Package,
  Phone,
  RotateCcw,
  ScanLine,
  UserX,
} from 'lucide-react';
import type { HandoverOutcome } from '@furniture/contracts/enums';
import { DateInput } from '../../../../components/DateInput';
import { Spinner } from '../../../../components/Spinner';
import {
  addDays,
  formatDayLong,
  formatTimeRange,
  todayInBerlin,
} from '../../../../lib/berlin-time';
import { useLanguage } from '../../../../lib/language';
import { localize } from '../../../../lib/localized';
import { osmSearchLink } from '../../../../lib/map-link';
import { formatPhone } from '../../applications';
import { errorText } from '../../lib/errors';
import { EmptyState, PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import { useGetDayPlanQuery, useSetOrderMutation, type DayPlanStop } from '../api/handovers-api';
import { useOnline, useOutcomeQueue } from '../lib/use-outcome-queue';
import { HandoverStatusBadge, SlotKindBadge } from './Badges';
import { OutcomeDialog } from './OutcomeDialog';
import { ScanItemDialog } from './ScanItemDialog';

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** wa.me wants the number's digits only (the server keeps E.164). */
const waLink = (phone: string) => `https://wa.me/${phone.replace(/\D/g, '')}`;

function StopCard({
  stop,
  n,
  count,
  pending,
  closedByOther,
  onOutcome,
  onScan,
  onMove,
  moving,
}: {
  stop: DayPlanStop;
  n: number;
  count: number;
  pending: boolean;
  closedByOther: boolean;
  onOutcome: (outcome: HandoverOutcome) => void;
  /** the item's label before "erledigt" (issue 45) */
  onScan: () => void;
  onMove: (delta: -1 | 1) => void;
  moving: boolean;
}) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const who = stop.family.name;
  // a pickup is at the location; a delivery or a donor pickup at the family's or donor's address
  const atLocation = stop.kind === 'pickup' || !stop.family.address;
  const address = atLocation
    ? [stop.location.address, stop.location.city]
    : [stop.family.address, stop.family.city];
  const lot = stop.lot ? localize(stop.lot.name, lang) : null;
  const open = stop.status === 'booked' && !pending && !closedByOther;
  const titleId = `stop-${stop.id}`;
  return (
    <li className="card flex flex-col gap-3 p-4" aria-labelledby={titleId}>
      <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
        <span
          aria-hidden="true"
          className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-slate-100 font-bold text-slate-900"
        >
          {n}
        </span>
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="text-lg font-bold text-slate-900">
            <span className="sr-only">{t('handovers.plan.stopN', { n })}: </span>
            <span className="whitespace-nowrap">
              {formatTimeRange(stop.starts_at, stop.ends_at, lang)}
            </span>{' '}
            · {who}
          </h2>
          <p className="text-sm text-slate-700">{stop.location.name}</p>
        </div>
        <div className="flex basis-full flex-wrap items-center gap-2 pl-12 sm:basis-auto sm:pl-0">
          <SlotKindBadge kind={stop.kind} />
          {pending ? (
            <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2.5 py-0.5 text-sm font-semibold text-amber-950 ring-1 ring-amber-700/30 ring-inset">
              <CloudOff aria-hidden="true" className="size-4" />
              {t('handovers.plan.waiting')}
            </span>
          ) : (
            <HandoverStatusBadge status={stop.status} />
          )}
        </div>
      </div>

      <ul className="flex flex-col gap-1.5 text-slate-900">
        <li className="flex items-start gap-2">
          <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-500" />
          <span>
            <span className="sr-only">{t('handovers.plan.address')}: </span>
            {address.filter(Boolean).join(', ')}{' '}
            <a
              href={osmSearchLink(...address)}
              target="_blank"
              rel="noreferrer noopener"
              className="font-medium whitespace-nowrap text-blue-800 underline"
            >
              {t('handovers.plan.map')}
            </a>
          </span>
        </li>
        {stop.family.phone && (
          <li className="flex flex-wrap items-center gap-x-4 gap-y-1">
            <a
              href={`tel:${stop.family.phone}`}
              className="inline-flex min-h-11 items-center gap-2 text-blue-800 underline"
            >
              <Phone aria-hidden="true" className="size-4 text-slate-500" />
              <span className="sr-only">{t('handovers.plan.call')} </span>
              {formatPhone(stop.family.phone)}
            </a>
            <a
              href={waLink(stop.family.phone)}
              target="_blank"
              rel="noreferrer noopener"
              className="inline-flex min-h-11 items-center gap-2 font-medium text-green-800 underline"
            >
              <MessageCircle aria-hidden="true" className="size-4" />
              WhatsApp
              <span className="sr-only"> {who}</span>
            </a>
          </li>
        )}
        {(lot || stop.donation_id) && (
          <li className="flex items-start gap-2">
            <Package aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-500" />
            {lot && stop.lot ? (
              <Link
                to={`/admin/lots/${stop.lot.id}`}
                lang={lot.lang}
                className="text-blue-800 underline"
              >
                {lot.text}
              </Link>
            ) : (
              <Link to={`/admin/donations/${stop.donation_id}`} className="text-blue-800 underline">
                {t('handovers.plan.donation', { id: stop.donation_id })}
              </Link>
            )}
          </li>
        )}
        {stop.item_check && (
          <li
            className={`flex items-center gap-2 text-sm font-medium ${stop.item_check.match ? 'text-green-800' : 'text-amber-900'}`}
          >
            <ScanLine aria-hidden="true" className="size-4 shrink-0" />
            {stop.item_check.match
              ? t('handovers.scan.checkedMatch')
              : t('handovers.scan.checkedConfirmed', { id: stop.item_check.scanned_lot_id ?? '–' })}
          </li>
        )}
        {stop.note && (
          <li className="text-sm text-slate-700">
            <span className="font-medium">{t('handovers.plan.note')}:</span> {stop.note}
          </li>
        )}
      </ul>

      {pending && (
        <p role="status" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">
          {t('handovers.plan.waitingText')}
        </p>
      )}
      {closedByOther && (
        <p role="status" className="rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-950">
          {t('handovers.plan.closedByOtherStop')}
        </p>
      )}

      <div className="flex flex-wrap items-center gap-2">
        {open && (
          <>
            {stop.lot && (
              <button type="button" className="btn-primary" onClick={onScan}>
                <ScanLine aria-hidden="true" className="size-4" />
                {t('handovers.scan.button')}
                <span className="sr-only"> ({who})</span>
              </button>
            )}
            <button
              type="button"
              className="btn bg-green-700 text-white hover:bg-green-800"
              onClick={() => onOutcome('done')}
            >
              <Check aria-hidden="true" className="size-4" />
              {t('handovers.plan.outcome.done')}
              <span className="sr-only"> ({who})</span>
            </button>
            <button
              type="button"
              className="btn border border-red-700 bg-white text-red-800 hover:bg-red-50"
              onClick={() => onOutcome('absent')}
            >
              <UserX aria-hidden="true" className="size-4" />
              {t('handovers.plan.outcome.absent')}
              <span className="sr-only"> ({who})</span>
            </button>
          </>
        )}
        <span className="ml-auto flex gap-1">
          <button
            type="button"
            className="btn-secondary px-3"
            disabled={n === 1 || moving}
            onClick={() => onMove(-1)}
            aria-label={t('handovers.plan.moveUp', { name: who })}
          >
            <ArrowUp aria-hidden="true" className="size-4" />
          </button>
          <button
            type="button"
            className="btn-secondary px-3"
            disabled={n === count || moving}
            onClick={() => onMove(1)}
            aria-label={t('handovers.plan.moveDown', { name: who })}
          >
            <ArrowDown aria-hidden="true" className="size-4" />
          </button>
        </span>
      </div>
    </li>
  );
}

/**
 * /admin/handovers, "Tagesplan" (issue 29): the day's stops in the team's order, for a driver on
 * a phone. Outcomes confirmed without a connection wait in local storage and go out when the
 * connection is back (use-outcome-queue.ts).
 */
export default function DayPlanPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const asked = params.get('date') ?? '';
  const date = DAY_RE.test(asked) ? asked : todayInBerlin();
  const setDate = (day: string) => {
    if (DAY_RE.test(day)) setParams({ date: day }, { replace: true });
  };
  const plan = useGetDayPlanQuery(date, { refetchOnMountOrArgChange: true });
  const [setOrder, ordering] = useSetOrderMutation();
  const online = useOnline();
  const { pending, closedIds, record, flush } = useOutcomeQueue();
  const [asking, setAsking] = useState<{ stop: DayPlanStop; outcome: HandoverOutcome } | null>(
    null,
  );
  const [scanning, setScanning] = useState<DayPlanStop | null>(null);
  /** stops whose item was scanned here (the day plan shows it once it is read again) */
  const [checked, setChecked] = useState<number[]>([]);

  const stops = plan.data ?? [];
  const pendingIds = new Set(pending.map((p) => p.id));

  const move = (index: number, delta: -1 | 1) => {
    const ids = stops.map((s) => s.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + delta, 0, id!);
    setOrder({ date, ids })
      .unwrap()
      .catch((error: unknown) => toast('error', errorText(error, t('handovers.plan.orderFailed'))));
  };

  const confirm = async (note: string | null): Promise<string | null> => {
    if (!asking) return null;
    const { stop, outcome } = asking;
    try {
      const result = await record({ id: stop.id, outcome, note, date });
      setAsking(null);
      if (result === 'sent') toast('success', t(`handovers.plan.recorded.${outcome}`));
      else if (result === 'queued') toast('info', t('handovers.plan.queued'));
      else toast('info', t('handovers.plan.closedByOther', { count: 1 }));
      return null;
    } catch (error) {
      return errorText(error, t('handovers.plan.outcomeFailed'));
    }
  };

  return (
    <div>
      <PageHeader
        title={t('handovers.plan.title')}
        description={formatDayLong(date, lang)}
        actions={
          <div className="flex flex-wrap items-end gap-2">
            <button
              type="button"
              className="btn-secondary px-3"
              onClick={() => setDate(addDays(date, -1))}
              aria-label={t('handovers.plan.previousDay')}
            >
              <ChevronLeft aria-hidden="true" className="size-4" />
            </button>
            <DateInput
              label={t('handovers.plan.date')}
              value={date}
              onChange={(day) => setDate(day || todayInBerlin())}
              className="w-40"
            />
            <button
              type="button"
              className="btn-secondary px-3"
              onClick={() => setDate(addDays(date, 1))}
              aria-label={t('handovers.plan.nextDay')}
            >
              <ChevronRight aria-hidden="true" className="size-4" />
            </button>
            <button
              type="button"
              className="btn-secondary"
              onClick={() => setDate(todayInBerlin())}
            >
              {t('handovers.plan.today')}
            </button>
          </div>
        }
      />

      {(!online || pending.length > 0) && (
        <div
          role="status"
          className="mb-4 flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950"
        >
          <CloudOff aria-hidden="true" className="size-5 shrink-0" />
          <p className="flex-1 font-medium">
            {!online && <span>{t('handovers.plan.offline')} </span>}
            {pending.length > 0 && t('handovers.plan.pendingCount', { count: pending.length })}
          </p>
          {pending.length > 0 && online && (
            <button type="button" className="btn-secondary" onClick={() => void flush()}>
              <RotateCcw aria-hidden="true" className="size-4" />
              {t('handovers.plan.sendNow')}
            </button>
          )}
        </div>
      )}

      {plan.isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : plan.error && !plan.data ? (
        <div role="alert" className="card flex flex-col items-center gap-3 px-4 py-8 text-center">
          <p className="font-semibold text-slate-900">
            {errorText(plan.error, t('handovers.plan.loadFailed'))}
          </p>
          <button type="button" className="btn-primary" onClick={() => void plan.refetch()}>
            <RotateCcw aria-hidden="true" className="size-4" />
            {t('ui.retry')}
          </button>
        </div>
      ) : stops.length === 0 ? (
        <EmptyState title={t('handovers.plan.empty')} text={t('handovers.plan.emptyText')} />
      ) : (
        <ol className="flex flex-col gap-3" aria-label={t('handovers.plan.stops')}>
          {stops.map((stop, i) => (
            <StopCard
              key={stop.id}
              stop={stop}
              n={i + 1}
              count={stops.length}
              pending={pendingIds.has(stop.id)}
              closedByOther={closedIds.includes(stop.id)}
              moving={ordering.isLoading}
              onMove={(delta) => move(i, delta)}
              onOutcome={(outcome) => setAsking({ stop, outcome })}
              onScan={() => setScanning(stop)}
            />
          ))}
        </ol>
      )}
      {scanning?.lot && (
        <ScanItemDialog
          stop={{ ...scanning, lot: scanning.lot }}
          onClose={() => setScanning(null)}
          onDone={() => {
            setChecked((ids) => [...ids, scanning.id]);
            setScanning(null);
            setAsking({ stop: scanning, outcome: 'done' });
          }}
        />
      )}
      {asking && (
        <OutcomeDialog
          outcome={asking.outcome}
          name={asking.stop.family.name}
          unscanned={
            asking.outcome === 'done' &&
            asking.stop.lot !== null &&
            !asking.stop.item_check &&
            !checked.includes(asking.stop.id)
          }
          onConfirm={confirm}
          onClose={() => setAsking(null)}
        />
      )}
    </div>
  );
}
