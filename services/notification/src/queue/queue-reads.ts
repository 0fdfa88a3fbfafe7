import type { Model, QueryFilter } from 'mongoose';

/**
 * The reads of an outgoing queue that the mail and the message senders share, and the fields of
 * a claim: records wait `queued` until `next_attempt_at`, and one left `sending` past
 * `lease_until` (a crash mid-send) is due again. `stateField` names the field holding that state
 * (`state` for mails, `status` for messages).
 */
export async function dueOfQueue<T>(
  model: Model<T>,
  stateField: 'state' | 'status',
  now: Date,
  limit: number,
): Promise<T[]> {
  const [queued, lost] = await Promise.all([
    model
      .find({ [stateField]: 'queued', next_attempt_at: { $lte: now } } as QueryFilter<T>)
      .sort({ next_attempt_at: 1, id: 1 })
      .limit(limit)
      .lean<T[]>(),
    model
      .find({ [stateField]: 'sending', lease_until: { $lte: now } } as QueryFilter<T>)
      .sort({ lease_until: 1 })
      .limit(limit)
      .lean<T[]>(),
  ]);
  return [...lost, ...queued].slice(0, limit);
}

/** When the sender has to look again: the earliest due time of a queued or sending record. */
export async function nextWakeOfQueue<T>(
  model: Model<T>,
  stateField: 'state' | 'status',
  queued: Record<string, unknown> = {},
): Promise<Date | null> {
  const [first, sending] = await Promise.all([
    model
      .findOne({ [stateField]: 'queued', ...queued } as QueryFilter<T>)
      .sort({ next_attempt_at: 1 })
      .select({ next_attempt_at: 1 })
      .lean<{ next_attempt_at?: Date | null }>(),
    model
      .findOne({ [stateField]: 'sending' } as QueryFilter<T>)
      .sort({ lease_until: 1 })
      .select({ lease_until: 1 })
      .lean<{ lease_until?: Date | null }>(),
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
