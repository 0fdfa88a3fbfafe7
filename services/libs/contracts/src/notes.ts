/**
 * An application's internal notes: one line per entry, "[DD.MM.YYYY HH:mm] role: email | action |
 * comment" (back-office §7). Kept free of zod so that the back-office chunk reading notes stays
 * small (`@furniture/contracts/notes`).
 */

/** One note line's parts. */
export interface NoteLineParts {
  /** "DD.MM.YYYY HH:mm", Europe/Berlin */
  timestamp: string;
  role: string;
  email: string;
  action: string;
  comment: string;
}

const NOTE_LINE = /^\[([^\]]*)\]\s*([^:|]*):\s*([^|]*?)\s*\|\s*([^|]*?)\s*\|\s?([\s\S]*)$/;

/** The parts of a note line of the stored shape; null for a line of another shape. */
export function matchNoteLine(line: string): NoteLineParts | null {
  const m = NOTE_LINE.exec(line);
  if (!m) return null;
  return {
    timestamp: m[1]!.trim(),
    role: m[2]!.trim(),
    email: m[3]!.trim(),
    action: m[4]!.trim(),
    comment: m[5]!.trim(),
  };
}

/** Splits one stored note line into its parts (a line of another shape is all comment). */
export function parseNoteLine(line: string): NoteLineParts {
  return matchNoteLine(line) ?? { timestamp: '', role: '', email: '', action: '', comment: line };
}
