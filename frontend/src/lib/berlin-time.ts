import type { Language } from '@furniture/contracts/enums';
import { localeOf } from './language';

/*
 * Handover times (issue 29) are shown as the team plans them: in Europe/Berlin, whatever time
 * zone the phone or the laptop is set to, in de-DE or uk-UA. Days (`YYYY-MM-DD`) are days in
 * Europe/Berlin, as the API takes and answers them.
 */
export const BERLIN = 'Europe/Berlin';

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const pad = (n: number) => String(n).padStart(2, '0');

const dayParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: BERLIN,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The day (YYYY-MM-DD) in Berlin of a moment; '' for an unreadable one. */
export function berlinDay(moment: string | Date): string {
  const date = typeof moment === 'string' ? new Date(moment) : moment;
  if (Number.isNaN(date.getTime())) return '';
  const parts = Object.fromEntries(dayParts.formatToParts(date).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Today in Berlin. */
export function todayInBerlin(now = new Date()): string {
  return berlinDay(now);
}

/** A day plus `n` days (calendar days, no time zone involved). */
export function addDays(day: string, n: number): string {
  const match = DAY_RE.exec(day);
  if (!match) return day;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + n));
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** The ISO weekday of a day: 1 = Monday … 7 = Sunday. */
export function weekdayOf(day: string): number {
  const match = DAY_RE.exec(day);
  if (!match) return 0;
  const d = new Date(
    Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])),
  ).getUTCDay();
  return d === 0 ? 7 : d;
}

/** Minutes Berlin is ahead of UTC at a moment (60 in winter, 120 in summer). */
function berlinOffsetMinutes(utcMs: number): number {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone: BERLIN, timeZoneName: 'longOffset' })
      .formatToParts(new Date(utcMs))
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * A Berlin wall-clock time as ISO 8601 with its offset: ('2026-05-12', '10:00') →
 * '2026-05-12T10:00:00+02:00'. What the slot form sends; null for an unreadable day or time.
 */
export function berlinIso(day: string, time: string): string | null {
  const d = DAY_RE.exec(day);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t || Number(t[1]) > 23 || Number(t[2]) > 59) return null;
  const wall = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  // a day the calendar does not have (2026-13-01, 2026-02-30)
  if (addDays(day, 0) !== day) return null;
  // the offset at the moment itself: guess with the wall time, then correct once
  let offset = berlinOffsetMinutes(wall);
  offset = berlinOffsetMinutes(wall - offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${day}T${time}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const valid = (iso: string): Date | null => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** 10:00 */
export function formatTime(iso: string, lang: Language): string {
  const date = valid(iso);
  if (!date) return iso;
  return new Intl.DateTimeFormat(localeOf(lang), {
    timeZone: BERLIN,
    hour: '2-digit',
    minute: '2-digit',
  }).format(date);
}

/** A day heading: "Dienstag, 12. Mai 2026" / "вівторок, 12 травня 2026 р.". */
export function formatDayLong(day: string, lang: Language): string {
  const match = DAY_RE.exec(day);
  if (!match) return day;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12));
  return new Intl.DateTimeFormat(localeOf(lang), {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(date);
}

/** A day as 12.05.2026. */
export function formatDayShort(day: string, lang: Language): string {
  const match = DAY_RE.exec(day);
  if (!match) return day;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12));
  return new Intl.DateTimeFormat(localeOf(lang), {
    timeZone: 'UTC',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(date);
}

/** 12.05.2026, 10:00 */
export function formatDateTimeBerlin(iso: string, lang: Language): string {
  const date = valid(iso);
  if (!date) return iso;
  return new Intl.DateTimeFormat(localeOf(lang), {
    timeZone: BERLIN,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(date);
}

/** 10:00–11:00 */
export function formatTimeRange(startsAt: string, endsAt: string, lang: Language): string {
  return `${formatTime(startsAt, lang)}–${formatTime(endsAt, lang)}`;
}

/** "Dienstag, 12. Mai 2026, 10:00–11:00": a slot in one line. */
export function formatSlot(startsAt: string, endsAt: string, lang: Language): string {
  return `${formatDayLong(berlinDay(startsAt), lang)}, ${formatTimeRange(startsAt, endsAt, lang)}`;
}

/** Items with a start time, grouped by their day in Berlin: days in order, each day's by time. */
export function groupByDay<T extends { starts_at: string }>(
  items: readonly T[],
): { day: string; items: T[] }[] {
  const sorted = [...items].sort((a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at));
  const groups: { day: string; items: T[] }[] = [];
  for (const item of sorted) {
    const day = berlinDay(item.starts_at);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.items.push(item);
    else groups.push({ day, items: [item] });
  }
  return groups;
}
