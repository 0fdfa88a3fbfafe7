/** Old and new values of the fields a change touches (for events and the activity log). */
export function changesOf<T extends object>(
  before: T,
  set: Partial<T>,
  hidden: readonly string[] = ['password_hash'],
): Record<string, { old: unknown; new: unknown }> {
  const out: Record<string, { old: unknown; new: unknown }> = {};
  for (const [key, value] of Object.entries(set)) {
    const old = (before as Record<string, unknown>)[key];
    if (hidden.includes(key)) out[key.replace(/_hash$/, '')] = { old: '***', new: '***' };
    else if (old !== value) out[key] = { old, new: value };
  }
  return out;
}
