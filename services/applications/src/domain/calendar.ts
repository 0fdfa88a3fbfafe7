import { localDay } from '@furniture/platform/domain';

/**
 * Pickup dates are calendar days (YYYY-MM-DD) in the office's time zone: "until 5 December"
 * means until the end of that day in Berlin. The clock is injected, so tests set the day.
 */
export interface Calendar {
  now(): Date;
  timeZone: string;
}

/** Today in the office's time zone. */
export const today = (c: Calendar, at = c.now()): string => localDay(at, c.timeZone);

/** A day plus (or minus) whole days. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
