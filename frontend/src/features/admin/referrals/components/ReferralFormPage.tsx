import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Send } from 'lucide-react';
import { Languages, type Language } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { isApiError } from '../../../../app/api';
import { SelectField, TextAreaField, TextField } from '../../../../components/TextField';
import { useLanguage } from '../../../../lib/language';
import { localize } from '../../../../lib/localized';
import { useErrorText } from '../../../../lib/use-field-errors';
import { firstInvalid, type FieldErrors } from '../../../../lib/validation';
import { useCategories } from '../../../catalog';
import { ErrorBox, PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import { useCreateReferralMutation, useGetOpenLotsQuery } from '../api/referrals-api';
import {
  EMPTY_REFERRAL,
  REFERRAL_FIELDS,
  buildReferralPayload,
  referralFailureOf,
  validateReferralForm,
  type ReferralField,
  type ReferralFormValues,
} from '../lib/referral-form';

/**
 * /admin/referrals/new (issue 44): "Familie anmelden". The referrer applies for a family it
 * supports, for an open lot or as a wish, under the family's own rules; the family's messages go
 * out in the family's language, whatever the page's.
 */
export default function ReferralFormPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const navigate = useNavigate();
  const toast = useToast();
  const errorText = useErrorText();
  const lots = useGetOpenLotsQuery(undefined, { refetchOnMountOrArgChange: true });
  const categories = useCategories();
  const [create, creating] = useCreateReferralMutation();
  const [values, setValues] = useState<ReferralFormValues>(EMPTY_REFERRAL);
  const [errors, setErrors] = useState<FieldErrors<ReferralField>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);

  const change = <K extends keyof ReferralFormValues>(field: K, value: ReferralFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const fieldError = (field: ReferralField) =>
    field === 'householdSize' && errors.householdSize === 'householdRange'
      ? t('referrals.householdRange', { max: Limits.householdMax })
      : errorText(errors[field]);
  const focusField = (field: ReferralField | undefined) => {
    if (field) form.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (creating.isLoading) return;
    setFailure(null);
    const found = validateReferralForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusField(firstInvalid(REFERRAL_FIELDS, found));
      return;
    }
    try {
      const created = await create(buildReferralPayload(values)).unwrap();
      toast(
        'success',
        created.queue_position !== null
          ? t('referrals.createdPlace', { name: values.name.trim(), place: created.queue_position })
          : t('referrals.created', { name: values.name.trim() }),
      );
      void navigate('/admin/referrals');
    } catch (error) {
      if (!isApiError(error)) throw error;
      const outcome = referralFailureOf(error);
      setErrors(outcome.fieldErrors);
      setFailure(
        outcome.key === 'validation' || !outcome.key
          ? outcome.message || t('referrals.errors.generic')
          : t(`referrals.errors.${outcome.key}`),
      );
      focusField(firstInvalid(REFERRAL_FIELDS, outcome.fieldErrors));
    }
  };

  return (
    <div className="flex max-w-2xl flex-col gap-4">
      <Link
        to="/admin/referrals"
        className="inline-flex items-center gap-1 font-medium text-blue-800 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('referrals.back')}
      </Link>
      <PageHeader title={t('referrals.formTitle')} description={t('referrals.formLead')} />
      <form
        ref={form}
        noValidate
        onSubmit={(e) => void submit(e)}
        className="card flex flex-col gap-4 p-4 sm:p-6"
      >
        {failure && <ErrorBox>{failure}</ErrorBox>}
        <fieldset className="flex flex-col gap-2">
          <legend className="field-label">{t('referrals.kind')}</legend>
          {(['lot', 'wish'] as const).map((kind) => (
            <label
              key={kind}
              className="flex min-h-11 items-center gap-3 rounded-lg border border-slate-300 px-3"
            >
              <input
                type="radio"
                name="kind"
                value={kind}
                checked={values.kind === kind}
                onChange={() => change('kind', kind)}
                className="size-5 accent-blue-800"
              />
              {t(`referrals.kinds.${kind}`)}
            </label>
          ))}
        </fieldset>

        {values.kind === 'lot' ? (
          <SelectField
            label={t('referrals.fields.lot')}
            name="lotId"
            required
            value={values.lotId}
            error={lots.error && !lots.data ? t('referrals.lotsFailed') : fieldError('lotId')}
            hint={lots.data?.length === 0 ? t('referrals.noLots') : undefined}
            onChange={(e) => change('lotId', e.target.value)}
          >
            <option value="">{t('referrals.chooseLot')}</option>
            {(lots.data ?? []).map((lot) => (
              <option key={lot.id} value={lot.id}>
                {localize(lot.name, lang).text}
              </option>
            ))}
          </SelectField>
        ) : (
          <>
            <SelectField
              label={t('referrals.fields.category')}
              name="categoryId"
              required
              value={values.categoryId}
              error={fieldError('categoryId')}
              onChange={(e) => change('categoryId', e.target.value)}
            >
              <option value="">{t('referrals.chooseCategory')}</option>
              {(categories.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {localize(c.name, lang).text}
                </option>
              ))}
            </SelectField>
            <TextAreaField
              label={t('referrals.fields.description')}
              name="description"
              required
              maxLength={Limits.wishDescriptionMax}
              value={values.description}
              error={fieldError('description')}
              onChange={(e) => change('description', e.target.value)}
            />
          </>
        )}

        <h2 className="mt-2 text-lg font-bold text-slate-900">{t('referrals.familyTitle')}</h2>
        <TextField
          label={t('referrals.fields.name')}
          name="name"
          required
          autoComplete="off"
          value={values.name}
          error={fieldError('name')}
          onChange={(e) => change('name', e.target.value)}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('referrals.fields.phone')}
            name="phone"
            required
            type="tel"
            autoComplete="off"
            value={values.phone}
            error={fieldError('phone')}
            onChange={(e) => change('phone', e.target.value)}
          />
          <TextField
            label={t('referrals.fields.whatsapp')}
            name="whatsapp"
            required={values.kind === 'wish'}
            type="tel"
            autoComplete="off"
            hint={values.kind === 'lot' ? t('referrals.whatsappHint') : undefined}
            value={values.whatsapp}
            error={fieldError('whatsapp')}
            onChange={(e) => change('whatsapp', e.target.value)}
          />
        </div>
        <TextField
          label={t('referrals.fields.email')}
          name="email"
          type="email"
          autoComplete="off"
          value={values.email}
          error={fieldError('email')}
          onChange={(e) => change('email', e.target.value)}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('referrals.fields.city')}
            name="city"
            autoComplete="off"
            value={values.city}
            error={fieldError('city')}
            onChange={(e) => change('city', e.target.value)}
          />
          <TextField
            label={t('referrals.fields.address')}
            name="address"
            autoComplete="off"
            value={values.address}
            error={fieldError('address')}
            onChange={(e) => change('address', e.target.value)}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('referrals.fields.householdSize')}
            name="householdSize"
            required
            type="number"
            inputMode="numeric"
            min={1}
            max={Limits.householdMax}
            value={values.householdSize}
            error={fieldError('householdSize')}
            onChange={(e) => change('householdSize', e.target.value)}
          />
          <SelectField
            label={t('referrals.fields.language')}
            name="language"
            required
            hint={t('referrals.languageHint')}
            value={values.language}
            onChange={(e) => change('language', e.target.value as Language)}
          >
            {Languages.map((l) => (
              <option key={l} value={l}>
                {t(`agencies.language.${l}`)}
              </option>
            ))}
          </SelectField>
        </div>
        <label className="flex items-start gap-3 rounded-lg border border-slate-300 p-3">
          <input
            type="checkbox"
            name="needsDeliveryHelp"
            checked={values.needsDeliveryHelp}
            onChange={(e) => change('needsDeliveryHelp', e.target.checked)}
            className="mt-1 size-5 shrink-0 accent-blue-800"
          />
          <span className="font-medium">{t('referrals.fields.needsDeliveryHelp')}</span>
        </label>
        <TextAreaField
          label={t('referrals.fields.note')}
          name="note"
          hint={t('referrals.noteHint')}
          maxLength={Limits.notesMax}
          value={values.note}
          error={fieldError('note')}
          onChange={(e) => change('note', e.target.value)}
        />
        <button type="submit" className="btn-primary justify-center" disabled={creating.isLoading}>
          <Send aria-hidden="true" className="size-4" />
          {creating.isLoading ? t('referrals.submitting') : t('referrals.submit')}
        </button>
      </form>
    </div>
  );
}
