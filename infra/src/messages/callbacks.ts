// Posting webhooks the way the providers do: a few attempts with growing pauses when the
// receiver is unreachable or answers 5xx/429 (real providers retry for hours; a stand-in for
// development and tests gives up after a few seconds). Never throws: a webhook that cannot be
// delivered is logged and dropped.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Log } from '../util';

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface PostOptions {
  attempts: number;
  /** First pause; doubled per attempt, at most 5 s. */
  backoffMs: number;
  signal: AbortSignal;
  log: Log;
  what: string;
}

/** One POST; resolves to the HTTP status (rejects when the receiver cannot be reached). */
export async function postOnce(req: WebhookRequest, signal?: AbortSignal): Promise<number> {
  const timeout = AbortSignal.timeout(10_000);
  const res = await fetch(req.url, {
    method: 'POST',
    headers: req.headers,
    body: req.body,
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  await res.arrayBuffer().catch(() => undefined);
  return res.status;
}

function retryable(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

/** Delivers with retries; resolves to the last HTTP status, or null when never reached. */
export async function deliver(req: WebhookRequest, opts: PostOptions): Promise<number | null> {
  let last: number | null = null;
  for (let attempt = 1; attempt <= opts.attempts; attempt++) {
    if (opts.signal.aborted) return last;
    try {
      last = await postOnce(req, opts.signal);
      if (!retryable(last)) {
        if (last >= 400) opts.log(`messages stand-in: ${opts.what} refused with HTTP ${last}`);
        return last;
      }
    } catch (err) {
      if (opts.signal.aborted) return last;
      if (attempt === opts.attempts)
        opts.log(
          `messages stand-in: ${opts.what} not delivered: ${err instanceof Error ? err.message : String(err)}`,
        );
    }
    if (attempt < opts.attempts) {
      const pause = Math.min(5000, opts.backoffMs * 2 ** (attempt - 1));
      try {
        await sleep(pause, undefined, { signal: opts.signal });
      } catch {
        return last; // stopped
      }
    }
  }
  if (last !== null) opts.log(`messages stand-in: ${opts.what} gave up after HTTP ${last}`);
  return last;
}
