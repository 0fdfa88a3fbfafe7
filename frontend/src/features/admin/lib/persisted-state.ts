import { useCallback, useState } from 'react';

/**
 * Filter state kept in local storage under a fixed name (back-office §9: lot-management,
 * activity-log, category-management), so a volunteer finds the list as they left it. Stored
 * values are merged over the defaults: a field added later gets its default.
 */
export function usePersistedState<T extends object>(
  name: string,
  defaults: T,
): [T, (change: Partial<T> | ((current: T) => T)) => void, () => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const stored: unknown = JSON.parse(localStorage.getItem(name) ?? 'null');
      return stored && typeof stored === 'object'
        ? { ...defaults, ...(stored as Partial<T>) }
        : defaults;
    } catch {
      return defaults;
    }
  });
  const update = useCallback(
    (change: Partial<T> | ((current: T) => T)) => {
      setValue((current) => {
        const next = typeof change === 'function' ? change(current) : { ...current, ...change };
        try {
          localStorage.setItem(name, JSON.stringify(next));
        } catch {
          // storage full or blocked: the filters still work for this visit
        }
        return next;
      });
    },
    [name],
  );
  const reset = useCallback(() => update(() => defaults), [update, defaults]);
  return [value, update, reset];
}
