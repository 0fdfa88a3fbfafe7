import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../app/api';
import { shrinkForUpload } from './shrink-photo';

export type UploadState = 'waiting' | 'preparing' | 'uploading' | 'done' | 'failed';

/** One photo on its way up. */
export interface QueuedUpload {
  key: string;
  file: File;
  state: UploadState;
  percent: number;
  /** the HTTP status of the last attempt's answer, 0 when none came (or none yet) */
  status: number;
  /** the server's message (in the page language), or null for "no connection" */
  error: string | null;
  /** whether sending it again can help (no answer, a server fault, too many requests) */
  canRetry: boolean;
}

/** A photo to send, not started yet. */
export const waiting = <U extends QueuedUpload>(
  upload: Omit<U, 'state' | 'percent' | 'status' | 'error' | 'canRetry'>,
): U => ({ ...upload, state: 'waiting', percent: 0, status: 0, error: null, canRetry: false }) as U;

export type SendPhoto<U, R> = (
  upload: U,
  file: File,
  onProgress: (percent: number) => void,
) => Promise<R>;

/**
 * One photo's way up: shrunk in the browser first (shrinkForUpload: 2560 px on its long side at
 * most, named by `nameOf`), then sent with its progress; each step reported through `update`.
 * Answers what `send` answered, or null when it failed (the failure is in the last update).
 */
export async function sendPhoto<U extends QueuedUpload, R>(
  upload: U,
  send: SendPhoto<U, R>,
  update: (patch: Partial<QueuedUpload>) => void,
  nameOf?: (extension: string) => string,
): Promise<{ result: R } | null> {
  update({ state: 'preparing', percent: 0, status: 0, error: null, canRetry: false });
  try {
    const file = await shrinkForUpload(upload.file, undefined, nameOf);
    update({ state: 'uploading' });
    const result = await send(upload, file, (percent) => update({ percent }));
    update({ state: 'done', percent: 100 });
    return { result };
  } catch (error) {
    const status = isApiError(error) ? error.status : 0;
    update({
      state: 'failed',
      status,
      error: isApiError(error) && status !== 0 && !error.generic ? error.message : null,
      canRetry: status === 0 || status === 429 || status >= 500,
    });
    return null;
  }
}

/**
 * Uploads photos one after the other (a phone's connection is not faster with two at once, and
 * the server's processing is shared by everyone's), each through sendPhoto. A failed photo stays
 * failed until `retry` queues it again; `dismiss` takes a row away. With `removeDoneAfterMs`, a
 * photo that arrived leaves the list that long after (the back-office's bars, back-office §9).
 */
export function useUploadQueue<U extends QueuedUpload, R = unknown>(opts: {
  initial?: () => U[];
  send: SendPhoto<U, R>;
  onDone?: (upload: U, result: R) => void;
  nameOf?: (extension: string) => string;
  removeDoneAfterMs?: number;
}) {
  const [uploads, setUploads] = useState<U[]>(opts.initial ?? (() => []));
  const [turn, setTurn] = useState(0);
  const running = useRef(false);
  // the latest callbacks, without restarting the queue when the caller renders again
  const latest = useRef(opts);
  useEffect(() => {
    latest.current = opts;
  });

  useEffect(() => {
    if (running.current) return;
    const next = uploads.find((u) => u.state === 'waiting');
    if (!next) return;
    running.current = true;
    const update = (patch: Partial<QueuedUpload>) =>
      setUploads((all) => all.map((u) => (u.key === next.key ? { ...u, ...patch } : u)));
    void (async () => {
      const { send, nameOf } = latest.current;
      const sent = await sendPhoto(next, send, update, nameOf);
      running.current = false;
      if (sent) {
        latest.current.onDone?.(next, sent.result);
        const after = latest.current.removeDoneAfterMs;
        if (after !== undefined) {
          setTimeout(() => setUploads((all) => all.filter((u) => u.key !== next.key)), after);
        }
      }
      // the next photo starts on the next render
      setTurn((n) => n + 1);
    })();
  }, [uploads, turn]);

  const add = (more: U[]) => setUploads((all) => [...all, ...more]);
  const retry = (key: string) =>
    setUploads((all) =>
      all.map((u) => (u.key === key && u.state === 'failed' ? { ...u, state: 'waiting' } : u)),
    );
  const dismiss = (key: string) => setUploads((all) => all.filter((u) => u.key !== key));

  const finished = uploads.every((u) => u.state === 'done' || u.state === 'failed');
  /** photos not up yet that are still on their way (waiting, being shrunk or sent) */
  const pending = uploads.filter((u) => u.state !== 'done' && u.state !== 'failed').length;
  return { uploads, add, retry, dismiss, finished, pending };
}
