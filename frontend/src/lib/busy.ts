/**
 * Calls the platform shed under load (503 SERVICE_BUSY with Retry-After, issue 48) wait here
 * before they try again, and the page says so while any waits (BusyNotice). No dependencies: the
 * public pages load it before the store.
 */
let waiting = 0;
const listeners = new Set<() => void>();
const notify = (): void => listeners.forEach((listener) => listener());

/** How many calls are waiting to try again now. */
export const busyWaiting = (): number => waiting;

export function subscribeBusy(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tries after a shed call: how often, and the longest wait between two. */
export const BUSY_RETRIES = 4;
const LONGEST_WAIT_MS = 15_000;

/**
 * The wait before try `attempt + 1` (0-based): the server's Retry-After, doubled each time, at
 * most 15 s, spread by a quarter either way so that a crowd shed together does not come back
 * together.
 */
export function busyDelayMs(
  retryAfterSeconds: number,
  attempt: number,
  random = Math.random(),
): number {
  const base = Math.min(Math.max(1, retryAfterSeconds) * 1000 * 2 ** attempt, LONGEST_WAIT_MS);
  return Math.round(base * (0.75 + random * 0.5));
}

/** Waits `ms` (or until `signal` aborts), counted as a busy wait meanwhile. */
export async function waitWhileBusy(ms: number, signal?: AbortSignal): Promise<void> {
  waiting++;
  notify();
  try {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  } finally {
    waiting--;
    notify();
  }
}
