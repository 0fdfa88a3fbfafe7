import { withLock, type Logger } from '@furniture/platform';
import type { MailRecord, MailRepository } from '../data-access/mail-repository';
import { MailDeliveryError, type Mailer } from './mail-types';

export type SendOutcome = 'sent' | 'retry' | 'failed' | 'withdrawn';

export interface MailSenderOptions {
  mails: MailRepository;
  mailer: Mailer;
  logger: Logger;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  concurrency: number;
  leaseMs: number;
  /** longest sleep between two looks at the queue */
  wakeMaxMs: number;
  /** namespace of the per-application locks (the database name) */
  lockScope: string;
  onOutcome?: (outcome: SendOutcome) => void;
}

type Verdict =
  { send: true } | { send: false; withdraw: string } | { send: false; postponeMs: number };

const BATCH = 50;
const ERROR_PAUSE_MS = 1000;
/** a cancellation waits this long while its approval mail is on the wire */
const IN_FLIGHT_WAIT_MS = 2000;
/** a mail waits this long (at least) for an older mail of its application to go first */
const ORDER_WAIT_MS = 300;

/**
 * Sends queued mails. Reads only its own mail records: it sleeps until the earliest due mail
 * (at most `wakeMaxMs`) and is woken at once when a mail is queued. Failed attempts are retried
 * after base·2^(n-1) ms (capped); a permanent SMTP refusal or the last attempt marks the mail
 * failed.
 */
export class MailSender {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private smtpOk = true;

  constructor(private readonly opts: MailSenderOptions) {}

  start(): void {
    this.kick();
  }

  /** false after an attempt failed for a transient reason, until one succeeds */
  smtpHealthy(): boolean {
    return this.smtpOk;
  }

  /** Looks at the queue now; runs never overlap. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
      if (this.again) this.kick();
    });
  }

  /** Resolves when the current run (if any) has ended (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.idle();
  }

  private async loop(): Promise<void> {
    for (;;) {
      this.again = false;
      let pauseMs: number | undefined;
      try {
        const seen = await this.sweep();
        if (seen >= BATCH) this.again = true;
      } catch (err) {
        this.opts.logger.warn({ err: (err as Error).message }, 'mail queue sweep failed');
        pauseMs = ERROR_PAUSE_MS;
      }
      if (this.stopped) return;
      if (this.again && pauseMs === undefined) continue;
      await this.schedule(pauseMs);
      if (!this.again || pauseMs !== undefined) return;
    }
  }

  private async schedule(pauseMs?: number): Promise<void> {
    let delay = pauseMs ?? this.opts.wakeMaxMs;
    if (pauseMs === undefined) {
      try {
        const at = await this.opts.mails.nextWakeAt();
        if (at) delay = Math.min(Math.max(at.getTime() - Date.now(), 0), this.opts.wakeMaxMs);
      } catch {
        delay = ERROR_PAUSE_MS;
      }
    }
    if (this.timer) clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => this.kick(), Math.max(delay, 5));
    this.timer.unref();
  }

  private async sweep(): Promise<number> {
    const due = await this.opts.mails.due(new Date(), BATCH);
    let next = 0;
    const worker = async () => {
      while (next < due.length && !this.stopped) {
        const mail = due[next++]!;
        await this.process(mail);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.opts.concurrency, due.length) }, worker));
    return due.length;
  }

  private async process(mail: MailRecord): Promise<void> {
    const { mails, leaseMs, logger } = this.opts;
    // decisions about one application's mails are taken one at a time (see verdict)
    const claimed = await withLock(
      `${this.opts.lockScope}.mails:application:${mail.application_id}`,
      async () => {
        const verdict = await this.verdict(mail);
        if (verdict.send) return mails.claim(mail, new Date(), leaseMs);
        if ('withdraw' in verdict) {
          if (await mails.withdraw(mail, verdict.withdraw)) {
            logger.info(
              { mailId: mail.id, kind: mail.kind, applicationId: mail.application_id },
              `mail withdrawn: ${verdict.withdraw}`,
            );
            this.opts.onOutcome?.('withdrawn');
          }
        } else {
          await mails.postpone(mail, new Date(Date.now() + verdict.postponeMs));
        }
        return null;
      },
    );
    if (claimed) await this.deliver(claimed);
  }

  /**
   * What to do with a due mail, decided under its application's lock:
   * - an approval that is cancelled before its mail went out (the lot could not be reserved, or
   *   staff undid it at once) is never announced: both mails are withdrawn; a cancellation is only
   *   mailed to a family that was told of the approval;
   * - a family reads its mails in the order things happened: while an older mail of the same
   *   application is still queued (an SMTP outage) it is sent first, and this one waits.
   */
  private async verdict(mail: MailRecord): Promise<Verdict> {
    const all = await this.opts.mails.forApplication(mail.application_id);
    // a cancellation always follows its approval, so the same millisecond counts as "after"
    const at = mail.occurred_at.getTime();
    if (mail.kind === 'approved') {
      const cancelled = all.some(
        (m) => m.kind === 'reservation_cancelled' && m.occurred_at.getTime() >= at,
      );
      if (cancelled)
        return { send: false, withdraw: 'the reservation was cancelled before the mail went out' };
    }
    if (mail.kind === 'reservation_cancelled') {
      const approval = all
        .filter((m) => m.kind === 'approved' && m.occurred_at.getTime() <= at)
        .at(-1);
      if (approval?.state === 'sending') return { send: false, postponeMs: IN_FLIGHT_WAIT_MS };
      if (approval?.state !== 'sent')
        return { send: false, withdraw: 'the family was never told of the approval' };
    }

    const older = all.filter(
      (m) =>
        (m.state === 'queued' || m.state === 'sending') &&
        (m.occurred_at.getTime() < at || (m.occurred_at.getTime() === at && m.id < mail.id)),
    );
    if (older.length === 0) return { send: true };
    const now = Date.now();
    let waitUntil = now + ORDER_WAIT_MS;
    for (const m of older) {
      const due = m.next_attempt_at?.getTime() ?? now;
      const onHold = m.kind === 'approved' && m.attempts === 0;
      if (m.state === 'queued' && due > now && !onHold) {
        // it only waits for a retry: if SMTP works for this mail, it works for that one too
        await this.opts.mails.postpone(m, new Date(now));
      } else if (m.state === 'queued' && onHold) {
        waitUntil = Math.max(waitUntil, due + ORDER_WAIT_MS);
      } else if (m.state === 'sending') {
        waitUntil = Math.max(waitUntil, now + IN_FLIGHT_WAIT_MS);
      }
    }
    return { send: false, postponeMs: waitUntil - now };
  }

  private async deliver(mail: MailRecord): Promise<void> {
    const { mails, mailer, logger } = this.opts;
    const log = { mailId: mail.id, kind: mail.kind, attempt: mail.attempts };
    try {
      const { response } = await mailer.send({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        language: mail.language,
        messageId: mail.message_id,
      });
      this.smtpOk = true;
      await mails.markSent(mail, response);
      logger.info(log, 'mail sent');
      this.opts.onOutcome?.('sent');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const permanent = err instanceof MailDeliveryError && err.permanent;
      if (!permanent) this.smtpOk = false;
      if (permanent || mail.attempts >= this.opts.maxAttempts) {
        await mails.markFailed(mail, message);
        logger.error({ ...log, err: message, permanent }, 'mail failed for good');
        this.opts.onOutcome?.('failed');
        return;
      }
      const delay = this.backoff(mail.attempts);
      await mails.markRetry(mail, new Date(Date.now() + delay), message);
      logger.warn({ ...log, err: message, retryInMs: delay }, 'mail not sent; will retry');
      this.opts.onOutcome?.('retry');
    }
  }

  /** Delay after the n-th failed attempt. */
  backoff(attempt: number): number {
    return Math.min(this.opts.retryBaseMs * 2 ** (attempt - 1), this.opts.retryMaxMs);
  }
}
