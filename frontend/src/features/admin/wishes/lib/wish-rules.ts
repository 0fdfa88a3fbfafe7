import { WishTransitions, type WishStatus } from '@furniture/contracts/enums';

/** The statuses a wish may move to (back-office §4): fulfilled is final. */
export function allowedNextStatuses(current: WishStatus): readonly WishStatus[] {
  return WishTransitions[current] ?? [];
}

/** Saving needs a change of status (to an allowed one) or of the notes (back-office §5). */
export function canSaveWish(opts: {
  current: WishStatus;
  chosen: WishStatus;
  notes: string;
  savedNotes: string | null;
}): boolean {
  const statusChanged = opts.chosen !== opts.current;
  if (statusChanged && !allowedNextStatuses(opts.current).includes(opts.chosen)) return false;
  if (opts.current === 'fulfilled') return false;
  return statusChanged || opts.notes.trim() !== (opts.savedNotes ?? '').trim();
}

/** A text cut to `max` characters with an ellipsis (wish list: 50 for the text, 40 for contact). */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}
