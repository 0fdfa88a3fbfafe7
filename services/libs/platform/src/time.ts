import { setTimeout as wait } from 'node:timers/promises';

/** true when `p` settles (resolves or rejects) within `ms`; never rejects itself. */
export function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  const settled = () => true;
  return Promise.race([p.then(settled, settled), sleep(ms).then(() => false)]);
}

/** Waits `ms` without keeping the process alive; ends at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return wait(ms, undefined, { ref: false, signal }).catch(() => undefined);
}
