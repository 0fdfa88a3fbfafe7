import { useId, useState, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * "24.11.2026" (also "1.2.2026", "24/11/2026", "24-11-2026") → "2026-11-24"; null when it is
 * not a day of the calendar. German and Ukrainian both write dates day.month.year.
 */
export function parseDayMonthYear(text: string): string | null {
  const match = /^\s*(\d{1,2})[./-](\d{1,2})[./-](\d{4})\s*$/.exec(text);
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    year < 1900 ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    return null;
  }
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** "2026-11-24" → "24.11.2026" (de-DE and uk-UA alike); anything else stays as it is. */
export function formatDayMonthYear(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return match ? `${match[3]}.${match[2]}.${match[1]}` : iso;
}

/**
 * A date typed and shown as TT.MM.JJJJ / ДД.ММ.РРРР whatever the browser's language (the native
 * date input shows the browser's locale, "mm/dd/yyyy" in an English browser). The value is an
 * ISO day ("2026-11-24") or "" for none; `onChange` hears only complete, valid days within
 * min/max (or "" when the field is emptied), and a wrong entry says why once the field is left.
 */
export function DateInput({
  label,
  value,
  onChange,
  min,
  max,
  hint,
  marked = false,
  error,
  className = '',
  ...input
}: {
  label: string;
  /** a visible line under the field (the format is always told to screen readers) */
  hint?: string;
  /** a required field of a form that marks them: the label gets the red asterisk */
  marked?: boolean;
  /** a form's own finding (a required day left empty); a wrong entry's reason comes first */
  error?: string;
  value: string;
  onChange: (value: string) => void;
  min?: string;
  max?: string;
  className?: string;
} & Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'min' | 'max' | 'type'>) {
  const { t } = useTranslation('common');
  const id = useId();
  const [text, setText] = useState(() => formatDayMonthYear(value));
  const [known, setKnown] = useState(value);
  const [left, setLeft] = useState(false);
  // a value changed from outside (a reset of the filters) replaces what is typed
  if (value !== known) {
    setKnown(value);
    setText(formatDayMonthYear(value));
    setLeft(false);
  }

  const problem = (entry: string): string | null => {
    if (entry.trim() === '') return null;
    const iso = parseDayMonthYear(entry);
    if (!iso) return t('date.invalid');
    if (min && iso < min) return t('date.beforeMin', { date: formatDayMonthYear(min) });
    if (max && iso > max) return t('date.afterMax', { date: formatDayMonthYear(max) });
    return null;
  };
  const shown = (left ? problem(text) : null) ?? error ?? null;

  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
        {marked && (
          <span className="text-red-800" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      <input
        {...input}
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={t('date.placeholder')}
        className="field-input"
        value={text}
        aria-invalid={shown ? true : undefined}
        aria-describedby={hint ? `${id}-hint ${id}-more` : `${id}-hint`}
        onChange={(e) => {
          const entry = e.target.value;
          setText(entry);
          if (problem(entry)) return;
          const iso = entry.trim() === '' ? '' : parseDayMonthYear(entry)!;
          setLeft(false);
          if (iso !== known) {
            setKnown(iso);
            onChange(iso);
          }
        }}
        onBlur={() => setLeft(true)}
      />
      <span id={`${id}-hint`} className={shown ? 'field-error block' : 'sr-only'}>
        {shown ?? t('date.format')}
      </span>
      {hint && (
        <span id={`${id}-more`} className="mt-1 block text-sm text-slate-600">
          {hint}
        </span>
      )}
    </div>
  );
}
