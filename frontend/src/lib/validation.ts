import { isPhoneShaped } from '@furniture/contracts/phone';
import type { ApiFieldError } from '../app/api';

/** A field's problem as a message key of common:validation (with its count). */
export interface FieldProblem {
  key: 'required' | 'tooShort' | 'tooLong' | 'invalidPhone' | 'invalidWhatsapp' | 'invalidEmail';
  count?: number;
}

export type FieldErrors<F extends string> = Partial<Record<F, FieldProblem | string>>;

/** Checks a trimmed text: required (or empty and optional), then its length. */
export function checkText(
  value: string,
  rules: { required?: boolean; min?: number; max?: number },
): FieldProblem | null {
  const v = value.trim();
  if (v === '') return rules.required ? { key: 'required' } : null;
  if (rules.min !== undefined && v.length < rules.min) return { key: 'tooShort', count: rules.min };
  if (rules.max !== undefined && v.length > rules.max) return { key: 'tooLong', count: rules.max };
  return null;
}

/** Phone and WhatsApp: optional plus, digits, spaces, hyphens, brackets; 7 to 20 characters. */
export function checkPhone(
  value: string,
  rules: { required?: boolean; kind?: 'phone' | 'whatsapp' } = {},
): FieldProblem | null {
  const v = value.trim();
  if (v === '') return rules.required ? { key: 'required' } : null;
  if (!isPhoneShaped(v))
    return { key: rules.kind === 'whatsapp' ? 'invalidWhatsapp' : 'invalidPhone' };
  return null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A simple e-mail shape (the server checks it properly). */
export function checkEmail(
  value: string,
  rules: { required?: boolean; max?: number } = {},
): FieldProblem | null {
  const v = value.trim();
  if (v === '') return rules.required ? { key: 'required' } : null;
  if (rules.max !== undefined && v.length > rules.max) return { key: 'tooLong', count: rules.max };
  if (!EMAIL.test(v)) return { key: 'invalidEmail' };
  return null;
}

/** The first field (in form order) that has an error. */
export function firstInvalid<F extends string>(
  order: readonly F[],
  errors: FieldErrors<F>,
): F | undefined {
  return order.find((field) => errors[field] !== undefined);
}

/**
 * Ties the entries of a 422 (`loc` ['body', server name]) to the form's fields; the first entry
 * per field wins. Each entry comes back with its field (undefined when it names none).
 */
export function serverFieldErrors<F extends string>(
  entries: ApiFieldError[],
  fields: Record<string, F>,
): { errors: FieldErrors<F>; named: { field: F | undefined; name: string; msg: string }[] } {
  const errors: FieldErrors<F> = {};
  const named = entries.map((entry) => {
    const name = entry.loc.filter((part) => part !== 'body').join('.');
    const field = fields[name];
    if (field && errors[field] === undefined) errors[field] = entry.msg;
    return { field, name, msg: entry.msg };
  });
  return { errors, named };
}
