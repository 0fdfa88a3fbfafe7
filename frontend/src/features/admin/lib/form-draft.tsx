import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RotateCcw } from 'lucide-react';
import { useSession } from '../session';

/**
 * Drafts of the long staff forms (lot, category, user, notes; docs/decisions.md "Sessions"):
 * what is typed is kept in this tab's session storage under the staff member's id, so an ended
 * session (or a reload) never costs typed text: after the next login the form opens with the
 * draft and says so. Leaving the page with unsaved changes asks first. Session storage ends with
 * the tab, and a logout removes every draft (a shared computer keeps nothing).
 */
const PREFIX = 'draft:';

interface StoredDraft<T> {
  values: T;
  /** what the form was filled from (the version a save must send), see useFormDraft */
  meta?: unknown;
  savedAt: string;
}

function read<T>(key: string): StoredDraft<T> | null {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(key) ?? 'null') as StoredDraft<T> | null;
    return parsed && typeof parsed === 'object' && 'values' in parsed ? parsed : null;
  } catch {
    return null;
  }
}

function write<T>(key: string, values: T, meta: unknown) {
  try {
    sessionStorage.setItem(
      key,
      JSON.stringify({ values, meta, savedAt: new Date().toISOString() }),
    );
  } catch {
    // storage full or blocked: the form works, without a draft
  }
}

function remove(key: string) {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // nothing kept
  }
}

/** Every draft of this tab (at logout). */
export function clearAllDrafts(): void {
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith(PREFIX)) remove(key);
  } catch {
    // nothing kept
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export interface FormDraft {
  /** the form shows a draft of an earlier visit */
  restored: boolean;
  /** what is typed differs from what the form started with */
  dirty: boolean;
  /** back to what the form started with; the draft is gone */
  discard(): void;
  /** after a successful save: the draft is gone, leaving asks nothing */
  clear(): void;
}

/**
 * Keeps `values` as the draft `name` (e.g. 'lot:new', 'lot:12') while they differ from
 * `initial` (null while the form is still loading). A draft found when the form is ready is
 * handed to `restore`, with the `meta` it was kept with: an edit form keeps what it was filled
 * from there, so that a save of an old draft meets the version check (someone else's newer save
 * is never overwritten unseen). `omit` leaves fields out of the draft (a password).
 */
export function useFormDraft<T extends object, M = undefined>(opts: {
  name: string | null;
  values: T;
  initial: T | null;
  restore: (values: T, meta?: M) => void;
  meta?: M;
  omit?: readonly (keyof T)[];
}): FormDraft {
  const { t } = useTranslation('admin');
  const { user } = useSession();
  const key = opts.name && user ? `${PREFIX}${user.id}:${opts.name}` : null;
  const [restored, setRestored] = useState(false);
  const [cleared, setCleared] = useState(false);
  /** the key whose draft was looked for once the form was ready */
  const checked = useRef<string | null>(null);
  const { initial, values, restore, omit, meta } = opts;

  const kept = useCallback(
    (v: T): Partial<T> => {
      if (!omit?.length) return v;
      const copy: Partial<T> = { ...v };
      for (const field of omit) delete copy[field];
      return copy;
    },
    [omit],
  );

  const ready = key !== null && initial !== null;
  const dirty = ready && !cleared && !same(kept(values), kept(initial));

  // a draft of an earlier visit: restored once, when the form is ready
  useEffect(() => {
    if (!ready || checked.current === key) return;
    checked.current = key;
    const draft = read<T>(key);
    if (draft && !same(kept({ ...initial, ...draft.values }), kept(initial))) {
      restore({ ...initial, ...draft.values }, draft.meta as M | undefined);
      setRestored(true);
    }
  }, [ready, key, initial, kept, restore]);

  // the draft follows every change
  useEffect(() => {
    if (!ready || checked.current !== key || cleared) return;
    if (dirty) write(key, kept(values), meta);
    else remove(key);
  }, [ready, key, values, dirty, cleared, kept, meta]);

  // leaving with unsaved changes asks first: a reload or closing the tab (the browser's own
  // question), and the links of the back-office (ours)
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!link || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      if (link.getAttribute('target') === '_blank') return;
      if (window.confirm(t('drafts.leaveWarning'))) {
        if (key) remove(key);
        setCleared(true);
        return;
      }
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty, key, t]);

  const discard = useCallback(() => {
    if (key) remove(key);
    if (initial) restore(initial);
    setRestored(false);
  }, [key, initial, restore]);

  const clear = useCallback(() => {
    if (key) remove(key);
    setCleared(true);
  }, [key]);

  return { restored, dirty, discard, clear };
}

/** "Draft restored" with a button to throw it away. */
export function DraftNotice({ draft }: { draft: FormDraft }) {
  const { t } = useTranslation('admin');
  if (!draft.restored) return null;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-blue-300 bg-blue-50 p-3 text-blue-950"
    >
      <p>{t('drafts.restored')}</p>
      <button type="button" className="btn-secondary" onClick={draft.discard}>
        <RotateCcw aria-hidden="true" className="size-4" />
        {t('drafts.discard')}
      </button>
    </div>
  );
}
