/**
 * The conditions a lot is described with. A lot's condition is free text (back-office §3); these
 * five are offered as suggestions and stored by their keys, so that each is shown translated.
 * Any other text is kept as entered; a few common German words of older lots are still
 * recognised and translated.
 */
export const LOT_CONDITIONS = ['new', 'like_new', 'very_good', 'good', 'worn'] as const;
export type LotCondition = (typeof LOT_CONDITIONS)[number];

const OLDER_WORDS: Record<string, LotCondition> = {
  neu: 'new',
  'wie neu': 'like_new',
  neuwertig: 'like_new',
  'sehr gut': 'very_good',
  gut: 'good',
  gebraucht: 'worn',
  'mit gebrauchsspuren': 'worn',
};

/** The known condition of a stored value, or null for free text. */
export function conditionOf(value: string): LotCondition | null {
  const trimmed = value.trim();
  if ((LOT_CONDITIONS as readonly string[]).includes(trimmed)) return trimmed as LotCondition;
  return OLDER_WORDS[trimmed.toLowerCase()] ?? null;
}

/** What a person reads for a stored condition: translated when known, else as entered. */
export function conditionText(value: string, t: (key: string) => string): string {
  const known = conditionOf(value);
  return known ? t(`common:lotCondition.${known}`) : value;
}

/** The form's text for a stored condition: a key's label, any other text as it is. */
export function conditionInput(value: string, t: (key: string) => string): string {
  const key = LOT_CONDITIONS.find((c) => c === value.trim());
  return key ? t(`common:lotCondition.${key}`) : value;
}

/** What the form stores for a typed text: the key when it is a suggestion's label exactly. */
export function conditionFromInput(text: string, t: (key: string) => string): string {
  const key = LOT_CONDITIONS.find((c) => t(`common:lotCondition.${c}`) === text.trim());
  return key ?? text;
}
