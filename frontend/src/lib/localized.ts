import type { Language } from '@furniture/contracts/enums';

export interface LocalizedText {
  de: string;
  uk: string;
}

/**
 * A {de, uk} text in the page language. Staff must write German and may leave Ukrainian empty,
 * so an empty text falls back to the other language; `lang` says which one it is, for the
 * element's lang attribute (screen readers pronounce it right).
 */
export function localize(
  text: Partial<LocalizedText> | null | undefined,
  lang: Language,
): { text: string; lang: Language } {
  const own = text?.[lang]?.trim();
  if (own) return { text: own, lang };
  const other: Language = lang === 'de' ? 'uk' : 'de';
  const fallback = text?.[other]?.trim();
  return fallback ? { text: fallback, lang: other } : { text: '', lang };
}

/** Reads a {de, uk} value from an answer, tolerating missing parts. */
export function toLocalizedText(value: unknown): LocalizedText {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return {
    de: typeof v.de === 'string' ? v.de : '',
    uk: typeof v.uk === 'string' ? v.uk : '',
  };
}
