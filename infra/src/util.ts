// Small helpers shared by the launchers: free ports, polling with a deadline, log tails.
import fs from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export type Log = (line: string) => void;

export const noLog: Log = () => undefined;

/**
 * Ports are handed out below the kernel's ephemeral range (32768-60999 on Linux). A port the
 * kernel gave us for `listen(0)` and that we closed again can be handed by the kernel to the next
 * `listen(0)` or outgoing connection of any process before our server binds it: CI once saw the
 * mail catcher's `listen(0)` take the port just chosen for MinIO ("port is already in use").
 * Below that range the kernel never picks ports by itself, and `handedOut` keeps one process
 * (the test setup starts FerretDB, MinIO and the mail catcher side by side) from choosing the same
 * port twice.
 */
const PORT_LOW = 20_000;
const PORT_HIGH = 32_000;
const handedOut = new Set<number>();

function randomPort(span = 1): number {
  return PORT_LOW + Math.floor(Math.random() * (PORT_HIGH - PORT_LOW - span + 1));
}

/** A currently free TCP port on `host`, below the ephemeral range, never the same twice per process. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return freePortRun(1, host);
}

/** True when nothing listens on host:port (we can bind it ourselves). */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/**
 * The first of `count` consecutive free ports (services listen on base .. base+count-1), below
 * the kernel's ephemeral range, none handed out before by this process.
 */
export async function freePortRun(count: number, host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = randomPort(count);
    const run = Array.from({ length: count }, (_, i) => base + i);
    if (run.some((p) => handedOut.has(p))) continue;
    run.forEach((p) => handedOut.add(p));
    const free = await Promise.all(run.map((p) => isPortFree(p, host)));
    if (free.every(Boolean)) return base;
  }
  throw new Error(
    count === 1 ? 'could not find a free port' : `no run of ${count} free ports found`,
  );
}

/** `wanted` when given (non-zero) and free, a fresh free port when 0/absent; throws when a fixed port is taken. */
export async function choosePort(
  wanted: number | undefined,
  what: string,
  hint: string,
  host = '127.0.0.1',
): Promise<number> {
  if (!wanted) return freePort(host);
  if (!(await isPortFree(wanted, host))) {
    throw new Error(`${what}: port ${host}:${wanted} is already in use (${hint})`);
  }
  return wanted;
}

export interface WaitOptions {
  /** Used in the timeout error: "<what> did not answer within Ns". */
  what: string;
  timeoutMs: number;
  intervalMs?: number;
  /** Extra text appended to the timeout error (e.g. "see .data/run/logs/x.log" plus its tail). */
  hint?: () => string;
  /** Rejects early, e.g. when the process we are waiting for has exited. */
  abort?: Promise<never>;
}

/**
 * Calls `probe` until it resolves (its value is returned) or the deadline passes.
 * Each failed probe's error is remembered and reported in the timeout error.
 */
export async function waitUntil<T>(probe: () => Promise<T>, opts: WaitOptions): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  const interval = opts.intervalMs ?? 250;
  let lastError: unknown;
  let aborted: unknown;
  let abortedSet = false;
  opts.abort?.catch((err: unknown) => {
    aborted = err;
    abortedSet = true;
  });
  for (;;) {
    if (abortedSet) throw aborted;
    try {
      return await probe();
    } catch (err) {
      lastError = err;
    }
    if (abortedSet) throw aborted;
    if (Date.now() >= deadline) {
      const last = lastError instanceof Error ? lastError.message : String(lastError);
      const hint = opts.hint ? `; ${opts.hint()}` : '';
      throw new Error(
        `${opts.what} did not answer within ${Math.round(opts.timeoutMs / 1000)}s (last error: ${last})${hint}`,
      );
    }
    await sleep(interval);
  }
}

/** Last `lines` lines of a text file ('' when missing), for error messages. */
export function tailFile(file: string, lines = 20): string {
  try {
    const size = fs.statSync(file).size;
    const fd = fs.openSync(file, 'r');
    try {
      const length = Math.min(size, 16 * 1024);
      const buf = Buffer.alloc(length);
      fs.readSync(fd, buf, 0, length, size - length);
      return buf
        .toString('utf8')
        .split('\n')
        .slice(-lines - 1)
        .join('\n')
        .trimEnd();
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}

export const TIMED_OUT = Symbol('timed out');

/** `promise`'s value, or TIMED_OUT after `ms` (the timer is cleared either way). */
export async function raceTimeout<T>(
  promise: Promise<T>,
  ms: number,
): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
