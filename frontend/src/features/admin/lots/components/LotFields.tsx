import { useTranslation } from 'react-i18next';
import { LotStatuses } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { SelectField, TextAreaField, TextField } from '../../../../components/TextField';
import { conditionFromInput, conditionInput, LOT_CONDITIONS } from '../../../../lib/lot-condition';
import { useGetAdminCategoriesQuery } from '../../categories';
import type { LotField, LotFormValues } from '../lib/lot-form';

/**
 * The fields of the lot form (back-office §2 Lot form): names and descriptions in both
 * languages, category, status, dimensions, condition, donor, location. `locked` fields show
 * their value read-only with the reason as hint (a donation's donor who did not agree to be
 * named).
 */
export function LotFields({
  values,
  errors,
  onChange,
  locked = {},
}: {
  values: LotFormValues;
  errors: Partial<Record<LotField, string>>;
  onChange: (field: LotField, value: string) => void;
  locked?: Partial<Record<LotField, string>>;
}) {
  const { t } = useTranslation('admin');
  const categories = useGetAdminCategoriesQuery();

  const field = (
    name: LotField,
    label: string,
    opts: { required?: boolean; lang?: 'de' | 'uk'; max?: number } = {},
  ) => (
    <TextField
      name={name}
      label={label}
      required={opts.required}
      lang={opts.lang}
      maxLength={opts.max ?? Limits.lotShortTextMax}
      value={values[name]}
      readOnly={locked[name] !== undefined}
      hint={locked[name]}
      onChange={(e) => onChange(name, e.target.value)}
      error={errors[name]}
    />
  );
  const area = (
    name: LotField,
    label: string,
    opts: { required?: boolean; lang: 'de' | 'uk'; max: number; hint?: string },
  ) => (
    <TextAreaField
      name={name}
      label={label}
      required={opts.required}
      lang={opts.lang}
      rows={3}
      maxLength={opts.max}
      value={values[name]}
      onChange={(e) => onChange(name, e.target.value)}
      error={errors[name]}
      hint={opts.hint}
    />
  );

  return (
    <div className="card grid gap-4 p-4 sm:p-6 md:grid-cols-2">
      {field('nameDe', t('lots.fields.nameDe'), {
        required: true,
        lang: 'de',
        max: Limits.lotNameMax,
      })}
      {field('nameUk', t('lots.fields.nameUk'), { lang: 'uk', max: Limits.lotNameMax })}
      {area('descriptionDe', t('lots.fields.descriptionDe'), {
        required: true,
        lang: 'de',
        max: Limits.lotShortTextMax,
      })}
      {area('descriptionUk', t('lots.fields.descriptionUk'), {
        lang: 'uk',
        max: Limits.lotShortTextMax,
      })}
      {area('detailedDe', t('lots.fields.detailedDe'), {
        lang: 'de',
        max: Limits.lotTextMax,
        hint: t('lots.detailedHint'),
      })}
      {area('detailedUk', t('lots.fields.detailedUk'), {
        lang: 'uk',
        max: Limits.lotTextMax,
        hint: t('lots.detailedHint'),
      })}
      <SelectField
        name="categoryId"
        label={t('lots.fields.categoryId')}
        required
        value={values.categoryId}
        onChange={(e) => onChange('categoryId', e.target.value)}
        error={errors.categoryId}
      >
        <option value="">{t('lots.chooseCategory')}</option>
        {(categories.data ?? []).map((c) => (
          <option key={c.id} value={String(c.id)}>
            {c.name.de}
          </option>
        ))}
      </SelectField>
      <SelectField
        name="status"
        label={t('lots.fields.status')}
        required
        value={values.status}
        onChange={(e) => onChange('status', e.target.value)}
        error={errors.status}
      >
        {LotStatuses.map((s) => (
          <option key={s} value={s}>
            {t(`lotStatus.${s}`)}
          </option>
        ))}
      </SelectField>
      {field('dimensions', t('lots.fields.dimensions'))}
      {/* free text (back-office §3); the five conditions are suggestions, older texts stay */}
      <TextField
        name="condition"
        label={t('lots.fields.condition')}
        list="lot-condition-suggestions"
        autoComplete="off"
        maxLength={Limits.lotShortTextMax}
        value={conditionInput(values.condition, t)}
        onChange={(e) => onChange('condition', conditionFromInput(e.target.value, t))}
        hint={t('lots.conditionHint')}
        error={errors.condition}
      />
      <datalist id="lot-condition-suggestions">
        {LOT_CONDITIONS.map((c) => (
          <option key={c} value={t(`common:lotCondition.${c}`)} />
        ))}
      </datalist>
      {field('donor', t('lots.fields.donor'))}
      {field('location', t('lots.fields.location'))}
    </div>
  );
}
