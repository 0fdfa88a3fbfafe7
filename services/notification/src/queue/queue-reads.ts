import type { Document } from 'mongodb';
import type { StoredCollection } from '@furniture/platform';

/**
 * The reads of an outgoing queue that the mail and the message senders share, and the fields of
 * a claim: records wait `queued` until `next_attempt_at`, and one left `sending` past
 * `lease_until` (a crash mid-send) is due again. `stateField` names the field holding that state
 * (`state` for mails, `status` for messages).
 */
export async function dueOfQueue<T extends Document>(
  queue: StoredCollection<T>,
  stateField: 'state' | 'status',
  now: Date,
  limit: number,
): Promise<T[]> {
  const [queued, lost] = await Promise.all([
    queue.find(
      { [stateField]: 'queued', next_attempt_at: { $lte: now } },
      { sort: { next_attempt_at: 1, id: 1 }, limit },
    ),
    queue.find(
      { [stateField]: 'sending', lease_until: { $lte: now } },
      { sort: { lease_until: 1 }, limit },
    ),
  ]);
  return [...lost, ...queued].slice(0, limit);
}

/** When the sender has to look again: the earliest due time of a queued or sending record. */
export async function nextWakeOfQueue<T extends Document>(
  queue: StoredCollection<T>,
  stateField: 'state' | 'status',
  queued: Record<string, unknown> = {},
): Promise<Date | null> {
  const [first, sending] = await Promise.all([
    queue.findOne(
      { [stateField]: 'queued', ...queued },
      { sort: { next_attempt_at: 1 }, projection: { next_attempt_at: 1 } },
    ),
    queue.findOne(
      { [stateField]: 'sending' },
      { sort: { lease_until: 1 }, projection: { lease_until: 1 } },
    ),
  ]);
  const times = [first?.next_attempt_at, sending?.lease_until]
    .filter((d): d is Date => d instanceof Date)
    .map((d) => d.getTime());
  return times.length > 0 ? new Date(Math.min(...times)) : null;
}

/**
 * What a claim of a due record sets beside its `sending` state: one more attempt and a lease. A
 * record still `sending` (past its lease: it is due) lost its attempt mid-send, a sender stopped
 * between the server's or provider's taking it and its record: counted in
 * `interrupted_attempts`, since this attempt may deliver it a second time.
 */
/** The number of a record's next claim (its key in the claims: one process per number). */
export const nextClaimOf = (record: { attempts: number; claims?: number }) =>
  (record.claims ?? record.attempts) + 1;

export function claimFields(
  record: {
    attempts: number;
    claims?: number;
    interrupted_attempts?: number;
    state?: string;
    status?: string;
  },
  stateField: 'state' | 'status',
  now: Date,
  leaseMs: number,
) {
  return {
    attempts: record.attempts + 1,
    claims: nextClaimOf(record),
    interrupted_attempts:
      (record.interrupted_attempts ?? 0) + (record[stateField] === 'sending' ? 1 : 0),
    lease_until: new Date(now.getTime() + leaseMs),
    updated_at: now,
  };
}
