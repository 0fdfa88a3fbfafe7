import type { Language } from '@furniture/contracts/enums';
import { localeOf } from './language';

/** A date and time as families read them: de-DE or uk-UA. */
export function formatDateTime(iso: string, lang: Language): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(localeOf(lang), {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(date);
}
