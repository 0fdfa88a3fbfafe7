/**
 * The hand-written iCalendar of the handover (issue 29): what calendar apps need to read it
 * (RFC 5545): CRLF lines of at most 75 octets, escaped texts, UTC times, a cancelled stop marked.
 */
import { calendar, escapeText, fold } from '../src/domain/ical';

test('when texts hold separators and line breaks, then they are escaped', () => {
  expect(escapeText('Lager, Hof; 2.\\OG\nklingeln')).toBe('Lager\\, Hof\\; 2.\\\\OG\\nklingeln');
});

test('when a line is longer than 75 octets, then it is folded without splitting a character', () => {
  const line = `SUMMARY:${'Шафа біла '.repeat(12)}`;
  const folded = fold(line);
  const parts = folded.split('\r\n');
  expect(parts.length).toBeGreaterThan(1);
  for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
  expect(parts.map((p, i) => (i === 0 ? p : p.slice(1))).join('')).toBe(line);
});

test('when a calendar is written, then it has its frame, UTC times and the status of each event', () => {
  const text = calendar({
    name: 'Möbelbrücke',
    now: new Date('2026-11-24T09:00:00Z'),
    events: [
      {
        uid: 'handover-1@moebelbruecke',
        start: new Date('2026-11-27T09:00:00Z'),
        end: new Date('2026-11-27T10:00:00Z'),
        summary: 'Abholung · Bewerbung #12',
      },
      {
        uid: 'handover-2@moebelbruecke',
        start: new Date('2026-11-28T09:00:00Z'),
        end: new Date('2026-11-28T10:00:00Z'),
        summary: 'Lieferung',
        cancelled: true,
      },
    ],
  });
  expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
  expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
  expect(text).toContain('DTSTART:20261127T090000Z\r\nDTEND:20261127T100000Z');
  expect(text).toContain('DTSTAMP:20261124T090000Z');
  expect(text.match(/STATUS:CONFIRMED/g)).toHaveLength(1);
  expect(text.match(/STATUS:CANCELLED/g)).toHaveLength(1);
  expect(text.split('\r\n').every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
});
