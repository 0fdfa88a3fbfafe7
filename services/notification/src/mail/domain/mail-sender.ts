import { inTraceOf, type Logger } from '@furniture/platform/domain';
import type { MailRepository } from '../data-access/mail-repository';
import { MailDeliveryError, threadOf, type MailRecord, type Mailer } from './mail-types';

export type SendOutcome = 'sent' | 'retry' | 'failed';

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
  /** while the SMTP server is unreachable: how often to look whether it is back */
  probeIntervalMs: number;
  onOutcome?: (outcome: SendOutcome) => void;
}

type Verdict = { send: true } | { send: false; postponeMs: number };

const BATCH = 50;
const ERROR_PAUSE_MS = 1000;
/** a mail waits this long while an older mail of its application (or donation) is on the wire */
const IN_FLIGHT_WAIT_MS = 2000;
/** a mail waits this long (at least) for an older mail of its application to go first */
const ORDER_WAIT_MS = 300;

/**
 * Sends queued mails. Reads only its own mail records: it sleeps until the earliest due mail
 * (at most `wakeMaxMs`) and is woken at once when a mail is queued.
 *
 * Failures by kind (see DeliveryFailure): a permanent refusal marks the mail failed; a temporary
 * one is retried after base·2^(n-1) ms (capped) and marks it failed after the last attempt. When
 * the server cannot be reached at all, sending stops: the mails wait without using up attempts,
 * the server is probed every `probeIntervalMs`, and once it answers every waiting mail is due at
 * once. An outage of any length therefore costs no mail and delays them by one probe interval.
 */
export class MailSender {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private smtpOk = true;
  private probing?: Promise<void>;
  private probeTimer?: NodeJS.Timeout;

  constructor(private readonly opts: MailSenderOptions) {}

  start(): void {
    this.kick();
  }

  /** false while the SMTP server cannot be reached (from a failed send until a probe answers) */
  smtpHealthy(): boolean {
    return this.smtpOk;
  }

  /** The server could not be reached: stop sending and probe until it answers. */
  private unreachable(): void {
    this.smtpOk = false;
    this.probing ??= this.probe().finally(() => {
      this.probing = undefined;
    });
  }

  private async probe(): Promise<void> {
    const { mailer, mails, logger, probeIntervalMs } = this.opts;
    logger.warn({ probeIntervalMs }, 'SMTP server unreachable; mails wait until it answers');
    const since = Date.now();
    while (!this.stopped) {
      await new Promise<void>((resolve) => {
        this.probeTimer = setTimeout(resolve, probeIntervalMs);
        this.probeTimer.unref();
      });
      if (this.stopped) return;
      try {
        await mailer.verify();
      } catch {
        continue;
      }
      const due = await mails.retryAllNow(new Date()).catch(() => 0);
      this.smtpOk = true;
      logger.info({ downMs: Date.now() - since, due }, 'SMTP server answers again; sending');
      this.kick();
      return;
    }
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
      if (this.again && this.smtpOk) this.kick();
    });
  }

  /** Resolves when the current run (if any) has ended (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.probeTimer) clearTimeout(this.probeTimer);
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
      // while the server cannot be reached, the probe kicks the sender when it answers again
      if (this.stopped || !this.smtpOk) return;
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
    // while the server cannot be reached the probe decides when sending starts again
    if (!this.smtpOk) return 0;
    const due = await this.opts.mails.due(new Date(), BATCH);
    let next = 0;
    const worker = async () => {
      while (next < due.length && !this.stopped && this.smtpOk) {
        const mail = due[next++]!;
        await this.process(mail);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.opts.concurrency, due.length) }, worker));
    return due.length;
  }

  private async process(mail: MailRecord): Promise<void> {
    const { mails, leaseMs } = this.opts;
    // decisions about one application's (or donation's) mails are taken one at a time (see verdict)
    const claimed = await mails.inTurnOfThread(threadOf(mail), async () => {
      const verdict = await this.verdict(mail);
      if (verdict.send) return mails.claim(mail, new Date(), leaseMs);
      await mails.postpone(mail, new Date(Date.now() + verdict.postponeMs));
      return null;
    });
    if (!claimed) return;
    if (mail.state === 'sending') {
      this.opts.logger.warn(
        { mailId: mail.id, kind: mail.kind, attempt: claimed.attempts },
        'mail attempt was cut short (the sender stopped mid-send); sending again, it may arrive twice',
      );
    }
    await this.deliver(claimed);
  }

  /**
   * What to do with a due mail, decided under its application's lock: a family (or a donor) reads
   * its mails in the order things happened, so while an older mail of the same application (or
   * donation) is still queued (an SMTP outage) it is sent first, and this one waits.
   */
  private async verdict(mail: MailRecord): Promise<Verdict> {
    const all = await this.opts.mails.forThread(threadOf(mail));
    const at = mail.occurred_at.getTime();
    const older = all.filter(
      (m) =>
        (m.state === 'queued' || m.state === 'sending') &&
        (m.occurred_at.getTime() < at || (m.occurred_at.getTime() === at && m.id < mail.id)),
    );
    if (older.length === 0) return { send: true };
    const now = Date.now();
    let waitUntil = now + ORDER_WAIT_MS;
    for (const m of older) {
      if (m.state === 'queued' && (m.next_attempt_at?.getTime() ?? now) > now) {
        // it only waits for a retry: if SMTP works for this mail, it works for that one too
        await this.opts.mails.postpone(m, new Date(now));
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
      const { response } = await inTraceOf(
        mail.traceparent,
        'smtp send',
        { 'mail.kind': mail.kind, 'mail.id': mail.id, 'mail.attempt': mail.attempts },
        () =>
          mailer.send({
            to: mail.to,
            subject: mail.subject,
            text: mail.text,
            html: mail.html,
            language: mail.language,
            messageId: mail.message_id,
          }),
      );
      await mails.markSent(mail, response);
      logger.info(log, 'mail sent');
      this.opts.onOutcome?.('sent');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const failure = err instanceof MailDeliveryError ? err.failure : 'unreachable';
      if (failure === 'unreachable') {
        // not the mail's fault: it waits for the server without using up an attempt
        this.unreachable();
        await mails.markRetry({ ...mail }, new Date(), message, { refund: true });
        logger.warn({ ...log, err: message }, 'mail not sent: SMTP server unreachable; it waits');
        this.opts.onOutcome?.('retry');
        return;
      }
      if (failure === 'permanent' || mail.attempts >= this.opts.maxAttempts) {
        await mails.markFailed(mail, message);
        logger.error({ ...log, err: message, failure }, 'mail failed for good');
        this.opts.onOutcome?.('failed');
        return;
      }
      const delay = this.backoff(mail.attempts);
      await mails.markRetry(mail, new Date(Date.now() + delay), message);
      logger.warn({ ...log, err: message, retryInMs: delay }, 'mail refused for now; will retry');
      this.opts.onOutcome?.('retry');
    }
  }

  /** Delay after the n-th failed attempt. */
  backoff(attempt: number): number {
    return Math.min(this.opts.retryBaseMs * 2 ** (attempt - 1), this.opts.retryMaxMs);
  }
}
