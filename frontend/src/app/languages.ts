/**
 * The site's languages and how the visitor's is detected. Kept free of imports: the boot script
 * (src/boot) detects the language by the same rules before i18next is loaded.
 */

/** The languages of the site; German is the default and the fallback (public-site §9). */
export const SUPPORTED_LANGUAGES = ['de', 'uk'] as const;
export type AppLanguage = (typeof SUPPORTED_LANGUAGES)[number];
export const FALLBACK_LANGUAGE: AppLanguage = 'de';

/**
 * 'uk-UA' → 'uk', 'de-AT' → 'de', and 'ua' (the country code many people type, and the label of
 * our switch) → 'uk'. Anything else stays as it is and is skipped as unsupported.
 */
export function toAppLanguage(code: string): string {
  const base = code.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return base === 'ua' ? 'uk' : base;
}

export function isAppLanguage(code: string | undefined): code is AppLanguage {
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(code ?? '');
}

/** Detection order and caching of public-site §9. */
export const detectionOptions = {
  order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
  lookupQuerystring: 'lng',
  lookupCookie: 'i18next',
  lookupLocalStorage: 'i18nextLng',
  lookupSessionStorage: 'i18nextLng',
  caches: ['localStorage'],
  convertDetectedLanguage: toAppLanguage,
};
