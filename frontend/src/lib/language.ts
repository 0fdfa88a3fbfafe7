import { useTranslation } from 'react-i18next';
import type { Language } from '@furniture/contracts/enums';

/** The page language as one of the content languages (German until i18next knows better). */
export function toLanguage(code: string | undefined): Language {
  return code === 'uk' ? 'uk' : 'de';
}

export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return toLanguage(i18n.resolvedLanguage ?? i18n.language);
}

/** Intl locale of a page language (dates in de-DE or uk-UA, public-site §9). */
export const localeOf = (lang: Language) => (lang === 'uk' ? 'uk-UA' : 'de-DE');
