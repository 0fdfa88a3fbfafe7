import { useSyncExternalStore } from 'react';
import { EMPTY_APPLY_FORM, type ApplyFormValues } from './apply-form';

/*
 * What a family typed stays for the browser tab (session storage, gone when the tab closes,
 * which matters on shared computers): the apply form's draft, so that a closed modal or the next
 * lot does not ask for everything again, and the phone of the last application, so that the
 * queue panel can say "you have applied".
 */

const DRAFT_KEY = 'moebelbruecke.applyDraft';
const PHONE_KEY = 'moebelbruecke.applicantPhone';

function read(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string) {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // private mode or full storage: the form still works, it just forgets
  }
}

export function loadDraft(): ApplyFormValues {
  try {
    const stored = JSON.parse(read(DRAFT_KEY) ?? '{}') as Partial<ApplyFormValues>;
    return { ...EMPTY_APPLY_FORM, ...stored };
  } catch {
    return EMPTY_APPLY_FORM;
  }
}

export function saveDraft(values: ApplyFormValues) {
  write(DRAFT_KEY, JSON.stringify(values));
}

const listeners = new Set<() => void>();

/** Remembers the (normalized) phone of an application that was sent. */
export function rememberPhone(phone: string) {
  write(PHONE_KEY, phone);
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRememberedPhone(): string | null {
  return useSyncExternalStore(subscribe, () => read(PHONE_KEY));
}
