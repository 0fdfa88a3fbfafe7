import { useCallback, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Plus, Send } from 'lucide-react';
import { Limits } from '@furniture/contracts/limits';
import { isApiError } from '../../../app/api';
import { DateInput } from '../../../components/DateInput';
import { SelectField, TextField } from '../../../components/TextField';
import { useErrorText } from '../../../lib/use-field-errors';
import type { FieldProblem } from '../../../lib/validation';
import { useCategories } from '../../catalog';
import { useSubmitDonationMutation, type DonationCreated } from '../api/donations-api';
import {
  buildDonationPayload,
  classifySubmitError,
  emptyItem,
  fieldOrder,
  FLOOR_MAX,
  FLOOR_MIN,
  validateDonation,
  type DonationErrors,
  type DonationFormValues,
  type DonationItemValues,
  type DonationProblem,
} from '../lib/donation-form';
import { DonationItemFields } from './DonationItemFields';

/** YYYY-MM-DD of today in the browser's time zone (the earliest available-until day). */
export function today(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const OWN_PROBLEMS = new Set<DonationProblem['key']>(['invalidFloor', 'pastDate', 'consent']);

/**
 * The donation form of issue 28: who gives, where the furniture is and until when, one to ten
 * items with their photos, the consent. Errors show on submit, in the page language, and go
 * away when their field is edited; the first one gets the focus.
 */
export function DonationForm({
  values,
  onChange,
  onSubmitted,
}: {
  values: DonationFormValues;
  onChange: (update: (values: DonationFormValues) => DonationFormValues) => void;
  onSubmitted: (created: DonationCreated) => void;
}) {
  const { t } = useTranslation('donate');
  const commonErrorText = useErrorText();
  const categories = useCategories();
  const [submit, { isLoading }] = useSubmitDonationMutation();
  const [errors, setErrors] = useState<DonationErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);

  const errorOf = useCallback(
    (field: string): string | undefined => {
      const problem = errors[field];
      if (problem === undefined || typeof problem === 'string') return problem;
      return OWN_PROBLEMS.has(problem.key)
        ? t(`errors.${problem.key}`, { min: FLOOR_MIN, max: FLOOR_MAX })
        : commonErrorText(problem as FieldProblem);
    },
    [errors, t, commonErrorText],
  );

  const clear = (field: string) => {
    if (errors[field]) setErrors(({ [field]: _gone, ...rest }) => rest);
  };
  const set = <K extends keyof DonationFormValues>(field: K, value: DonationFormValues[K]) => {
    onChange((v) => ({ ...v, [field]: value }));
    clear(field);
  };
  const setItem = (index: number, patch: Partial<DonationItemValues>) => {
    onChange((v) => ({
      ...v,
      items: v.items.map((item, i) => (i === index ? { ...item, ...patch } : item)),
    }));
    for (const field of Object.keys(patch)) clear(`items.${index}.${field}`);
  };
  const focusField = (field: string) =>
    formRef.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();

  const addItem = () => {
    if (values.items.length >= Limits.donationItemsMax) return;
    const index = values.items.length;
    onChange((v) => ({ ...v, items: [...v.items, emptyItem()] }));
    // the new item's first field, once it is there
    setTimeout(() => focusField(`items.${index}.categoryId`), 0);
  };
  const removeItem = (index: number) => {
    for (const photo of values.items[index]?.photos ?? []) URL.revokeObjectURL(photo.preview);
    onChange((v) => ({ ...v, items: v.items.filter((_, i) => i !== index) }));
    // an item's errors are by place: they are found again on the next submit
    setErrors((all) =>
      Object.fromEntries(Object.entries(all).filter(([field]) => !field.startsWith('items.'))),
    );
    setTimeout(() => addButton.current?.focus(), 0);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (isLoading) return;
    const found = validateDonation(values, today());
    setErrors(found);
    setFailure(null);
    const first = fieldOrder(values).find((field) => found[field] !== undefined);
    if (first) {
      focusField(first);
      return;
    }
    try {
      onSubmitted(await submit(buildDonationPayload(values)).unwrap());
    } catch (err) {
      const outcome = isApiError(err)
        ? classifySubmitError(err, values.items.length)
        : { fieldErrors: {}, message: null, messageKey: 'generic' as const };
      setErrors(outcome.fieldErrors);
      setFailure(outcome.message ?? t(`errors.submit.${outcome.messageKey ?? 'generic'}`));
      const firstServer = fieldOrder(values).find((f) => outcome.fieldErrors[f] !== undefined);
      if (firstServer) focusField(firstServer);
    }
  };

  const field = (name: 'name' | 'phone' | 'email' | 'city' | 'address' | 'floor') => ({
    name,
    value: values[name],
    error: errorOf(name),
    onChange: (e: { target: { value: string } }) => set(name, e.target.value),
  });

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <p className="text-sm text-slate-700">
        <span aria-hidden="true" className="text-red-800">
          *
        </span>{' '}
        {t('common:form.requiredNote')}
      </p>

      <fieldset className="card flex flex-col gap-4 p-4 sm:p-5">
        <legend className="float-left mb-1 text-lg font-semibold">{t('donor.legend')}</legend>
        <TextField label={t('donor.name')} required autoComplete="name" {...field('name')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('donor.phone')}
            required
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            hint={t('donor.phoneHint')}
            {...field('phone')}
          />
          <TextField
            label={t('donor.email')}
            type="email"
            inputMode="email"
            autoComplete="email"
            hint={t('donor.emailHint')}
            {...field('email')}
          />
        </div>
        <SelectField
          label={t('donor.language')}
          required
          name="language"
          value={values.language}
          hint={t('donor.languageHint')}
          onChange={(e) => set('language', e.target.value === 'uk' ? 'uk' : 'de')}
        >
          <option value="de" lang="de">
            Deutsch
          </option>
          <option value="uk" lang="uk">
            Українська
          </option>
        </SelectField>
      </fieldset>

      <fieldset className="card flex flex-col gap-4 p-4 sm:p-5">
        <legend className="float-left mb-1 text-lg font-semibold">{t('pickup.legend')}</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('pickup.city')}
            required
            autoComplete="address-level2"
            {...field('city')}
          />
          <TextField
            label={t('pickup.address')}
            required
            autoComplete="street-address"
            {...field('address')}
          />
          <TextField
            label={t('pickup.floor')}
            inputMode="numeric"
            hint={t('pickup.floorHint')}
            {...field('floor')}
          />
          <label className="flex items-start gap-3 sm:mt-8">
            <input
              type="checkbox"
              name="hasElevator"
              checked={values.hasElevator}
              onChange={(e) => set('hasElevator', e.target.checked)}
              className="mt-1 size-5 shrink-0 accent-blue-800"
            />
            <span className="font-medium">{t('pickup.hasElevator')}</span>
          </label>
        </div>
        <DateInput
          label={t('pickup.availableUntil')}
          hint={t('pickup.availableUntilHint')}
          required
          marked
          name="availableUntil"
          min={today()}
          value={values.availableUntil}
          error={errorOf('availableUntil')}
          onChange={(value) => set('availableUntil', value)}
          className="sm:max-w-xs"
        />
      </fieldset>

      <section aria-labelledby="donation-items-title" className="flex flex-col gap-4">
        <div>
          <h2 id="donation-items-title" className="text-xl font-semibold">
            {t('items.title')}
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            {t('items.hint', { max: Limits.donationItemsMax })}
          </p>
        </div>
        <ol className="flex flex-col gap-4">
          {values.items.map((item, index) => (
            <DonationItemFields
              key={item.key}
              index={index}
              item={item}
              categories={categories.data ?? []}
              categoriesFailed={categories.isError && !categories.data}
              errorOf={errorOf}
              onChange={(patch) => setItem(index, patch)}
              onRemove={values.items.length > 1 ? () => removeItem(index) : undefined}
            />
          ))}
        </ol>
        <div className="flex flex-wrap items-center gap-3">
          <button
            ref={addButton}
            type="button"
            className="btn-secondary"
            onClick={addItem}
            disabled={values.items.length >= Limits.donationItemsMax}
          >
            <Plus aria-hidden="true" className="size-4" />
            {t('items.add')}
          </button>
          <span className="text-sm text-slate-700" aria-live="polite">
            {t('items.count', { n: values.items.length, max: Limits.donationItemsMax })}
          </span>
        </div>
      </section>

      <div className="card flex flex-col gap-4 p-4 sm:p-5">
        <div>
          <label className="flex items-start gap-3">
            <input
              type="checkbox"
              name="consent"
              checked={values.consent}
              aria-invalid={errors.consent ? true : undefined}
              aria-describedby={errors.consent ? 'donation-consent-error' : undefined}
              onChange={(e) => set('consent', e.target.checked)}
              className="mt-1 size-5 shrink-0 accent-blue-800"
            />
            <span>
              <span className="font-medium">{t('consent.label')}</span>
              <span aria-hidden="true" className="text-red-800">
                {' '}
                *
              </span>
            </span>
          </label>
          <p className="mt-1 ml-8 text-sm text-slate-700">
            {t('consent.more')}{' '}
            <Link
              to="/privacy-policy"
              target="_blank"
              className="font-medium text-blue-800 underline underline-offset-4"
            >
              {t('consent.privacyLink')}
              <span className="sr-only"> ({t('consent.newTab')})</span>
            </Link>
          </p>
          {errors.consent && (
            <p id="donation-consent-error" className="field-error ml-8">
              {errorOf('consent')}
            </p>
          )}
        </div>
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            name="namePublic"
            checked={values.namePublic}
            onChange={(e) => set('namePublic', e.target.checked)}
            className="mt-1 size-5 shrink-0 accent-blue-800"
          />
          <span>
            <span className="font-medium">{t('namePublic.label')}</span>
            <span className="block text-sm text-slate-700">{t('namePublic.hint')}</span>
          </span>
        </label>
      </div>

      {failure && (
        <p
          role="alert"
          className="rounded-lg border border-red-300 bg-red-50 p-3 font-medium text-red-900"
        >
          {failure}
        </p>
      )}
      <button
        type="submit"
        className="btn-primary justify-center sm:self-start"
        aria-disabled={isLoading || undefined}
      >
        <Send aria-hidden="true" className="size-4" />
        {isLoading ? t('submitting') : t('submit')}
      </button>
    </form>
  );
}
