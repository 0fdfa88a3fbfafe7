import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SlotKinds, type SlotKind } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { DateInput } from '../../../../components/DateInput';
import { Modal } from '../../../../components/Modal';
import { SelectField, TextField } from '../../../../components/TextField';
import { addDays, berlinIso, todayInBerlin } from '../../../../lib/berlin-time';
import { errorText, serverFieldErrors } from '../../lib/errors';
import { DialogActions } from '../../ui/DialogActions';
import { ErrorBox } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import {
  useCreateSlotMutation,
  useCreateSlotPatternMutation,
  type LocationAnswer,
} from '../api/handovers-api';

/** Weekdays as the API counts them: 1 = Monday … 7 = Sunday. */
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

interface Common {
  location_id: string;
  kind: SlotKind;
  start_time: string;
  end_time: string;
  capacity: string;
}

function CommonFields({
  values,
  onChange,
  locations,
  errors,
  children,
}: {
  values: Common;
  onChange: (patch: Partial<Common>) => void;
  locations: LocationAnswer[];
  errors: Record<string, string>;
  children?: ReactNode;
}) {
  const { t } = useTranslation('admin');
  return (
    <>
      <SelectField
        label={t('handovers.slots.location')}
        required
        value={values.location_id}
        error={errors.location_id}
        onChange={(e) => onChange({ location_id: e.target.value })}
      >
        <option value="">{t('handovers.slots.chooseLocation')}</option>
        {locations
          .filter((l) => l.active)
          .map((l) => (
            <option key={l.id} value={String(l.id)}>
              {l.name}
            </option>
          ))}
      </SelectField>
      <SelectField
        label={t('handovers.slots.kind')}
        required
        value={values.kind}
        error={errors.kind}
        onChange={(e) => onChange({ kind: e.target.value as SlotKind })}
      >
        {SlotKinds.map((kind) => (
          <option key={kind} value={kind}>
            {t(`handovers.kind.${kind}`)}
          </option>
        ))}
      </SelectField>
      {children}
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label={t('handovers.slots.startTime')}
          required
          type="time"
          value={values.start_time}
          error={errors.start_time ?? errors.starts_at}
          onChange={(e) => onChange({ start_time: e.target.value })}
        />
        <TextField
          label={t('handovers.slots.endTime')}
          required
          type="time"
          value={values.end_time}
          error={errors.end_time ?? errors.ends_at}
          onChange={(e) => onChange({ end_time: e.target.value })}
        />
      </div>
      <TextField
        label={t('handovers.slots.capacity')}
        required
        type="number"
        inputMode="numeric"
        min={1}
        max={Limits.slotCapacityMax}
        value={values.capacity}
        error={errors.capacity}
        onChange={(e) => onChange({ capacity: e.target.value })}
        hint={t('handovers.slots.capacityHint')}
      />
    </>
  );
}

function checkCommon(values: Common, t: (key: string) => string): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.location_id) errors.location_id = t('handovers.slots.required');
  if (!values.start_time) errors.start_time = t('handovers.slots.required');
  if (!values.end_time) errors.end_time = t('handovers.slots.required');
  else if (values.start_time && values.end_time <= values.start_time) {
    errors.end_time = t('handovers.slots.endBeforeStart');
  }
  const capacity = Number(values.capacity);
  if (!Number.isInteger(capacity) || capacity < 1 || capacity > Limits.slotCapacityMax) {
    errors.capacity = t('handovers.slots.capacityRange');
  }
  return errors;
}

const initialCommon = (locations: LocationAnswer[]): Common => {
  const active = locations.filter((l) => l.active);
  return {
    location_id: active.length === 1 ? String(active[0]!.id) : '',
    kind: 'pickup',
    start_time: '10:00',
    end_time: '12:00',
    capacity: '3',
  };
};

/** One slot: a day, from and to (Berlin time), a location, a kind and its places. */
export function SlotFormModal({
  locations,
  onClose,
}: {
  locations: LocationAnswer[];
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const [values, setValues] = useState<Common & { day: string }>(() => ({
    ...initialCommon(locations),
    day: addDays(todayInBerlin(), 1),
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [create, creating] = useCreateSlotMutation();
  const change = (patch: Partial<Common & { day: string }>) =>
    setValues((v) => ({ ...v, ...patch }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkCommon(values, t);
    if (!values.day) found.day = t('handovers.slots.required');
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    const starts = berlinIso(values.day, values.start_time);
    const ends = berlinIso(values.day, values.end_time);
    if (!starts || !ends) return;
    try {
      await create({
        location_id: Number(values.location_id),
        kind: values.kind,
        starts_at: starts,
        ends_at: ends,
        capacity: Number(values.capacity),
      }).unwrap();
      toast('success', t('handovers.slots.created'));
      onClose();
    } catch (error) {
      setErrors(serverFieldErrors(error));
      setFailure(errorText(error, t('handovers.slots.saveFailed')));
    }
  };

  return (
    <Modal open onClose={onClose} title={t('handovers.slots.newTitle')}>
      <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        <CommonFields values={values} onChange={change} locations={locations} errors={errors}>
          <DateInput
            label={t('handovers.slots.day')}
            marked
            value={values.day}
            min={todayInBerlin()}
            error={errors.day}
            onChange={(day) => change({ day })}
          />
        </CommonFields>
        {failure && <ErrorBox>{failure}</ErrorBox>}
        <DialogActions
          onCancel={onClose}
          busy={creating.isLoading}
          label={t('handovers.slots.create')}
        />
      </form>
    </Modal>
  );
}

/** A weekly pattern: a slot on each chosen weekday between two days. */
export function PatternFormModal({
  locations,
  onClose,
}: {
  locations: LocationAnswer[];
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const [values, setValues] = useState<Common & { from: string; to: string; weekdays: number[] }>(
    () => ({
      ...initialCommon(locations),
      from: addDays(todayInBerlin(), 1),
      to: addDays(todayInBerlin(), 28),
      weekdays: [],
    }),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [create, creating] = useCreateSlotPatternMutation();
  const change = (patch: Partial<typeof values>) => setValues((v) => ({ ...v, ...patch }));
  const toggle = (day: number) =>
    change({
      weekdays: values.weekdays.includes(day)
        ? values.weekdays.filter((d) => d !== day)
        : [...values.weekdays, day].sort(),
    });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkCommon(values, t);
    if (!values.from) found.from = t('handovers.slots.required');
    if (!values.to) found.to = t('handovers.slots.required');
    else if (values.from && values.to < values.from) found.to = t('handovers.slots.endBeforeStart');
    if (values.weekdays.length === 0) found.weekdays = t('handovers.slots.weekdaysRequired');
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    try {
      const answer = await create({
        location_id: Number(values.location_id),
        kind: values.kind,
        from: values.from,
        to: values.to,
        weekdays: values.weekdays,
        start_time: values.start_time,
        end_time: values.end_time,
        capacity: Number(values.capacity),
      }).unwrap();
      toast('success', t('handovers.slots.patternCreated', { count: answer.slots.length }));
      onClose();
    } catch (error) {
      setErrors(serverFieldErrors(error));
      setFailure(errorText(error, t('handovers.slots.saveFailed')));
    }
  };

  return (
    <Modal open onClose={onClose} title={t('handovers.slots.patternTitle')} size="lg">
      <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        <CommonFields values={values} onChange={change} locations={locations} errors={errors}>
          <div className="grid gap-3 sm:grid-cols-2">
            <DateInput
              label={t('handovers.slots.from')}
              marked
              value={values.from}
              min={todayInBerlin()}
              error={errors.from}
              onChange={(from) => change({ from })}
            />
            <DateInput
              label={t('handovers.slots.to')}
              marked
              value={values.to}
              min={values.from || todayInBerlin()}
              error={errors.to}
              onChange={(to) => change({ to })}
            />
          </div>
          <fieldset aria-describedby={errors.weekdays ? 'pattern-weekdays-error' : undefined}>
            <legend className="field-label">
              {t('handovers.slots.weekdays')}
              <span className="text-red-800" aria-hidden="true">
                {' '}
                *
              </span>
            </legend>
            <div className="flex flex-wrap gap-2">
              {WEEKDAYS.map((day) => (
                <label
                  key={day}
                  className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-3"
                >
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={values.weekdays.includes(day)}
                    onChange={() => toggle(day)}
                  />
                  {t(`handovers.weekday.${day}`)}
                </label>
              ))}
            </div>
            {errors.weekdays && (
              <p id="pattern-weekdays-error" className="field-error">
                {errors.weekdays}
              </p>
            )}
          </fieldset>
        </CommonFields>
        <p className="text-sm text-slate-700">
          {t('handovers.slots.patternHint', { max: Limits.slotPatternMax })}
        </p>
        {failure && <ErrorBox>{failure}</ErrorBox>}
        <DialogActions
          onCancel={onClose}
          busy={creating.isLoading}
          label={t('handovers.slots.createPattern')}
        />
      </form>
    </Modal>
  );
}
