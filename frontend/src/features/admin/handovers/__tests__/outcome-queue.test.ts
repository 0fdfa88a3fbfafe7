import {
  QUEUE_KEY,
  classifySendError,
  dequeueOutcome,
  enqueueOutcome,
  flushQueue,
  readQueue,
  subscribeQueue,
  type PendingOutcome,
} from '../lib/outcome-queue';

/** The day plan's outcomes kept through a lost connection (issue 29). */
const done = (id: number, note: string | null = null): PendingOutcome => ({
  id,
  outcome: 'done',
  note,
  date: '2026-05-12',
});
const offline = { status: 0, code: 'NETWORK_ERROR', message: 'Failed to fetch' };
const closed = {
  status: 409,
  code: 'HANDOVER_CLOSED',
  message: 'Für diesen Termin ist bereits „erledigt“ eingetragen.',
};

beforeEach(() => localStorage.clear());

describe('the offline outcome queue', () => {
  test('when an outcome is kept, then local storage holds only the id, outcome, note and day', () => {
    const extra = { ...done(7, 'Klingel kaputt'), family: { name: 'Olena', phone: '+49…' } };
    enqueueOutcome(extra as PendingOutcome);
    expect(JSON.parse(localStorage.getItem(QUEUE_KEY)!)).toEqual([
      { id: 7, outcome: 'done', note: 'Klingel kaputt', date: '2026-05-12' },
    ]);
  });

  test('when the same stop is confirmed twice, then only the later outcome is kept; dequeue removes it', () => {
    enqueueOutcome(done(1));
    enqueueOutcome(done(2));
    enqueueOutcome({ ...done(1), outcome: 'absent' });
    expect(readQueue().map((e) => [e.id, e.outcome])).toEqual([
      [2, 'done'],
      [1, 'absent'],
    ]);
    dequeueOutcome(2);
    expect(readQueue().map((e) => e.id)).toEqual([1]);
    dequeueOutcome(1);
    expect(localStorage.getItem(QUEUE_KEY)).toBeNull();
  });

  test('when storage holds something else, then it is ignored rather than sent', () => {
    localStorage.setItem(
      QUEUE_KEY,
      JSON.stringify([done(3), { id: 'x' }, { id: 4, outcome: 'maybe', note: null, date: 'x' }]),
    );
    expect(readQueue()).toEqual([done(3)]);
    localStorage.setItem(QUEUE_KEY, '{not json');
    expect(readQueue()).toEqual([]);
  });

  test('when the connection is back, then waiting outcomes are sent oldest first and removed', async () => {
    enqueueOutcome(done(1));
    enqueueOutcome(done(2, 'zweiter Stock'));
    const sent: PendingOutcome[] = [];
    const result = await flushQueue(async (entry) => {
      sent.push(entry);
    });
    expect(sent.map((e) => e.id)).toEqual([1, 2]);
    expect(result.sent.map((e) => e.id)).toEqual([1, 2]);
    expect(readQueue()).toEqual([]);
  });

  test('when the connection drops again during sending, then the rest stays for the next try', async () => {
    enqueueOutcome(done(1));
    enqueueOutcome(done(2));
    enqueueOutcome(done(3));
    const tried: number[] = [];
    const result = await flushQueue(async (entry) => {
      tried.push(entry.id);
      if (entry.id === 2) throw offline;
    });
    expect(tried).toEqual([1, 2]);
    expect(result.kept.map((e) => e.id)).toEqual([2, 3]);
    expect(readQueue().map((e) => e.id)).toEqual([2, 3]);
  });

  test('when someone else recorded the stop first (409 HANDOVER_CLOSED), then it is dropped and reported as closed', async () => {
    enqueueOutcome(done(1));
    enqueueOutcome(done(2));
    const result = await flushQueue(async (entry) => {
      if (entry.id === 1) throw closed;
    });
    expect(result.closed.map((e) => e.id)).toEqual([1]);
    expect(result.sent.map((e) => e.id)).toEqual([2]);
    expect(readQueue()).toEqual([]);
  });

  test('when the server refuses an outcome for another reason, then it is dropped with its message', async () => {
    enqueueOutcome(done(9));
    const result = await flushQueue(async () => {
      throw {
        status: 404,
        code: 'HANDOVER_STOP_NOT_FOUND',
        message: 'Termin im Tagesplan nicht gefunden.',
      };
    });
    expect(result.rejected).toEqual([
      { entry: done(9), message: 'Termin im Tagesplan nicht gefunden.' },
    ]);
    expect(readQueue()).toEqual([]);
  });

  test('when errors are classified, then no answer, 5xx, 429 and 401 retry', () => {
    expect(classifySendError(offline)).toBe('retry');
    expect(classifySendError({ status: 503, code: 'HTTP_ERROR', message: '' })).toBe('retry');
    expect(classifySendError({ status: 429, code: 'RATE_LIMITED', message: '' })).toBe('retry');
    expect(classifySendError({ status: 401, code: 'UNAUTHORIZED', message: '' })).toBe('retry');
    expect(classifySendError(new Error('boom'))).toBe('retry');
    expect(classifySendError(closed)).toBe('closed');
    expect(classifySendError({ status: 409, code: 'OTHER', message: '' })).toBe('rejected');
    expect(classifySendError({ status: 422, code: 'VALIDATION_ERROR', message: '' })).toBe(
      'rejected',
    );
  });

  test('when the queue changes, then subscribers hear it', () => {
    const heard = jest.fn();
    const stop = subscribeQueue(heard);
    enqueueOutcome(done(1));
    dequeueOutcome(1);
    stop();
    enqueueOutcome(done(2));
    expect(heard).toHaveBeenCalledTimes(2);
  });
});
