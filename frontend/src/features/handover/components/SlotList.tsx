import { useTranslation } from 'react-i18next';
import { MapPin } from 'lucide-react';
import { formatDayLong, formatTimeRange, groupByDay } from '../../../lib/berlin-time';
import { useLanguage } from '../../../lib/language';
import type { OfferedSlot } from '../api/handover-api';

/** The free slots, day by day, each with a button that books it (or moves the booking there). */
export function SlotList({
  slots,
  currentSlotId,
  busySlotId,
  onPick,
}: {
  slots: OfferedSlot[];
  /** the booked slot (when changing): not offered again */
  currentSlotId: number | null;
  busySlotId: number | null;
  onPick: (slot: OfferedSlot) => void;
}) {
  const { t } = useTranslation('handover');
  const lang = useLanguage();
  const offered = slots.filter((s) => s.id !== currentSlotId && s.free > 0);
  if (offered.length === 0) {
    return (
      <p className="rounded-lg bg-white p-4 text-slate-800 ring-1 ring-slate-200">
        {t('slots.none')}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-5">
      {groupByDay(offered).map(({ day, items }) => (
        <section key={day} aria-labelledby={`day-${day}`}>
          <h3 id={`day-${day}`} className="mb-2 text-lg font-bold text-slate-900">
            {formatDayLong(day, lang)}
          </h3>
          <ul className="flex flex-col gap-2">
            {items.map((slot) => {
              const time = formatTimeRange(slot.starts_at, slot.ends_at, lang);
              return (
                <li
                  key={slot.id}
                  className="flex flex-col gap-3 rounded-xl bg-white p-4 ring-1 ring-slate-200 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-baseline gap-x-2 text-lg font-semibold text-slate-900">
                      <span>{time}</span>
                      <span className="text-base font-medium text-blue-900">
                        {t(`kind.${slot.kind}`)}
                      </span>
                    </p>
                    <p className="mt-1 flex items-start gap-1 text-slate-700">
                      <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                      <span>
                        {slot.location.name}, {slot.location.address}, {slot.location.city}
                      </span>
                    </p>
                    <p className="mt-1 text-sm text-slate-700">
                      {t('slots.free', { count: slot.free })}
                    </p>
                  </div>
                  <button
                    type="button"
                    className="btn-primary justify-center"
                    disabled={busySlotId !== null}
                    onClick={() => onPick(slot)}
                  >
                    {busySlotId === slot.id
                      ? t('slots.booking')
                      : currentSlotId
                        ? t('slots.move')
                        : t('slots.book')}
                    <span className="sr-only">
                      {' '}
                      {formatDayLong(day, lang)}, {time}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
