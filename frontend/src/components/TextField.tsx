import { useId, type ComponentProps, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface FieldFrameProps {
  label: ReactNode;
  required?: boolean;
  error?: string;
  hint?: ReactNode;
}

/** Label, the control, a hint and the error, with the ids that tie them together. */
function useFieldIds(error?: string, hint?: ReactNode) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ');
  return { id, errorId, hintId, describedBy: describedBy || undefined };
}

function Label({
  htmlFor,
  label,
  required,
}: {
  htmlFor: string;
  label: ReactNode;
  required?: boolean;
}) {
  const { t } = useTranslation('common');
  return (
    <label htmlFor={htmlFor} className="field-label">
      {label}
      {required ? (
        <span className="text-red-800" aria-hidden="true">
          {' '}
          *
        </span>
      ) : (
        <span className="font-normal text-slate-600"> ({t('form.optional')})</span>
      )}
    </label>
  );
}

function Messages({
  error,
  errorId,
  hint,
  hintId,
}: {
  error?: string;
  errorId: string;
  hint?: ReactNode;
  hintId: string;
}) {
  return (
    <>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </>
  );
}

export function TextField({
  label,
  required,
  error,
  hint,
  className = '',
  ...input
}: FieldFrameProps & ComponentProps<'input'>) {
  const ids = useFieldIds(error, hint);
  return (
    <div className={className}>
      <Label htmlFor={ids.id} label={label} required={required} />
      <input
        id={ids.id}
        className="field-input"
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={ids.describedBy}
        {...input}
      />
      <Messages error={error} errorId={ids.errorId} hint={hint} hintId={ids.hintId} />
    </div>
  );
}

export function TextAreaField({
  label,
  required,
  error,
  hint,
  className = '',
  ...textarea
}: FieldFrameProps & ComponentProps<'textarea'>) {
  const ids = useFieldIds(error, hint);
  return (
    <div className={className}>
      <Label htmlFor={ids.id} label={label} required={required} />
      <textarea
        id={ids.id}
        className="field-input min-h-28"
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={ids.describedBy}
        {...textarea}
      />
      <Messages error={error} errorId={ids.errorId} hint={hint} hintId={ids.hintId} />
    </div>
  );
}

export function SelectField({
  label,
  required,
  error,
  hint,
  className = '',
  children,
  ...select
}: FieldFrameProps & ComponentProps<'select'>) {
  const ids = useFieldIds(error, hint);
  return (
    <div className={className}>
      <Label htmlFor={ids.id} label={label} required={required} />
      <select
        id={ids.id}
        className="field-input"
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        aria-describedby={ids.describedBy}
        {...select}
      >
        {children}
      </select>
      <Messages error={error} errorId={ids.errorId} hint={hint} hintId={ids.hintId} />
    </div>
  );
}

/** The hidden field bots fill in (services' honeypot `website`); people never see it. */
export function HoneypotField({
  value,
  onChange,
}: {
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label>
        Website
        <input
          type="text"
          name="website"
          tabIndex={-1}
          autoComplete="off"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
    </div>
  );
}
