import type { Actor, ApplicationNote, ApplicationStatus } from '@furniture/contracts';
import { parseNoteLine } from '@furniture/contracts';

/** Who a note line names: the staff member from the token, or the service itself. */
export interface NoteAuthor {
  role: string;
  email: string;
}

export const SYSTEM_AUTHOR: NoteAuthor = { role: 'system', email: 'system' };
export const authorOf = (actor: Actor): NoteAuthor => ({ role: actor.role, email: actor.email });

const berlin = new Intl.DateTimeFormat('de-DE', {
  timeZone: 'Europe/Berlin',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "DD.MM.YYYY HH:mm" in Berlin time (the staff's clock, summer time included). */
export function berlinTimestamp(at: Date): string {
  const part = Object.fromEntries(berlin.formatToParts(at).map((p) => [p.type, p.value]));
  return `${part.day}.${part.month}.${part.year} ${part.hour}:${part.minute}`;
}

const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ').trim();

/**
 * One note line "[DD.MM.YYYY HH:mm] role: email | action | comment", built from the server's
 * clock and the token's role and e-mail, never from what a client claims.
 */
export function noteLine(author: NoteAuthor, action: string, comment: string, at = new Date()) {
  const safe = (s: string) => oneLine(s).replace(/\|/g, '/');
  return `[${berlinTimestamp(at)}] ${safe(author.role)}: ${safe(author.email)} | ${safe(action)} | ${oneLine(comment)}`;
}

export function parseNotes(lines: string[]): ApplicationNote[] {
  return lines.map((line) => ({ ...parseNoteLine(line), line }));
}

/** German labels (the back-office's main language) for automatic note texts. */
export const statusLabelDe: Record<ApplicationStatus, string> = {
  pending: 'Ausstehend',
  approved: 'Genehmigt',
  rejected: 'Abgelehnt',
  completed: 'Abgeschlossen',
};
