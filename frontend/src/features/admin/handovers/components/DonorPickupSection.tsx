import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CalendarCheck, Truck } from 'lucide-react';
import {
  addDays,
  formatDayLong,
  formatSlot,
  formatTimeRange,
  groupByDay,
  todayInBerlin,
} from '../../../../lib/berlin-time';
import { useLanguage } from '../../../../lib/language';
import { errorText } from '../../lib/errors';
import { ErrorBox } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import {
  useBookDonorPickupMutation,
  useGetLocationsQuery,
  useGetSlotsQuery,
  type DayPlanStop,
} from '../api/handovers-api';

/** How far ahead donor pickup slots are offered. */
const DAYS_AHEAD = 30;

/**
 * "Abholung planen" on an accepted donation (issue 29): one of the free donor pickup slots of the
 * next weeks, booked for the donation (POST /handovers/). The slots load when staff open it.
 */
export function DonorPickupSection(props: { donationId: number; availableUntil: string | null }) {
  const { t } = useTranslation('admin');
  const [open, setOpen] = useState(false);
  if (open) return <DonorPickupPicker {...props} />;
  return (
    <section className="card p-4 sm:p-5" aria-labelledby="donor-pickup-title">
      <h2
        id="donor-pickup-title"
        className="mb-2 flex items-center gap-2 text-lg font-bold text-slate-900"
      >
        <Truck aria-hidden="true" className="size-5 text-slate-600" />
        {t('handovers.donorPickup.title')}
      </h2>
      <p className="mb-3 text-slate-700">{t('handovers.donorPickup.lead')}</p>
      <button type="button" className="btn-primary" onClick={() => setOpen(true)}>
        {t('handovers.donorPickup.open')}
      </button>
    </section>
  );
}

function DonorPickupPicker({
  donationId,
  availableUntil,
}: {
  donationId: number;
  /** the donor's last day (YYYY-MM-DD): later slots are shown, but marked */
  availableUntil: string | null;
}) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const toast = useToast();
  const today = todayInBerlin();
  const slots = useGetSlotsQuery(
    { from: today, to: addDays(today, DAYS_AHEAD), kind: 'donor_pickup' },
    { refetchOnMountOrArgChange: true },
  );
  const locations = useGetLocationsQuery();
  const [book, booking] = useBookDonorPickupMutation();
  const [chosen, setChosen] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [booked, setBooked] = useState<DayPlanStop | null>(null);
  const now = Date.now();
  const free = (slots.data ?? []).filter(
    (s) => s.kind === 'donor_pickup' && s.booked < s.capacity && Date.parse(s.starts_at) > now,
  );
  const names = new Map((locations.data ?? []).map((l) => [l.id, l.name]));

  const submit = async () => {
    if (chosen === null) return;
    setFailure(null);
    try {
      const stop = await book({ donation_id: donationId, slot_id: chosen }).unwrap();
      setBooked(stop);
      toast('success', t('handovers.donorPickup.booked'));
    } catch (error) {
      setFailure(errorText(error, t('handovers.donorPickup.failed')));
    }
  };

  return (
    <section className="card p-4 sm:p-5" aria-labelledby="donor-pickup-title">
      <h2
        id="donor-pickup-title"
        className="mb-2 flex items-center gap-2 text-lg font-bold text-slate-900"
      >
        <Truck aria-hidden="true" className="size-5 text-slate-600" />
        {t('handovers.donorPickup.title')}
      </h2>
      {booked ? (
        <p role="status" className="flex items-start gap-2 text-slate-900">
          <CalendarCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-green-700" />
          <span>
            {t('handovers.donorPickup.bookedFor', {
              when: booked.starts_at ? formatSlot(booked.starts_at, booked.ends_at, lang) : '',
            })}{' '}
            <Link
              to={`/admin/handovers?date=${groupByDay([booked])[0]?.day ?? ''}`}
              className="font-medium text-blue-800 underline"
            >
              {t('handovers.donorPickup.toPlan')}
            </Link>
          </span>
        </p>
      ) : slots.isLoading ? (
        <p className="text-slate-700">{t('ui.loading')}</p>
      ) : free.length === 0 ? (
        <p className="text-slate-700">
          {t('handovers.donorPickup.none')}{' '}
          <Link to="/admin/handovers/slots" className="font-medium text-blue-800 underline">
            {t('handovers.donorPickup.toSlots')}
          </Link>
        </p>
      ) : (
        <fieldset>
          <legend className="mb-2 text-slate-800">{t('handovers.donorPickup.choose')}</legend>
          <div className="flex flex-col gap-3">
            {groupByDay(free).map(({ day, items }) => (
              <div key={day}>
                <p className="font-semibold text-slate-900">{formatDayLong(day, lang)}</p>
                <ul className="mt-1 flex flex-col gap-1">
                  {items.map((slot) => (
                    <li key={slot.id}>
                      <label className="flex min-h-11 items-center gap-3 rounded-lg border border-slate-300 bg-white px-3">
                        <input
                          type="radio"
                          name={`donor-pickup-${donationId}`}
                          className="size-4"
                          checked={chosen === slot.id}
                          onChange={() => setChosen(slot.id)}
                        />
                        <span className="font-medium">
                          {formatTimeRange(slot.starts_at, slot.ends_at, lang)}
                        </span>
                        <span className="text-slate-700">
                          {names.get(slot.location_id) ?? `#${slot.location_id}`} ·{' '}
                          {t('handovers.donorPickup.free', {
                            count: slot.capacity - slot.booked,
                          })}
                        </span>
                        {availableUntil && day > availableUntil && (
                          <span className="text-sm font-medium text-amber-900">
                            {t('handovers.donorPickup.afterAvailable')}
                          </span>
                        )}
                      </label>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
          {failure && (
            <div className="mt-3">
              <ErrorBox>{failure}</ErrorBox>
            </div>
          )}
          <button
            type="button"
            className="btn-primary mt-3"
            disabled={chosen === null || booking.isLoading}
            onClick={() => void submit()}
          >
            {t('handovers.donorPickup.submit')}
          </button>
        </fieldset>
      )}
    </section>
  );
}
