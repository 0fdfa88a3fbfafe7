import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CalendarPlus, CalendarRange, RotateCcw, Trash2 } from 'lucide-react';
import { DateInput } from '../../../../components/DateInput';
import { Spinner } from '../../../../components/Spinner';
import {
  addDays,
  formatDayLong,
  formatTimeRange,
  groupByDay,
  todayInBerlin,
} from '../../../../lib/berlin-time';
import { useLanguage } from '../../../../lib/language';
import { errorText } from '../../lib/errors';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FilterSelect, RefreshButton } from '../../ui/Filters';
import { EmptyState, PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import {
  useDeleteSlotMutation,
  useGetLocationsQuery,
  useGetSlotsQuery,
  type SlotAnswer,
} from '../api/handovers-api';
import { SlotKindBadge } from './Badges';
import { PatternFormModal, SlotFormModal } from './SlotForms';

/** /admin/handovers/slots, "Termine": the slots of a date range; new ones, one or by pattern. */
export default function SlotsPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const toast = useToast();
  const [from, setFrom] = useState(() => todayInBerlin());
  const [to, setTo] = useState(() => addDays(todayInBerlin(), 13));
  const [locationId, setLocationId] = useState('');
  const [creating, setCreating] = useState<'one' | 'pattern' | null>(null);
  const [deleting, setDeleting] = useState<SlotAnswer | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const locations = useGetLocationsQuery();
  const slots = useGetSlotsQuery(
    { from, to: to < from ? from : to, ...(locationId ? { location_id: Number(locationId) } : {}) },
    { refetchOnMountOrArgChange: true },
  );
  const [remove, removing] = useDeleteSlotMutation();
  const byId = new Map((locations.data ?? []).map((l) => [l.id, l]));
  const noLocations = locations.isSuccess && locations.data.every((l) => !l.active);

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteError(null);
    try {
      await remove(deleting.id).unwrap();
      setDeleting(null);
      toast('success', t('handovers.slots.deleted'));
    } catch (error) {
      // 409 SLOT_BOOKED says how many are booked, in the staff's language
      setDeleteError(errorText(error, t('handovers.slots.deleteFailed')));
    }
  };

  return (
    <div>
      <PageHeader
        title={t('handovers.slots.title')}
        description={t('handovers.slots.lead')}
        actions={
          <>
            <button
              type="button"
              className="btn-primary"
              disabled={!locations.isSuccess || noLocations}
              onClick={() => setCreating('one')}
            >
              <CalendarPlus aria-hidden="true" className="size-4" />
              {t('handovers.slots.new')}
            </button>
            <button
              type="button"
              className="btn-secondary"
              disabled={!locations.isSuccess || noLocations}
              onClick={() => setCreating('pattern')}
            >
              <CalendarRange aria-hidden="true" className="size-4" />
              {t('handovers.slots.pattern')}
            </button>
          </>
        }
      />
      {noLocations && (
        <p className="mb-4 rounded-lg bg-amber-50 px-3 py-2 text-amber-950">
          {t('handovers.slots.noLocations')}
        </p>
      )}
      <div className="card mb-4 grid gap-3 p-4 sm:grid-cols-[repeat(3,minmax(0,12rem))_auto] sm:items-end">
        <DateInput
          label={t('handovers.slots.from')}
          value={from}
          onChange={(d) => d && setFrom(d)}
        />
        <DateInput label={t('handovers.slots.to')} value={to} onChange={(d) => d && setTo(d)} />
        <FilterSelect
          label={t('handovers.slots.location')}
          value={locationId}
          onChange={setLocationId}
          options={(locations.data ?? []).map((l) => ({ value: String(l.id), label: l.name }))}
        />
        <div>
          <RefreshButton onClick={() => void slots.refetch()} busy={slots.isFetching} />
        </div>
      </div>

      {slots.isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : slots.error && !slots.data ? (
        <div role="alert" className="card flex flex-col items-center gap-3 px-4 py-8 text-center">
          <p className="font-semibold text-slate-900">
            {errorText(slots.error, t('handovers.slots.loadFailed'))}
          </p>
          <button type="button" className="btn-primary" onClick={() => void slots.refetch()}>
            <RotateCcw aria-hidden="true" className="size-4" />
            {t('ui.retry')}
          </button>
        </div>
      ) : (slots.data ?? []).length === 0 ? (
        <EmptyState title={t('handovers.slots.empty')} />
      ) : (
        <div className="flex flex-col gap-5">
          {groupByDay(slots.data ?? []).map(({ day, items }) => (
            <section key={day} aria-labelledby={`slots-${day}`}>
              <h2 id={`slots-${day}`} className="mb-2 text-lg font-bold text-slate-900">
                {formatDayLong(day, lang)}
              </h2>
              <ul className="flex flex-col gap-2">
                {items.map((slot) => {
                  const time = formatTimeRange(slot.starts_at, slot.ends_at, lang);
                  const full = slot.booked >= slot.capacity;
                  return (
                    <li
                      key={slot.id}
                      className="card flex flex-wrap items-center gap-x-4 gap-y-2 p-3"
                    >
                      <span className="font-semibold text-slate-900">{time}</span>
                      <SlotKindBadge kind={slot.kind} />
                      <span className="text-slate-800">
                        {byId.get(slot.location_id)?.name ?? `#${slot.location_id}`}
                      </span>
                      <span className={full ? 'font-semibold text-red-800' : 'text-slate-700'}>
                        {t('handovers.slots.bookedOf', {
                          booked: slot.booked,
                          capacity: slot.capacity,
                        })}
                      </span>
                      <button
                        type="button"
                        className="btn-secondary ml-auto px-3 text-red-800"
                        onClick={() => {
                          setDeleteError(null);
                          setDeleting(slot);
                        }}
                      >
                        <Trash2 aria-hidden="true" className="size-4" />
                        {t('ui.delete')}
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
      )}

      {creating === 'one' && locations.data && (
        <SlotFormModal locations={locations.data} onClose={() => setCreating(null)} />
      )}
      {creating === 'pattern' && locations.data && (
        <PatternFormModal locations={locations.data} onClose={() => setCreating(null)} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('handovers.slots.deleteTitle')}
        confirmLabel={t('ui.delete')}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
        busy={removing.isLoading}
        error={deleteError}
      >
        {deleting &&
          t('handovers.slots.deleteText', {
            when: `${formatDayLong(groupByDay([deleting])[0]!.day, lang)}, ${formatTimeRange(deleting.starts_at, deleting.ends_at, lang)}`,
          })}
      </ConfirmDialog>
    </div>
  );
}
