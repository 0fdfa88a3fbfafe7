/**
 * Date filters of the lot list. A calendar day (YYYY-MM-DD) is a day in Germany, where the
 * volunteers are: date_from starts at its midnight, date_to includes the whole day. A full
 * ISO date-time is taken as it is (date_to inclusive).
 */
const TIME_ZONE = 'Europe/Berlin';
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

const parts = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Offset of German local time from UTC at an instant, in ms (+1 h in winter, +2 h in summer). */
function offsetAt(instant: number): number {
  const p = Object.fromEntries(
    parts.formatToParts(new Date(instant)).map((x) => [x.type, Number(x.value)]),
  ) as Record<string, number>;
  const local = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return local - Math.floor(instant / 1000) * 1000;
}

/** The instant German local midnight of a day begins (day may overflow: 32 = next month). */
function germanMidnight(year: number, month: number, day: number): Date {
  const utc = Date.UTC(year, month - 1, day);
  let t = utc - offsetAt(utc);
  t = utc - offsetAt(t); // the offset at the result itself (DST switches at night)
  return new Date(t);
}

export function dateRange(
  from?: string,
  to?: string,
): { createdFrom?: Date; createdBefore?: Date } {
  const out: { createdFrom?: Date; createdBefore?: Date } = {};
  if (from) {
    const m = DATE_ONLY.exec(from);
    out.createdFrom = m ? germanMidnight(+m[1]!, +m[2]!, +m[3]!) : new Date(from);
  }
  if (to) {
    const m = DATE_ONLY.exec(to);
    out.createdBefore = m
      ? germanMidnight(+m[1]!, +m[2]!, +m[3]! + 1)
      : new Date(new Date(to).getTime() + 1);
  }
  return out;
}
