import type { MessageChannel, MessageStatus, MessageStep } from '@furniture/contracts';
import {
  insertedUnlessTaken,
  maskPersonalData,
  nextId,
  type Claims,
  type Connection,
  type Store,
  type StoredCollection,
} from '@furniture/platform';
import {
  FinalStatuses,
  statusesBefore,
  type MessageRecord,
  type MessageThread,
} from '../domain/message-types';
import { claimFields, dueOfQueue, nextClaimOf, nextWakeOfQueue } from '../../queue/queue-reads';
import type { MessageDoc } from './models';

export type NewMessage = Omit<
  MessageDoc,
  | '_id'
  | 'id'
  | 'status'
  | 'reason'
  | 'steps'
  | 'failed_channels'
  | 'provider_id'
  | 'sent_months'
  | 'channel'
  | 'attempts'
  | 'lease_until'
  | 'last_error'
  | 'created_at'
  | 'updated_at'
> & { event_id: string };

const errorText = (e: string) => maskPersonalData(e).slice(0, 500);

/**
 * Message records. Every state change is guarded in its filter by the status (and attempt
 * number, or provider id) it starts from, so two replicas never both send or both report.
 */
export class MessageRepository {
  private readonly stored: StoredCollection<MessageDoc>;
  /** the attempts' claims: one process per attempt */
  private readonly claims: Claims;

  constructor(
    store: Store,
    private readonly conn: Connection,
  ) {
    this.stored = store.collection<MessageDoc>({ name: 'messages', key: '_id' });
    this.claims = store.claims();
  }

  /** Runs `fn` while no other decision about this message runs in this process. */
  inTurnOf<T>(message: Pick<MessageRecord, '_id'>, fn: () => Promise<T>): Promise<T> {
    return this.stored.inTurnOf(message._id, fn);
  }

  /** Stores a message; false when this event already has one (a redelivery). */
  async insert(message: NewMessage): Promise<boolean> {
    const { event_id: eventId, ...fields } = message;
    if (await this.stored.exists({ _id: eventId })) return false;
    const now = new Date();
    const doc: MessageDoc = {
      ...fields,
      _id: eventId,
      id: await nextId(this.conn, 'messages'),
      channel: null,
      status: 'queued',
      reason: null,
      steps: [],
      failed_channels: [],
      provider_id: null,
      sent_months: [],
      attempts: 0,
      lease_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    };
    return insertedUnlessTaken(() => this.stored.insert({ ...doc }));
  }

  /** Queued messages that are due, and messages whose sending attempt was lost. */
  due(now: Date, limit: number): Promise<MessageRecord[]> {
    return dueOfQueue<MessageRecord>(this.stored, 'status', now, limit);
  }

  /** The earliest due time of a queued or sending message. */
  nextWakeAt(): Promise<Date | null> {
    return nextWakeOfQueue(this.stored, 'status', { next_attempt_at: { $ne: null } });
  }

  /** Takes a due message for one attempt; null when someone else took it meanwhile. */
  async claim(m: MessageRecord, now: Date, leaseMs: number): Promise<MessageRecord | null> {
    // one process per claim: its number's key decides (a guarded update may match twice)
    if (!(await this.claims.claim(`message:${m._id}#${nextClaimOf(m)}`, leaseMs, now))) return null;
    const set = { status: 'sending' as const, ...claimFields(m, 'status', now, leaseMs) };
    const done = await this.stored.update(
      { _id: m._id, status: m.status, attempts: m.attempts },
      { $set: set },
    );
    return done ? { ...m, ...set } : null;
  }

  private fromSending(m: MessageRecord, update: Record<string, unknown>): Promise<boolean> {
    const set = (update.$set as Record<string, unknown> | undefined) ?? {};
    return this.stored.update(
      { _id: m._id, status: 'sending', attempts: m.attempts },
      { ...update, $set: { ...set, updated_at: new Date() } },
    );
  }

  /** The provider took it: sent on `channel`, counted in the month's budget. */
  markSent(
    m: MessageRecord,
    sent: { channel: MessageChannel; providerId: string; budgetKey: string; steps: MessageStep[] },
  ): Promise<boolean> {
    return this.fromSending(m, {
      $set: {
        status: 'sent',
        channel: sent.channel,
        provider_id: sent.providerId,
        reason: null,
        next_attempt_at: null,
        lease_until: null,
      },
      $push: { steps: { $each: sent.steps } },
      $addToSet: { sent_months: sent.budgetKey },
    });
  }

  /** Back to the queue; with `refund` the attempt does not count (the provider was unreachable). */
  markRetry(
    m: MessageRecord,
    nextAttemptAt: Date,
    error: string,
    opts: { refund?: boolean; channel?: MessageChannel } = {},
  ): Promise<boolean> {
    return this.fromSending(m, {
      $set: {
        status: 'queued',
        next_attempt_at: nextAttemptAt,
        lease_until: null,
        last_error: errorText(error),
        ...(opts.channel ? { channel: opts.channel } : {}),
        ...(opts.refund ? { attempts: Math.max(m.attempts - 1, 0) } : {}),
      },
    });
  }

  /**
   * The channel refused it for good: noted, and the message is due at once on the next channel
   * (with fresh attempts).
   */
  markChannelFailed(
    m: MessageRecord,
    channel: MessageChannel,
    error: string,
    steps: MessageStep[],
  ): Promise<boolean> {
    return this.fromSending(m, {
      $set: {
        status: 'queued',
        channel,
        attempts: 0,
        next_attempt_at: new Date(),
        lease_until: null,
        last_error: errorText(error),
      },
      $push: { steps: { $each: steps } },
      $addToSet: { failed_channels: channel },
    });
  }

  /** Nowhere left to go: skipped (never tried) or failed (parked, until staff resend it). */
  markFinal(
    m: MessageRecord,
    final: {
      status: 'skipped' | 'failed';
      reason: MessageRecord['reason'];
      steps: MessageStep[];
    },
  ): Promise<boolean> {
    return this.fromSending(m, {
      $set: {
        status: final.status,
        reason: final.reason,
        next_attempt_at: null,
        lease_until: null,
        mail_to: null,
      },
      $push: { steps: { $each: final.steps } },
    });
  }

  /** Every message waiting for a later time is due now (a provider answers again). */
  async retryAllNow(now: Date): Promise<number> {
    const waiting = await this.stored.find(
      { status: 'queued', next_attempt_at: { $gt: now } },
      { projection: { _id: 1, attempts: 1 } },
    );
    let n = 0;
    for (const m of waiting) {
      if (
        await this.stored.update(
          { _id: m._id, status: 'queued', attempts: m.attempts },
          { $set: { next_attempt_at: now, updated_at: now } },
        )
      )
        n++;
    }
    return n;
  }

  async findById(id: number): Promise<MessageRecord | null> {
    return this.stored.findOne({ id });
  }

  async findByProviderId(providerId: string): Promise<MessageRecord | null> {
    return this.stored.findOne({ provider_id: providerId });
  }

  /** A delivery report moves the message forward only (sent < delivered < read). */
  report(m: MessageRecord, to: 'sent' | 'delivered' | 'read', step: MessageStep): Promise<boolean> {
    return this.stored.update(
      { _id: m._id, provider_id: m.provider_id, status: { $in: statusesBefore(to) } },
      {
        $set: {
          status: to,
          updated_at: new Date(),
          // delivered: a prepared message will not need its mail any more
          ...(to === 'sent' ? {} : { mail_to: null }),
        },
        $push: { steps: step },
      },
    );
  }

  /** The provider could not deliver it: the next channel is tried at once. */
  reportFailed(m: MessageRecord, channel: MessageChannel, step: MessageStep): Promise<boolean> {
    return this.stored.update(
      { _id: m._id, provider_id: m.provider_id, status: { $in: ['sent', 'delivered'] } },
      {
        $set: {
          status: 'queued',
          attempts: 0,
          next_attempt_at: new Date(),
          last_error: errorText(step.error ?? 'undelivered'),
          updated_at: new Date(),
        },
        $push: { steps: step },
        $addToSet: { failed_channels: channel },
      },
    );
  }

  /** A failed message back in the queue, due now, every channel open again. */
  requeue(m: MessageRecord, now: Date): Promise<boolean> {
    return this.stored.update(
      { _id: m._id, status: 'failed' },
      {
        $set: {
          status: 'queued',
          reason: null,
          attempts: 0,
          failed_channels: [],
          next_attempt_at: now,
          updated_at: now,
        },
      },
    );
  }

  private static threadFilter(thread: MessageThread) {
    return thread;
  }

  /** One thread's messages, newest first. */
  async thread(thread: MessageThread, limit = 200): Promise<MessageRecord[]> {
    return this.stored.find(MessageRepository.threadFilter(thread), {
      sort: { occurred_at: -1, id: -1 },
      limit,
    });
  }

  /** Parked messages, newest first, a page at a time, and how many there are. */
  async failed(page: number, limit: number): Promise<{ messages: MessageRecord[]; total: number }> {
    const [messages, total] = await Promise.all([
      this.stored.find(
        { status: 'failed' },
        { sort: { updated_at: -1, id: -1 }, skip: (page - 1) * limit, limit },
      ),
      this.stored.countStored({ status: 'failed' }),
    ]);
    return { messages, total };
  }

  countFailed(): Promise<number> {
    return this.stored.countStored({ status: 'failed' });
  }

  /** Accepted attempts of one channel in one month ("whatsapp:2026-11"). */
  countSent(budgetKey: string): Promise<number> {
    return this.stored.countStored({ sent_months: budgetKey });
  }

  /** Deletes messages that reached a final state before `before`, a batch at a time. */
  async purgeFinished(before: Date, batch = 500): Promise<number> {
    const old = await this.stored.find(
      { status: { $in: FinalStatuses as MessageStatus[] }, updated_at: { $lt: before } },
      { limit: batch, projection: { _id: 1, status: 1 } },
    );
    let deleted = 0;
    for (const m of old) if (await this.stored.remove({ _id: m._id, status: m.status })) deleted++;
    return deleted;
  }
}
