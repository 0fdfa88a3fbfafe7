import { useSyncExternalStore } from 'react';
import { EMPTY_APPLY_FORM, type ApplyFormValues } from './apply-form';

/*
 * What a family typed stays for the browser tab (session storage, gone when the tab closes,
 * which matters on shared computers): the apply form's draft, so that a closed modal or the next
 * lot does not ask for everything again, and the phone of the last application, so that the
 * queue panel can say "you have applied".
 *
 * Only when the family ticks "remember my number on this device" (off by default) is the phone
 * also kept in local storage, so that lot pages show "already applied" and the queue position
 * on later visits (issue 15); "forget" removes it (and this tab's memory) again.
 */

const DRAFT_KEY = 'moebelbruecke.applyDraft';
const PHONE_KEY = 'moebelbruecke.applicantPhone';
/** local storage: only with the family's consent */
export const DEVICE_PHONE_KEY = 'moebelbruecke.rememberedPhone';

type Store = 'session' | 'local';

function storage(store: Store): Storage {
  return store === 'session' ? sessionStorage : localStorage;
}

function read(key: string, store: Store = 'session'): string | null {
  try {
    return storage(store).getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string, store: Store = 'session') {
  try {
    storage(store).setItem(key, value);
  } catch {
    // private mode or full storage: the form still works, it just forgets
  }
}

function remove(key: string, store: Store = 'session') {
  try {
    storage(store).removeItem(key);
  } catch {
    // nothing stored then either
  }
}

export function loadDraft(): ApplyFormValues {
  let draft: ApplyFormValues;
  try {
    const stored = JSON.parse(read(DRAFT_KEY) ?? '{}') as Partial<ApplyFormValues>;
    draft = { ...EMPTY_APPLY_FORM, ...stored };
  } catch {
    draft = EMPTY_APPLY_FORM;
  }
  // a returning family that asked this device to remember its number need not type it again
  const device = read(DEVICE_PHONE_KEY, 'local');
  return draft.phone === '' && device ? { ...draft, phone: device } : draft;
}

export function saveDraft(values: ApplyFormValues) {
  write(DRAFT_KEY, JSON.stringify(values));
}

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/**
 * Remembers the (normalized) phone of an application that was sent (or a status check) for
 * this tab and, when `onDevice`, in local storage too. Without `onDevice` a number this device
 * remembered is forgotten when it is the same one: the family unticked the box.
 */
export function rememberPhone(phone: string, opts: { onDevice?: boolean; tab?: boolean } = {}) {
  if (opts.tab !== false) write(PHONE_KEY, phone);
  if (opts.onDevice) write(DEVICE_PHONE_KEY, phone, 'local');
  else if (read(DEVICE_PHONE_KEY, 'local') === phone) remove(DEVICE_PHONE_KEY, 'local');
  notify();
}

/** "Forget my number": off this device and out of this tab, with the form's draft. */
export function forgetPhone() {
  remove(DEVICE_PHONE_KEY, 'local');
  remove(PHONE_KEY);
  remove(DRAFT_KEY);
  notify();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // another tab of this device remembered or forgot the number
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === DEVICE_PHONE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The phone whose applications the lot pages show: this tab's, else the device's. */
export function useRememberedPhone(): string | null {
  return useSyncExternalStore(subscribe, () => read(PHONE_KEY) ?? read(DEVICE_PHONE_KEY, 'local'));
}

/** The phone this device remembers with the family's consent, or null. */
export function useDevicePhone(): string | null {
  return useSyncExternalStore(subscribe, () => read(DEVICE_PHONE_KEY, 'local'));
}

/** The last digits only, for showing which number is remembered ("… 4567"). */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `… ${digits.slice(-4)}`;
}
