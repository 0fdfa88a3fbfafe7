import { HandoverOutcomes, type HandoverOutcome } from '@furniture/contracts/enums';
import { isApiError } from '../../../../app/api';

/*
 * Outcomes a driver confirmed while the phone had no connection (issue 29): kept in local
 * storage until they are sent — when the browser is online again and whenever the day plan
 * loads. Only what the call needs is kept: the stop's id, the outcome, the note and the day
 * (nothing else about the family).
 */

export interface PendingOutcome {
  id: number;
  outcome: HandoverOutcome;
  note: string | null;
  /** the day plan's day (YYYY-MM-DD) the stop belongs to */
  date: string;
}

export const QUEUE_KEY = 'handover-outcome-queue';

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const defaultStore = (): Store | null => {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
};

function isPending(value: unknown): value is PendingOutcome {
  const v = value as Partial<PendingOutcome> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.id === 'number' &&
    Number.isInteger(v.id) &&
    v.id > 0 &&
    (HandoverOutcomes as readonly string[]).includes(v.outcome as string) &&
    (v.note === null || typeof v.note === 'string') &&
    typeof v.date === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(v.date)
  );
}

const listeners = new Set<() => void>();
let cache: { raw: string | null; list: PendingOutcome[] } = { raw: null, list: [] };

function parse(raw: string | null): PendingOutcome[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter(isPending) : [];
  } catch {
    return [];
  }
}

/** The waiting outcomes, oldest first (the same array while nothing changed). */
export function readQueue(store: Store | null = defaultStore()): PendingOutcome[] {
  let raw: string | null = null;
  try {
    raw = store?.getItem(QUEUE_KEY) ?? null;
  } catch {
    raw = null;
  }
  if (raw !== cache.raw) cache = { raw, list: parse(raw) };
  return cache.list;
}

function writeQueue(list: PendingOutcome[], store: Store | null): void {
  try {
    if (list.length === 0) store?.removeItem(QUEUE_KEY);
    else
      store?.setItem(
        QUEUE_KEY,
        // exactly these four fields, whatever the caller passed
        JSON.stringify(list.map(({ id, outcome, note, date }) => ({ id, outcome, note, date }))),
      );
  } catch {
    // storage full or blocked: nothing more can be done here
  }
  listeners.forEach((l) => l());
}

/** Keeps an outcome to send later (a later one for the same stop replaces it). */
export function enqueueOutcome(entry: PendingOutcome, store: Store | null = defaultStore()): void {
  writeQueue([...readQueue(store).filter((e) => e.id !== entry.id), entry], store);
}

export function dequeueOutcome(id: number, store: Store | null = defaultStore()): void {
  const list = readQueue(store);
  if (list.some((e) => e.id === id))
    writeQueue(
      list.filter((e) => e.id !== id),
      store,
    );
}

/** Hears every change of the queue, in this tab and (through `storage` events) in others. */
export function subscribeQueue(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === QUEUE_KEY || event.key === null) listener();
  };
  if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}

/**
 * What a failed send means for the kept outcome:
 * - `retry`: no answer (offline, timeout), the session is being renewed, or the server could not
 *   answer now (5xx, 429): kept for the next try;
 * - `closed`: 409 HANDOVER_CLOSED, someone else recorded this stop first: dropped, and shown;
 * - `rejected`: any other refusal (the stop is gone, a bad note): dropped, with the server's word.
 */
export type SendFailure = 'retry' | 'closed' | 'rejected';

export function classifySendError(error: unknown): SendFailure {
  if (!isApiError(error)) return 'retry';
  if (error.status === 0 || error.status === 401 || error.status === 429 || error.status >= 500) {
    return 'retry';
  }
  if (error.status === 409 && error.code === 'HANDOVER_CLOSED') return 'closed';
  return 'rejected';
}

/** Whether a failed first attempt should be kept to send later (no connection). */
export function shouldQueue(error: unknown): boolean {
  return isApiError(error) && error.status === 0;
}

export interface FlushResult {
  sent: PendingOutcome[];
  closed: PendingOutcome[];
  rejected: { entry: PendingOutcome; message: string }[];
  /** still waiting (the first `retry` stops the round: the connection is gone again) */
  kept: PendingOutcome[];
}

/** Sends the waiting outcomes one after the other, oldest first. */
export async function flushQueue(
  send: (entry: PendingOutcome) => Promise<unknown>,
  store: Store | null = defaultStore(),
): Promise<FlushResult> {
  const result: FlushResult = { sent: [], closed: [], rejected: [], kept: [] };
  const waiting = [...readQueue(store)];
  for (let i = 0; i < waiting.length; i += 1) {
    const entry = waiting[i]!;
    try {
      await send(entry);
      dequeueOutcome(entry.id, store);
      result.sent.push(entry);
    } catch (error) {
      const failure = classifySendError(error);
      if (failure === 'retry') {
        result.kept.push(...waiting.slice(i));
        break;
      }
      dequeueOutcome(entry.id, store);
      if (failure === 'closed') result.closed.push(entry);
      else result.rejected.push({ entry, message: isApiError(error) ? error.message : '' });
    }
  }
  return result;
}
