import { useTranslation } from 'react-i18next';
import { Limits } from '@furniture/contracts/limits';

/** The note of a staff action on an application: its label, the counter and the problem. */
export function NoteField({
  id,
  value,
  onChange,
  problem,
  required = false,
  rows = 3,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  problem: string | null;
  required?: boolean;
  rows?: number;
}) {
  const { t } = useTranslation('admin');
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {required ? t('applications.noteRequiredLabel') : t('applications.noteOptionalLabel')}
      </label>
      <textarea
        id={id}
        className="field-input min-h-20"
        rows={rows}
        maxLength={Limits.notesMax}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-count`}
        onChange={(e) => onChange(e.target.value)}
      />
      <div className="mt-1 flex justify-between gap-2 text-sm">
        <span className="font-medium text-red-800">{problem}</span>
        <span id={`${id}-count`} className="text-slate-600">
          {t('applications.noteCounter', { n: value.length, max: Limits.notesMax })}
        </span>
      </div>
    </div>
  );
}
