import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AlertCircle, CalendarClock, CheckCircle2, Package } from 'lucide-react';
import { isApiError } from '../../../app/api';
import { ErrorState } from '../../../components/ErrorState';
import { Modal } from '../../../components/Modal';
import { PageSpinner } from '../../../components/Spinner';
import {
  berlinDay,
  formatDayLong,
  formatDayShort,
  formatTimeRange,
} from '../../../lib/berlin-time';
import { useLanguage } from '../../../lib/language';
import { localize } from '../../../lib/localized';
import {
  useBookSlotMutation,
  useCancelBookingMutation,
  useGetHandoverQuery,
  type OfferedSlot,
} from '../api/handover-api';
import { problemOf, type BookingProblem } from '../lib/booking-errors';
import { useFamilyLanguage } from '../lib/family-language';
import { BookingCard } from './BookingCard';
import { LinkInvalid } from './LinkInvalid';
import { SlotList } from './SlotList';

/** The token's form (contracts handoverTokenParamsSchema): anything else is not asked for. */
const TOKEN_RE = /^[A-Za-z0-9_-]{20,100}$/;

type Notice =
  | { tone: 'success'; key: 'booked' | 'moved' | 'cancelled' }
  | { tone: 'error'; problem: BookingProblem };

/**
 * /handover/{token} (issue 29): the family books, changes or cancels its pickup or delivery slot
 * through the personal link of its approval. No account; in the family's language; made for a
 * phone. The token is in the address by contract: the page sends no referrer (the gateway's
 * Referrer-Policy says the same) and loads nothing from elsewhere.
 */
export default function HandoverPage() {
  const { t } = useTranslation('handover');
  const lang = useLanguage();
  const { token = '' } = useParams();
  const valid = TOKEN_RE.test(token);
  const handover = useGetHandoverQuery(token, { skip: !valid });
  const [book, booking] = useBookSlotMutation();
  const [cancel, cancelling] = useCancelBookingMutation();
  const [changing, setChanging] = useState(false);
  const [busySlot, setBusySlot] = useState<number | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [gone, setGone] = useState(false);
  useFamilyLanguage(handover.data?.language);

  const noReferrer = <meta name="referrer" content="no-referrer" />;
  const loadError = handover.error;
  if (!valid || gone || (isApiError(loadError) && loadError.status === 404)) {
    return (
      <>
        {noReferrer}
        <LinkInvalid />
      </>
    );
  }
  if (handover.isLoading) {
    return (
      <>
        {noReferrer}
        <PageSpinner />
      </>
    );
  }
  if (!handover.data) {
    return (
      <div className="container-page py-8">
        {noReferrer}
        <title>{`${t('title')} – ${t('common:app.name')}`}</title>
        <h1 className="mb-4 text-2xl font-bold text-slate-900">{t('title')}</h1>
        <ErrorState
          message={t(problemOf(loadError) === 'network' ? 'errors.network' : 'errors.loadFailed')}
          onRetry={() => void handover.refetch()}
          retrying={handover.isFetching}
        />
      </div>
    );
  }

  const data = handover.data;
  const lot = localize(data.lot.name, lang);

  const failed = (error: unknown) => {
    const problem = problemOf(error);
    if (problem === 'invalid') {
      setGone(true);
      return;
    }
    // a full slot: the list shows what is free now
    if (problem === 'full' || problem === 'notOffered') void handover.refetch();
    setNotice({ tone: 'error', problem });
  };

  const pick = async (slot: OfferedSlot) => {
    setBusySlot(slot.id);
    setNotice(null);
    const moving = data.booking !== null;
    try {
      await book({ token, slotId: slot.id }).unwrap();
      setChanging(false);
      setNotice({ tone: 'success', key: moving ? 'moved' : 'booked' });
    } catch (error) {
      failed(error);
    } finally {
      setBusySlot(null);
    }
  };

  const doCancel = async () => {
    setNotice(null);
    try {
      await cancel(token).unwrap();
      setConfirmCancel(false);
      setChanging(false);
      setNotice({ tone: 'success', key: 'cancelled' });
    } catch (error) {
      setConfirmCancel(false);
      failed(error);
    }
  };

  const showSlots = data.booking === null || changing;

  return (
    <div className="container-page max-w-3xl py-6 sm:py-8">
      {noReferrer}
      <title>{`${t('title')} – ${t('common:app.name')}`}</title>
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{t('title')}</h1>
      <p className="mt-2 text-slate-700">{t('lead')}</p>

      <dl className="mt-4 flex flex-col gap-2 rounded-xl bg-white p-4 ring-1 ring-slate-200">
        <div className="flex gap-2">
          <dt>
            <Package aria-hidden="true" className="mt-0.5 size-5 text-slate-600" />
            <span className="sr-only">{t('lot')}</span>
          </dt>
          <dd>
            <Link
              to={`/lots/${data.lot.id}`}
              lang={lot.lang}
              className="font-semibold text-blue-800 underline"
            >
              {lot.text}
            </Link>
          </dd>
        </div>
        {data.pickup_by && (
          <div className="flex gap-2">
            <dt>
              <CalendarClock aria-hidden="true" className="mt-0.5 size-5 text-slate-600" />
              <span className="sr-only">{t('pickupByLabel')}</span>
            </dt>
            <dd className="text-slate-900">
              {t('pickupBy', { date: formatDayShort(data.pickup_by, lang) })}
            </dd>
          </div>
        )}
      </dl>

      <div aria-live="polite" className="mt-4 empty:hidden">
        {notice?.tone === 'success' && (
          <p className="flex items-start gap-2 rounded-lg border border-green-300 bg-green-50 p-3 font-medium text-green-900">
            <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
            {t(`notice.${notice.key}`)}
          </p>
        )}
        {notice?.tone === 'error' && (
          <p
            role="alert"
            className="flex items-start gap-2 rounded-lg border border-red-300 bg-red-50 p-3 font-medium text-red-900"
          >
            <AlertCircle aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
            {t(`errors.${notice.problem}`)}
          </p>
        )}
      </div>

      <div className="mt-5 flex flex-col gap-6">
        {data.booking && (
          <BookingCard
            booking={data.booking}
            token={token}
            changing={changing}
            onChange={() => setChanging((c) => !c)}
            onCancel={() => setConfirmCancel(true)}
          />
        )}
        {showSlots && (
          <section aria-labelledby="slots-title">
            <h2 id="slots-title" className="text-xl font-bold text-slate-900">
              {data.booking ? t('slots.changeTitle') : t('slots.title')}
            </h2>
            <p className="mt-1 mb-3 text-sm text-slate-700">{t('slots.timeZone')}</p>
            <SlotList
              slots={data.slots}
              currentSlotId={data.booking?.slot_id ?? null}
              busySlotId={busySlot}
              onPick={(slot) => void pick(slot)}
            />
          </section>
        )}
      </div>

      {data.booking && (
        <Modal
          open={confirmCancel}
          onClose={() => (cancelling.isLoading ? undefined : setConfirmCancel(false))}
          title={t('cancelDialog.title')}
          size="sm"
          role="alertdialog"
        >
          <p className="text-slate-800">
            {t('cancelDialog.text', {
              when: `${formatDayLong(berlinDay(data.booking.starts_at), lang)}, ${formatTimeRange(
                data.booking.starts_at,
                data.booking.ends_at,
                lang,
              )}`,
            })}
          </p>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button
              type="button"
              className="btn-secondary justify-center"
              onClick={() => setConfirmCancel(false)}
              disabled={cancelling.isLoading}
            >
              {t('cancelDialog.keep')}
            </button>
            <button
              type="button"
              className="btn justify-center bg-red-700 text-white hover:bg-red-800"
              onClick={() => void doCancel()}
              disabled={cancelling.isLoading}
            >
              {t('cancelDialog.confirm')}
            </button>
          </div>
        </Modal>
      )}
      {booking.isLoading && (
        <span className="sr-only" role="status">
          {t('slots.booking')}
        </span>
      )}
    </div>
  );
}
