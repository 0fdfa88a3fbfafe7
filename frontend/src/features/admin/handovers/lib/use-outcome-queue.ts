import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../ui/Toasts';
import { useSetOutcomeMutation } from '../api/handovers-api';
import {
  classifySendError,
  enqueueOutcome,
  flushQueue,
  readQueue,
  shouldQueue,
  subscribeQueue,
  type PendingOutcome,
} from './outcome-queue';

const NONE: PendingOutcome[] = [];

/** One round of sending at a time in this tab (the page, the online event, the button). */
let flushing: Promise<unknown> | null = null;

export type RecordResult = 'sent' | 'queued' | 'closed';

/** Whether the browser says it has a connection (updated by its online and offline events). */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (listener) => {
      window.addEventListener('online', listener);
      window.addEventListener('offline', listener);
      return () => {
        window.removeEventListener('online', listener);
        window.removeEventListener('offline', listener);
      };
    },
    () => navigator.onLine !== false,
    () => true,
  );
}

/**
 * The day plan's outcomes: sent at once when there is a connection, otherwise kept
 * (outcome-queue.ts) and sent when the browser is online again and when the page loads. A stop
 * someone else recorded first (409 HANDOVER_CLOSED) is named in `closedIds`.
 */
export function useOutcomeQueue() {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const pending = useSyncExternalStore(
    subscribeQueue,
    () => readQueue(),
    () => NONE,
  );
  const [setOutcome] = useSetOutcomeMutation();
  const [closedIds, setClosedIds] = useState<number[]>([]);

  const send = useCallback(
    (entry: PendingOutcome) =>
      setOutcome({ id: entry.id, outcome: entry.outcome, note: entry.note }).unwrap(),
    [setOutcome],
  );

  const flush = useCallback(async () => {
    if (flushing || readQueue().length === 0) return;
    const round = flushQueue(send);
    flushing = round;
    try {
      const result = await round;
      if (result.sent.length > 0) {
        toast('success', t('handovers.plan.queueSent', { count: result.sent.length }));
      }
      if (result.closed.length > 0) {
        setClosedIds((ids) => [...ids, ...result.closed.map((e) => e.id)]);
        toast('info', t('handovers.plan.closedByOther', { count: result.closed.length }));
      }
      for (const { message } of result.rejected) {
        toast('error', message || t('handovers.plan.outcomeFailed'));
      }
    } finally {
      flushing = null;
    }
  }, [send, t, toast]);

  useEffect(() => {
    void flush();
    const online = () => void flush();
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [flush]);

  /** Records an outcome now, or keeps it for later when there is no connection. */
  const record = useCallback(
    async (entry: PendingOutcome): Promise<RecordResult> => {
      if (navigator.onLine === false) {
        enqueueOutcome(entry);
        return 'queued';
      }
      try {
        await send(entry);
        return 'sent';
      } catch (error) {
        if (shouldQueue(error)) {
          enqueueOutcome(entry);
          return 'queued';
        }
        if (classifySendError(error) === 'closed') {
          setClosedIds((ids) => [...ids, entry.id]);
          return 'closed';
        }
        throw error;
      }
    },
    [send],
  );

  return { pending, closedIds, record, flush };
}
