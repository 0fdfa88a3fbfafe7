import { Limits } from './limits';

/**
 * The spec's client-side phone rule (public-site §5): optional leading plus, then digits,
 * spaces, hyphens or brackets; 7 to 20 characters.
 */
export const PHONE_PATTERN = /^\+?[\d\s\-()]{7,20}$/;

export function isPhoneShaped(value: string): boolean {
  const v = value.trim();
  return v.length >= Limits.phoneMin && v.length <= Limits.phoneMax && PHONE_PATTERN.test(v);
}

/** Phone normalising as the public client does it: keeps only digits and a leading plus. */
export function normalizePhoneInput(value: string): string {
  const trimmed = value.trim();
  const digits = trimmed.replace(/\D/g, '');
  return trimmed.startsWith('+') ? `+${digits}` : digits;
}
