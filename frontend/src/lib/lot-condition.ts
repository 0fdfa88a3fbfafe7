/**
 * The conditions a lot is described with, stored by these keys and shown translated. Lots from
 * before the choice keep their free text: a few common German words are still recognised and
 * translated, anything else is shown as it was entered.
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
