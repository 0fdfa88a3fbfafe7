/**
 * Calendar days of a time zone: staff in Germany who pick "1 March" mean 1 March in Berlin, not in
 * UTC. Used by the date filters of the lot list and of the activity log, and by the CSV export.
 */
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  const f =
    formatters.get(timeZone) ??
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  formatters.set(timeZone, f);
  return f;
}

/** Wall-clock fields of an instant in a time zone. */
function wallClock(at: Date, timeZone: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of partsFormatter(timeZone).formatToParts(at)) {
    if (p.type !== 'literal') out[p.type] = Number(p.value);
  }
  return out;
}

/** Offset of a time zone from UTC at an instant, in ms (Berlin in summer: +2 h). */
function offsetMs(at: Date, timeZone: string): number {
  const w = wallClock(at, timeZone);
  const asUtc = Date.UTC(w.year!, w.month! - 1, w.day!, w.hour!, w.minute!, w.second!);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant a calendar day starts in a time zone. */
function startOfDay(y: number, m: number, d: number, timeZone: string): Date {
  const midnightUtc = Date.UTC(y, m - 1, d);
  let guess = midnightUtc;
  // twice: the offset at the guess may differ from the offset at the answer (DST changes)
  for (let i = 0; i < 2; i++) guess = midnightUtc - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

/** `date_from`: a day starts at its midnight; a date-time is taken as it is. */
export function rangeStart(value: string, timeZone: string): Date {
  const day = DAY.exec(value);
  if (!day) return new Date(value);
  return startOfDay(Number(day[1]), Number(day[2]), Number(day[3]), timeZone);
}

/** `date_to`, inclusive, as an exclusive end: the next day's midnight, or the instant + 1 ms. */
export function rangeEnd(value: string, timeZone: string): Date {
  const day = DAY.exec(value);
  if (!day) return new Date(new Date(value).getTime() + 1);
  const next = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]) + 1));
  return startOfDay(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone);
}

const two = (n: number | undefined) => String(n).padStart(2, '0');

/** "22.11.2026 13:05:09" in the office's time zone (what a German spreadsheet reads as a date). */
export function formatLocal(at: Date, timeZone: string): string {
  const w = wallClock(at, timeZone);
  return `${two(w.day)}.${two(w.month)}.${w.year} ${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
}

/** "2026-11-22" in the office's time zone. */
export function localDay(at: Date, timeZone: string): string {
  const w = wallClock(at, timeZone);
  return `${w.year}-${two(w.month)}-${two(w.day)}`;
}

/** The instant of a wall-clock time ("HH:mm") on a calendar day in a time zone. */
export function localInstant(day: string, time: string, timeZone: string): Date {
  const d = DAY.exec(day);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) throw new Error(`not a day and time: ${day} ${time}`);
  const wall = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  let guess = wall;
  // twice: the offset at the guess may differ from the offset at the answer (DST changes)
  for (let i = 0; i < 2; i++) guess = wall - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}
