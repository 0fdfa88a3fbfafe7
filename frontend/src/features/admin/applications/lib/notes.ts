import { parseNoteLine, type NoteLineParts } from '@furniture/contracts/notes';

/** "DD.MM.YYYY HH:mm" as a sortable number (0 when it is not one). */
function sortKey(timestamp: string): number {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})\s+(\d{2}):(\d{2})/.exec(timestamp);
  return m ? Number(`${m[3]}${m[2]}${m[1]}${m[4]}${m[5]}`) : 0;
}

/**
 * The internal notes (one line per entry, "[date time] role: email | action | comment", oldest
 * first as stored) parsed into their parts, newest first. Lines of another shape are all comment.
 */
export function parseNotes(internalNotes: string | null | undefined): NoteLineParts[] {
  const lines = (internalNotes ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return lines
    .map((line, index) => ({ ...parseNoteLine(line), index }))
    .sort((a, b) => sortKey(b.timestamp) - sortKey(a.timestamp) || b.index - a.index)
    .map(({ index: _index, ...note }) => note);
}

/** One note line as back-office §7 sends it; the server keeps the comment and writes the rest itself. */
export function noteLine(opts: {
  now: Date;
  role: string;
  email: string;
  action: string;
  comment: string;
}): string {
  const parts = new Intl.DateTimeFormat('de-DE', {
    timeZone: 'Europe/Berlin',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(opts.now);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  const stamp = `${part('day')}.${part('month')}.${part('year')} ${part('hour')}:${part('minute')}`;
  const comment = opts.comment.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  return `[${stamp}] ${opts.role}: ${opts.email} | ${opts.action} | ${comment}`;
}
