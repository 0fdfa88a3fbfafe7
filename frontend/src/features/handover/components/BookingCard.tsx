import { useTranslation } from 'react-i18next';
import { CalendarPlus, Clock, MapPin } from 'lucide-react';
import {
  formatDateTimeBerlin,
  formatDayLong,
  berlinDay,
  formatTimeRange,
} from '../../../lib/berlin-time';
import { useLanguage } from '../../../lib/language';
import { osmSearchLink } from '../../../lib/map-link';
import { calendarLink, type FamilyBooking } from '../api/handover-api';

/** The family's booking: when, where (with a map link), until when it can change; the actions. */
export function BookingCard({
  booking,
  token,
  changing,
  onChange,
  onCancel,
}: {
  booking: FamilyBooking;
  token: string;
  changing: boolean;
  onChange: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('handover');
  const lang = useLanguage();
  const changeable = Date.parse(booking.changeable_until) > Date.now();
  const place = booking.location;
  return (
    <section
      aria-labelledby="booking-title"
      className="rounded-xl border-2 border-green-700 bg-white p-4 sm:p-5"
    >
      <h2 id="booking-title" className="text-xl font-bold text-slate-900">
        {t('booking.title')}
      </h2>
      <p className="mt-1 font-semibold text-green-900">{t(`kind.${booking.kind}`)}</p>
      <dl className="mt-3 flex flex-col gap-3">
        <div className="flex gap-2">
          <dt>
            <Clock aria-hidden="true" className="mt-0.5 size-5 text-slate-600" />
            <span className="sr-only">{t('booking.when')}</span>
          </dt>
          <dd className="text-lg text-slate-900">
            {formatDayLong(berlinDay(booking.starts_at), lang)},{' '}
            <span className="font-semibold whitespace-nowrap">
              {formatTimeRange(booking.starts_at, booking.ends_at, lang)}
            </span>
          </dd>
        </div>
        <div className="flex gap-2">
          <dt>
            <MapPin aria-hidden="true" className="mt-0.5 size-5 text-slate-600" />
            <span className="sr-only">{t('booking.where')}</span>
          </dt>
          <dd className="text-slate-900">
            <p className="font-semibold">{place.name}</p>
            <p>
              {place.address}, {place.city}
            </p>
            <a
              href={osmSearchLink(place.address, place.city)}
              target="_blank"
              rel="noreferrer noopener"
              className="font-medium text-blue-800 underline"
            >
              {t('booking.map')}
            </a>
          </dd>
        </div>
      </dl>
      <p className="mt-3 text-sm text-slate-700">
        {changeable
          ? t('booking.changeableUntil', {
              date: formatDateTimeBerlin(booking.changeable_until, lang),
            })
          : t('booking.notChangeable')}
      </p>
      <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <a href={calendarLink(token)} className="btn-secondary justify-center" download>
          <CalendarPlus aria-hidden="true" className="size-4" />
          {t('booking.calendar')}
        </a>
        {changeable && (
          <>
            <button
              type="button"
              className="btn-secondary justify-center"
              aria-expanded={changing}
              onClick={onChange}
            >
              {changing ? t('booking.keep') : t('booking.change')}
            </button>
            <button
              type="button"
              className="btn justify-center border border-red-700 bg-white text-red-800 hover:bg-red-50"
              onClick={onCancel}
            >
              {t('booking.cancel')}
            </button>
          </>
        )}
      </div>
    </section>
  );
}
