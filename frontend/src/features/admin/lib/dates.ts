import type { Language } from '@furniture/contracts/enums';
import { localeOf } from '../../../lib/language';

const valid = (iso: string | null | undefined): Date | null => {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** A date (and time) in de-DE or uk-UA, e.g. 03.02.2026, 14:05. */
export function formatDate(
  iso: string | null | undefined,
  lang: Language,
  withTime = true,
): string {
  const date = valid(iso);
  if (!date) return iso ?? '';
  return new Intl.DateTimeFormat(localeOf(lang), {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    ...(withTime ? { hour: '2-digit', minute: '2-digit' } : {}),
  }).format(date);
}

/**
 * How long ago, as the applications screen says it: 'vor 3 Tagen', 'vor 2 Std.', 'vor 5 Min.'
 * (Intl.RelativeTimeFormat), or null under a minute ('gerade eben', which the caller translates).
 */
export function relativeAge(
  iso: string | null | undefined,
  lang: Language,
  now = Date.now(),
): string | null {
  const date = valid(iso);
  if (!date) return '';
  const minutes = Math.floor((now - date.getTime()) / 60000);
  if (minutes < 1) return null;
  const format = new Intl.RelativeTimeFormat(localeOf(lang), { numeric: 'always', style: 'short' });
  if (minutes < 60) return format.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return format.format(-hours, 'hour');
  return format.format(-Math.floor(hours / 24), 'day');
}

/** YYYY-MM-DD of a date-time in the browser's time zone (for date filters). */
export function dayOf(iso: string): string {
  const date = valid(iso);
  if (!date) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A calendar day (YYYY-MM-DD, as pickup dates are kept) in de-DE or uk-UA: 01.12.2026. */
export function formatDay(day: string | null | undefined, lang: Language): string {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return day ?? '';
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(localeOf(lang), {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** Today plus `days` as YYYY-MM-DD in the browser's time zone (the date input's value). */
export function dayFromToday(days: number, now = new Date()): string {
  const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
