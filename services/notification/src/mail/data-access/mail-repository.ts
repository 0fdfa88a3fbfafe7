import {
  insertedUnlessTaken,
  maskPersonalData,
  nextId,
  type Claims,
  type Connection,
  type Store,
  type StoredCollection,
} from '@furniture/platform';
import type { MailRecord, MailThread } from '../domain/mail-types';
import { claimFields, dueOfQueue, nextClaimOf, nextWakeOfQueue } from '../../queue/queue-reads';
import type { MailDoc } from './models';

export type { MailRecord } from '../domain/mail-types';
export type NewMail = Omit<
  MailDoc,
  | '_id'
  | 'id'
  | 'state'
  | 'attempts'
  | 'lease_until'
  | 'last_error'
  | 'withdrawn_reason'
  | 'smtp_response'
  | 'created_at'
  | 'updated_at'
  | 'sent_at'
> & { event_id: string };

/**
 * Mail records. Every state change is guarded in its filter by the state and attempt number it
 * starts from.
 */
export class MailRepository {
  private readonly stored: StoredCollection<MailDoc>;
  /** the attempts' claims: one process per attempt */
  private readonly claims: Claims;

  constructor(
    store: Store,
    private readonly conn: Connection,
  ) {
    this.stored = store.collection<MailDoc>({ name: 'mails', key: '_id' });
    this.claims = store.claims();
  }

  /**
   * Runs `fn` while no other decision about this thread's mails runs in this process (the sender
   * keeps a family's or a donor's mails in order; its claims stay guarded across processes).
   */
  inTurnOfThread<T>(thread: MailThread, fn: () => Promise<T>): Promise<T> {
    const key =
      'donation_id' in thread
        ? `donation:${thread.donation_id}`
        : `application:${thread.application_id}`;
    return this.stored.inTurnOf(key, fn);
  }

  /** Queues a mail; false when this event already has one (a redelivery). */
  async insert(mail: NewMail): Promise<boolean> {
    const { event_id: eventId, ...fields } = mail;
    if (await this.stored.exists({ _id: eventId })) return false;
    const now = new Date();
    const doc: MailDoc = {
      ...fields,
      _id: eventId,
      id: await nextId(this.conn, 'mails'),
      state: 'queued',
      attempts: 0,
      lease_until: null,
      last_error: null,
      withdrawn_reason: null,
      smtp_response: null,
      created_at: now,
      updated_at: now,
      sent_at: null,
    };
    return insertedUnlessTaken(() => this.stored.insert({ ...doc }));
  }

  /** Queued mails that are due, and mails whose sending attempt was lost (oldest first). */
  due(now: Date, limit: number): Promise<MailRecord[]> {
    return dueOfQueue<MailRecord>(this.stored, 'state', now, limit);
  }

  /** When the sender has to look again: the earliest due time of a queued or sending mail. */
  nextWakeAt(): Promise<Date | null> {
    return nextWakeOfQueue(this.stored, 'state');
  }

  /** Every mail of one application or donation, oldest event first. */
  async forThread(thread: MailThread): Promise<MailRecord[]> {
    return this.stored.find(thread, { sort: { occurred_at: 1, id: 1 } });
  }

  /** Takes a due mail for one attempt; null when someone else took it or it changed meanwhile. */
  async claim(mail: MailRecord, now: Date, leaseMs: number): Promise<MailRecord | null> {
    // one process per claim: its number's key decides (a guarded update may match twice)
    if (!(await this.claims.claim(`mail:${mail._id}#${nextClaimOf(mail)}`, leaseMs, now)))
      return null;
    const set = { state: 'sending' as const, ...claimFields(mail, 'state', now, leaseMs) };
    const done = await this.stored.update(
      { _id: mail._id, state: mail.state, attempts: mail.attempts },
      { $set: set },
    );
    return done ? { ...mail, ...set } : null;
  }

  private async finish(
    mail: MailRecord,
    set: Partial<MailDoc>,
    from: MailRecord['state'] = 'sending',
  ): Promise<boolean> {
    return this.stored.update(
      { _id: mail._id, state: from, attempts: mail.attempts },
      { $set: { ...set, updated_at: new Date() } },
    );
  }

  /**
   * Once a mail reached a final state its rendered text (the family's name, the lot, the office)
   * is of no more use: the record keeps what was sent to whom and when (data protection,
   * docs/privacy.md), and the server's answers are kept without addresses or numbers.
   */
  private static readonly FINAL_BODY = { text: '', html: '' };

  markSent(mail: MailRecord, response: string): Promise<boolean> {
    return this.finish(mail, {
      state: 'sent',
      sent_at: new Date(),
      lease_until: null,
      next_attempt_at: null,
      smtp_response: maskPersonalData(response).slice(0, 500),
      ...MailRepository.FINAL_BODY,
    });
  }

  /** Back to the queue; with `refund` the attempt does not count (the server was unreachable). */
  markRetry(
    mail: MailRecord,
    nextAttemptAt: Date,
    error: string,
    opts: { refund?: boolean } = {},
  ): Promise<boolean> {
    return this.finish(mail, {
      state: 'queued',
      next_attempt_at: nextAttemptAt,
      lease_until: null,
      last_error: maskPersonalData(error).slice(0, 1000),
      ...(opts.refund ? { attempts: Math.max(mail.attempts - 1, 0) } : {}),
    });
  }

  /** Every queued mail is due now (the SMTP server answers again after an outage). */
  async retryAllNow(now: Date): Promise<number> {
    const waiting = await this.stored.find(
      { state: 'queued', next_attempt_at: { $gt: now } },
      { projection: { _id: 1, state: 1, attempts: 1 } },
    );
    let n = 0;
    for (const mail of waiting) {
      if (await this.postpone(mail as MailRecord, now)) n++;
    }
    return n;
  }

  /**
   * A failed mail keeps its text: the family never got it, and an operator may send it again
   * (`npm run admin -- mails resend`) once the cause is fixed, until MAIL_RETENTION_DAYS or the
   * family's erasure deletes it.
   */
  markFailed(mail: MailRecord, error: string): Promise<boolean> {
    return this.finish(mail, {
      state: 'failed',
      next_attempt_at: null,
      lease_until: null,
      last_error: maskPersonalData(error).slice(0, 1000),
    });
  }

  /** Mails that failed for good, the latest first. */
  async failed(limit: number): Promise<MailRecord[]> {
    return this.stored.find({ state: 'failed' }, { sort: { updated_at: -1, id: -1 }, limit });
  }

  async findById(id: number): Promise<MailRecord | null> {
    return this.stored.findOne({ id });
  }

  /** A failed mail back in the queue, due now, with all its attempts; false when not failed. */
  requeue(mail: MailRecord, now: Date): Promise<boolean> {
    return this.stored.update(
      { _id: mail._id, state: 'failed' },
      { $set: { state: 'queued', attempts: 0, next_attempt_at: now, updated_at: now } },
    );
  }

  /**
   * Deletes mails that reached a final state before `before` (their text holds a family's name
   * and address), a batch at a time; answers how many went.
   */
  async purgeFinished(before: Date, batch = 500): Promise<number> {
    const old = await this.stored.find(
      { state: { $in: ['sent', 'failed', 'withdrawn'] }, updated_at: { $lt: before } },
      { limit: batch, projection: { _id: 1, state: 1 } },
    );
    let deleted = 0;
    for (const mail of old)
      if (await this.stored.remove({ _id: mail._id, state: mail.state })) deleted++;
    return deleted;
  }

  /** Puts a mail back in the queue without using an attempt (waiting for another mail's outcome). */
  postpone(mail: MailRecord, until: Date): Promise<boolean> {
    return this.finish(
      mail,
      { state: 'queued', next_attempt_at: until, lease_until: null },
      mail.state,
    );
  }
}
