import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { normalizePhoneInput } from './phone';

/** Numbers without a country code are read as German (most families live in Germany). */
const DEFAULT_REGION = 'DE';

/**
 * A phone number in E.164, so that 0176 1234567, +49 176 1234567 and 0049 176 1234567 are one
 * person; Ukrainian and other international numbers keep their country code. Digits without "+"
 * or a leading 0 that only make sense as an international number (380…, 49176…) get the "+" they
 * lack, as the back-office's WhatsApp links do. null when no number can be made of it. (The
 * servers' key of families and donors; in its own module so that the SPA, which never calls it,
 * does not load libphonenumber's full metadata.)
 */
export function toE164(raw: string): string | null {
  const input = normalizePhoneInput(raw);
  if (input.replace('+', '').length === 0) return null;
  if (input.startsWith('+')) {
    const intl = parsePhoneNumberFromString(input);
    return intl?.isPossible() ? intl.number : null;
  }
  const national = parsePhoneNumberFromString(input, DEFAULT_REGION);
  if (!input.startsWith('0') && !national?.isValid()) {
    const intl = parsePhoneNumberFromString(`+${input}`);
    if (intl?.isValid()) return intl.number;
  }
  return national?.isPossible() ? national.number : null;
}

/** The country (ISO 3166-1 alpha-2, e.g. DE) of a number in E.164, or null when none fits. */
export function countryOfE164(e164: string): string | null {
  return parsePhoneNumberFromString(e164)?.country ?? null;
}
