import { useTranslation } from 'react-i18next';
import { Trash2 } from 'lucide-react';
import { Limits } from '@furniture/contracts/limits';
import { SelectField, TextAreaField, TextField } from '../../../components/TextField';
import { useLanguage } from '../../../lib/language';
import { localize, type LocalizedText } from '../../../lib/localized';
import { LOT_CONDITIONS, type LotCondition } from '../../../lib/lot-condition';
import type { DonationItemValues } from '../lib/donation-form';
import { PhotoPicker } from './PhotoPicker';

export interface CategoryOption {
  id: number;
  name: LocalizedText;
}

/** One offered piece of furniture: category, description, dimensions, condition, photos. */
export function DonationItemFields({
  index,
  item,
  categories,
  categoriesFailed,
  errorOf,
  onChange,
  onRemove,
}: {
  index: number;
  item: DonationItemValues;
  categories: CategoryOption[];
  categoriesFailed: boolean;
  errorOf: (field: string) => string | undefined;
  onChange: (patch: Partial<DonationItemValues>) => void;
  /** undefined while it is the only item */
  onRemove?: () => void;
}) {
  const { t } = useTranslation('donate');
  const lang = useLanguage();
  const n = index + 1;
  const name = (field: string) => `items.${index}.${field}`;
  const headingId = `${item.key}-title`;
  return (
    <li className="card flex flex-col gap-4 p-4 sm:p-5" aria-labelledby={headingId}>
      <div className="flex items-center justify-between gap-3">
        <h3 id={headingId} className="text-lg font-semibold">
          {t('item.title', { n })}
        </h3>
        {onRemove && (
          <button type="button" className="btn-secondary" onClick={onRemove}>
            <Trash2 aria-hidden="true" className="size-4" />
            {t('item.remove')}
            <span className="sr-only"> ({t('item.title', { n })})</span>
          </button>
        )}
      </div>
      <SelectField
        label={t('item.category')}
        required
        name={name('categoryId')}
        value={item.categoryId}
        error={errorOf(name('categoryId'))}
        hint={categoriesFailed ? t('item.categoriesFailed') : undefined}
        onChange={(e) => onChange({ categoryId: e.target.value })}
      >
        <option value="">{t('item.chooseCategory')}</option>
        {categories.map((category) => (
          <option key={category.id} value={String(category.id)}>
            {localize(category.name, lang).text}
          </option>
        ))}
      </SelectField>
      <TextAreaField
        label={t('item.description')}
        required
        name={name('description')}
        rows={4}
        maxLength={Limits.donationDescriptionMax + 50}
        value={item.description}
        error={errorOf(name('description'))}
        hint={t('item.descriptionHint', {
          min: Limits.donationDescriptionMin,
          max: Limits.donationDescriptionMax,
          used: item.description.trim().length,
        })}
        onChange={(e) => onChange({ description: e.target.value })}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t('item.dimensions')}
          name={name('dimensions')}
          maxLength={Limits.lotShortTextMax}
          value={item.dimensions}
          hint={t('item.dimensionsHint')}
          error={errorOf(name('dimensions'))}
          onChange={(e) => onChange({ dimensions: e.target.value })}
        />
        <SelectField
          label={t('item.condition')}
          name={name('condition')}
          value={item.condition}
          onChange={(e) => onChange({ condition: e.target.value as LotCondition | '' })}
        >
          <option value="">{t('common:lotCondition.none')}</option>
          {LOT_CONDITIONS.map((c) => (
            <option key={c} value={c}>
              {t(`common:lotCondition.${c}`)}
            </option>
          ))}
        </SelectField>
      </div>
      <label className="flex items-start gap-3">
        <input
          type="checkbox"
          name={name('canDisassemble')}
          checked={item.canDisassemble}
          onChange={(e) => onChange({ canDisassemble: e.target.checked })}
          className="mt-1 size-5 shrink-0 accent-blue-800"
        />
        <span className="font-medium">{t('item.canDisassemble')}</span>
      </label>
      <PhotoPicker
        itemNumber={n}
        photos={item.photos}
        onChange={(photos) => onChange({ photos })}
      />
    </li>
  );
}
