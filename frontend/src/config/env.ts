/**
 * Build-time settings of the SPA. Vite injects `__APP_ENV__` (see vite.config.ts) from VITE_*
 * variables; jest runs CommonJS, where `import.meta.env` does not exist, so the settings travel
 * as one defined constant and fall back to the defaults below. Parsed by hand rather than with
 * zod: this module is part of the home page's first download.
 */
declare const __APP_ENV__: Partial<Record<string, string>> | undefined;

const raw: Partial<Record<string, string>> = typeof __APP_ENV__ === 'undefined' ? {} : __APP_ENV__;

function text(key: string, fallback: string): string {
  const value = raw[key]?.trim();
  return value ? value : fallback;
}

function wholeNumber(key: string, fallback: number): number {
  const value = Number(raw[key]?.trim());
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

export const env = {
  /** prefix of every API call (the gateway's /api/v1) */
  apiBaseUrl: text('VITE_API_BASE_URL', '/api/v1').replace(/\/+$/, ''),
  /** where the translation files are served from */
  localesPath: text('VITE_LOCALES_PATH', '/locales/{{lng}}/{{ns}}.json'),
  /** contact block of the footer, the lot page and the terms page (placeholders by default) */
  contactPhone: text('VITE_CONTACT_PHONE', '+49 (0) 000 000 00 00'),
  contactEmail: text('VITE_CONTACT_EMAIL', 'kontakt@moebelbruecke.example'),
  privacyEmail: text('VITE_PRIVACY_EMAIL', 'datenschutz@moebelbruecke.example'),
  /**
   * the retention period the privacy page states: set it with the applications service's
   * PERSONAL_DATA_RETENTION_DAYS (180 by default, Limits.personalDataRetentionDays)
   */
  retentionDays: wholeNumber('VITE_PERSONAL_DATA_RETENTION_DAYS', 180),
  /** the footer's city line; empty means the translated default ("Germany") */
  contactCity: text('VITE_CONTACT_CITY', ''),
  /** the platform's version, the root package.json's (vite.config.ts), shown in the back-office */
  version: text('APP_VERSION', 'dev'),
} as const;

/** The contact phone as a tel: link (digits and a leading plus). */
export const contactPhoneHref = `tel:${env.contactPhone.replace(/[^\d+]/g, '')}`;
