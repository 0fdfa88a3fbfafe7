import i18next, { type InitOptions, type Resource } from 'i18next';
import HttpBackend from 'i18next-http-backend';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { env } from '../config/env';
import {
  FALLBACK_LANGUAGE,
  detectionOptions,
  SUPPORTED_LANGUAGES,
  isAppLanguage,
  type AppLanguage,
} from './languages';

export {
  FALLBACK_LANGUAGE,
  detectionOptions,
  SUPPORTED_LANGUAGES,
  isAppLanguage,
  toAppLanguage,
  type AppLanguage,
} from './languages';

/** Namespaces of the public site; the back-office loads its own ('admin') when it needs it. */
export const PUBLIC_NAMESPACES = ['common', 'public'] as const;

/** The one i18next instance of the app (the base query reads its language for Accept-Language). */
export const i18n = i18next.createInstance();

/** The current language as one of ours (the fallback before init). */
export function currentLanguage(): AppLanguage {
  const lng = i18n.resolvedLanguage ?? i18n.language;
  return isAppLanguage(lng) ? lng : FALLBACK_LANGUAGE;
}

function syncHtmlLang(lng: string | undefined) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = isAppLanguage(lng) ? lng : FALLBACK_LANGUAGE;
}

/** i18next options of the site; `resources` replaces the HTTP backend (tests). */
export function i18nOptions(resources?: Resource): InitOptions {
  return {
    supportedLngs: [...SUPPORTED_LANGUAGES],
    fallbackLng: FALLBACK_LANGUAGE,
    load: 'languageOnly',
    ns: [...PUBLIC_NAMESPACES],
    defaultNS: 'common',
    fallbackNS: 'common',
    detection: detectionOptions,
    // loading of the translation files on slow connections (public-site §9)
    maxParallelReads: 10,
    maxRetries: 5,
    retryTimeout: 350,
    backend: resources ? undefined : { loadPath: env.localesPath },
    resources,
    initAsync: !resources,
    interpolation: { escapeValue: false },
    react: { useSuspense: true },
  };
}

/**
 * Starts the app's i18next. In the browser the files come from /locales over HTTP; tests pass
 * `resources` and get a synchronous init with the same detection and language rules.
 */
export function initI18n(opts: { resources?: Resource } = {}) {
  if (!i18n.isInitialized) {
    i18n.on('languageChanged', syncHtmlLang);
    i18n.use(LanguageDetector).use(initReactI18next);
    if (!opts.resources) i18n.use(HttpBackend);
  }
  return i18n.init(i18nOptions(opts.resources));
}
