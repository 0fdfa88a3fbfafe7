import {
  addDays,
  berlinDay,
  berlinIso,
  formatDayLong,
  formatTime,
  groupByDay,
  weekdayOf,
} from '../berlin-time';

/** Slot grouping and Berlin times (issue 29): the day is Berlin's, whatever the test machine's. */
describe('Berlin days and slot grouping', () => {
  test('when a moment is late in the UTC evening, then its day is the next day in Berlin', () => {
    // 22:30 UTC is 00:30 in Berlin in summer (UTC+2) and 23:30 in winter (UTC+1)
    expect(berlinDay('2026-05-11T22:30:00Z')).toBe('2026-05-12');
    expect(berlinDay('2026-01-11T22:30:00Z')).toBe('2026-01-11');
    expect(berlinDay('not a date')).toBe('');
  });

  test('when slots come in any order over several days, then they are grouped by Berlin day in time order', () => {
    const slots = [
      { id: 1, starts_at: '2026-05-12T14:00:00+02:00' },
      { id: 2, starts_at: '2026-05-11T22:30:00Z' }, // 00:30 on the 12th in Berlin
      { id: 3, starts_at: '2026-05-11T10:00:00+02:00' },
      { id: 4, starts_at: '2026-05-12T09:00:00+02:00' },
      { id: 5, starts_at: '2026-05-14T09:00:00+02:00' },
    ];
    expect(groupByDay(slots).map((g) => [g.day, g.items.map((s) => s.id)])).toEqual([
      ['2026-05-11', [3]],
      ['2026-05-12', [2, 4, 1]],
      ['2026-05-14', [5]],
    ]);
    expect(groupByDay([])).toEqual([]);
  });

  test('when a Berlin wall time is sent, then it carries the offset of that day (summer and winter)', () => {
    expect(berlinIso('2026-05-12', '10:00')).toBe('2026-05-12T10:00:00+02:00');
    expect(berlinIso('2026-01-12', '10:00')).toBe('2026-01-12T10:00:00+01:00');
    // the morning the clocks go forward (29 March 2026, 02:00 → 03:00)
    expect(berlinIso('2026-03-29', '09:00')).toBe('2026-03-29T09:00:00+02:00');
    expect(berlinIso('2026-10-25', '09:00')).toBe('2026-10-25T09:00:00+01:00');
    expect(berlinIso('2026-13-01', '09:00')).toBeNull();
    expect(berlinIso('2026-05-12', '9 Uhr')).toBeNull();
    // and it reads back as the same Berlin time
    expect(formatTime(berlinIso('2026-05-12', '10:00')!, 'de')).toBe('10:00');
  });

  test('when days are counted, then months, years and weekdays roll over', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(weekdayOf('2026-05-11')).toBe(1);
    expect(weekdayOf('2026-05-17')).toBe(7);
  });

  test('when a day heading is written, then it is German or Ukrainian', () => {
    expect(formatDayLong('2026-05-12', 'de')).toBe('Dienstag, 12. Mai 2026');
    expect(formatDayLong('2026-05-12', 'uk')).toMatch(/^вівторок, 12 травня 2026/);
    expect(formatTime('2026-05-12T08:05:00Z', 'uk')).toBe('10:05');
  });
});
