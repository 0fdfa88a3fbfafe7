import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { RotateCcw } from 'lucide-react';

/** A filter of a list: a select whose first choice is "Alle" (the empty value). */
export function FilterSelect({
  label,
  value,
  onChange,
  options,
  className = '',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  className?: string;
}) {
  const { t } = useTranslation('admin');
  return (
    <label className={`block ${className}`}>
      <span className="field-label">{label}</span>
      <select className="field-input" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t('ui.all')}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A search box or date field of a filter panel, with its label. */
export function FilterInput({
  label,
  hint,
  className = '',
  ...input
}: { label: string; hint?: string; className?: string } & ComponentProps<'input'>) {
  return (
    <label className={`block ${className}`}>
      <span className="field-label">{label}</span>
      <input className="field-input" {...input} />
      {hint && <span className="field-hint block">{hint}</span>}
    </label>
  );
}

/** "Aktualisieren" of a list page, disabled while the list loads. */
export function RefreshButton({ onClick, busy }: { onClick: () => void; busy: boolean }) {
  const { t } = useTranslation('admin');
  return (
    <button type="button" className="btn-secondary" onClick={onClick} disabled={busy}>
      <RotateCcw aria-hidden="true" className="size-4" />
      {t('ui.refresh')}
    </button>
  );
}
