/**
 * Old and new values of the fields that differ, for events and the activity log. Masked fields
 * (a password hash) are reported as changed without their values, under their name without
 * `_hash`.
 */
export function changesOf<T extends object>(
  before: T,
  after: Partial<T>,
  keys: readonly (keyof T & string)[],
  opts: { masked?: readonly string[] } = {},
): Record<string, { old: unknown; new: unknown }> {
  const out: Record<string, { old: unknown; new: unknown }> = {};
  for (const key of keys) {
    if (!(key in after)) continue;
    const old = before[key];
    const value = after[key];
    if (JSON.stringify(old) === JSON.stringify(value)) continue;
    if (opts.masked?.includes(key)) out[key.replace(/_hash$/, '')] = { old: '***', new: '***' };
    else out[key] = { old, new: value };
  }
  return out;
}
