import type { MessageChannel, MessageStep } from '@furniture/contracts';
import { inTraceOf, type Logger } from '@furniture/platform/domain';
import type { MessageRepository } from '../data-access/message-repository';
import type { AnonymousMessages } from './anonymous-messages';
import { chooseChannel } from './channels';
import type { MessageOutcomes } from './message-outcomes';
import { ProviderError, type MessageProvider, type MessageRecord } from './message-types';

export type MessageOutcome = 'sent' | 'retry' | 'failed' | 'skipped';

export interface MessageSenderOptions {
  messages: MessageRepository;
  providers: Partial<Record<MessageChannel, MessageProvider>>;
  outcomes: MessageOutcomes;
  /** anonymous submissions' messages: allowed countries, one per number and day */
  anonymous?: AnonymousMessages;
  logger: Logger;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  concurrency: number;
  leaseMs: number;
  wakeMaxMs: number;
  probeIntervalMs: number;
  onOutcome?: (channel: MessageChannel | 'none', outcome: MessageOutcome) => void;
}

const BATCH = 50;
const ERROR_PAUSE_MS = 1000;

/**
 * Sends queued messages (MailSender's pattern). Each due message is claimed with a lease, its
 * channel chosen (WhatsApp, then SMS: on, numbered, not opted out, budget left, not failed for
 * it yet) and handed to that provider:
 * - accepted: `sent` (callbacks move it on to delivered and read);
 * - refused for good (or out of attempts): the channel is marked failed for this message and
 *   the next channel is tried at once; none left: `failed`, parked and visible;
 * - refused for now: retried after base·2^(n-1) ms;
 * - provider unreachable: the message waits without using an attempt; the provider is probed
 *   every `probeIntervalMs` and once it answers every waiting message is due at once. Each goes
 *   out once: its record is claimed by one sender at a time and changes state only from the
 *   state it was claimed in.
 */
export class MessageSender {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private readonly reachable: Record<MessageChannel, boolean> = { whatsapp: true, sms: true };
  private readonly probing: Partial<Record<MessageChannel, Promise<void>>> = {};
  private readonly probeTimers = new Set<NodeJS.Timeout>();

  constructor(private readonly opts: MessageSenderOptions) {}

  start(): void {
    this.kick();
  }

  /** false while the channel's provider cannot be reached */
  isReachable(channel: MessageChannel): boolean {
    return this.reachable[channel];
  }

  private unreachable(channel: MessageChannel): void {
    this.reachable[channel] = false;
    this.probing[channel] ??= this.probe(channel).finally(() => {
      delete this.probing[channel];
    });
  }

  private async probe(channel: MessageChannel): Promise<void> {
    const { logger, probeIntervalMs, messages } = this.opts;
    const provider = this.opts.providers[channel];
    if (!provider) return;
    logger.warn({ channel, probeIntervalMs }, 'message provider unreachable; messages wait');
    const since = Date.now();
    while (!this.stopped) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          this.probeTimers.delete(t);
          resolve();
        }, probeIntervalMs);
        t.unref();
        this.probeTimers.add(t);
      });
      if (this.stopped) return;
      try {
        await provider.probe();
      } catch {
        continue;
      }
      this.reachable[channel] = true;
      const due = await messages.retryAllNow(new Date()).catch(() => 0);
      logger.info(
        { channel, downMs: Date.now() - since, due },
        'message provider answers again; sending',
      );
      this.kick();
      return;
    }
  }

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

  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const t of this.probeTimers) clearTimeout(t);
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
        this.opts.logger.warn({ err: (err as Error).message }, 'message queue sweep failed');
        pauseMs = ERROR_PAUSE_MS;
      }
      if (this.stopped) return;
      if (this.again && pauseMs === undefined) continue;
      await this.schedule(pauseMs);
      return;
    }
  }

  private async schedule(pauseMs?: number): Promise<void> {
    let delay = pauseMs ?? this.opts.wakeMaxMs;
    if (pauseMs === undefined) {
      try {
        const at = await this.opts.messages.nextWakeAt();
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
    const due = await this.opts.messages.due(new Date(), BATCH);
    let next = 0;
    const worker = async () => {
      while (next < due.length && !this.stopped) {
        const m = due[next++]!;
        const claimed = await this.opts.messages.claim(m, new Date(), this.opts.leaseMs);
        if (!claimed) continue;
        if (m.status === 'sending')
          this.opts.logger.warn(
            { messageId: m.id, kind: m.kind, attempt: claimed.attempts },
            'message attempt was cut short (the sender stopped mid-send); sending again, it may arrive twice',
          );
        await this.deliver(claimed);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.opts.concurrency, due.length) }, worker));
    return due.length;
  }

  private step(channel: MessageChannel, status: MessageStep['status'], error: string | null) {
    return { channel, status, at: new Date().toISOString(), error };
  }

  /** One claimed message: its channel chosen, and one attempt on it. */
  private async deliver(m: MessageRecord): Promise<void> {
    const { messages, outcomes, logger } = this.opts;
    const log = { messageId: m.id, kind: m.kind, attempt: m.attempts };
    const admitted = this.opts.anonymous
      ? await this.opts.anonymous.admit(m)
      : { numbers: { whatsapp_to: m.whatsapp_to, sms_to: m.sms_to } };
    if ('refused' in admitted) {
      const done = await messages.markFinal(m, {
        status: 'skipped',
        reason: admitted.refused,
        steps: [],
      });
      if (done) {
        logger.info({ ...log, reason: admitted.refused }, 'message skipped');
        this.opts.onOutcome?.('none', 'skipped');
      }
      return;
    }
    const choice = await chooseChannel({ ...m, ...admitted.numbers }, outcomes.view(m));
    const passed = choice.passed
      .filter(([, why]) => why !== 'failed')
      .map(([channel, why]) => this.step(channel, 'skipped', why));
    if (choice.channel === null) {
      if (choice.final === 'failed') await outcomes.failedForGood(m, choice.reason);
      const done = await messages.markFinal(m, {
        status: choice.final,
        reason: choice.reason,
        steps: passed,
      });
      if (done) {
        logger[choice.final === 'failed' ? 'error' : 'info'](
          { ...log, reason: choice.reason },
          choice.final === 'failed' ? 'message failed for good' : 'message skipped',
        );
        this.opts.onOutcome?.('none', choice.final);
      }
      return;
    }
    const { channel, to } = choice;
    const provider = this.opts.providers[channel];
    if (!provider) return; // chooseChannel takes only channels that are on
    if (!this.reachable[channel]) {
      // it waits for the probe (which makes it due at once); no attempt used
      await messages.markRetry(
        m,
        new Date(Date.now() + Math.min(this.opts.probeIntervalMs * 5, this.opts.wakeMaxMs)),
        `${channel} provider unreachable`,
        { refund: true, channel },
      );
      return;
    }
    try {
      const { providerId } = await inTraceOf(
        m.traceparent,
        `${channel} send`,
        { 'message.kind': m.kind, 'message.id': m.id, 'message.attempt': m.attempts },
        () =>
          provider.send({
            id: m.id,
            to,
            language: m.language,
            template: m.template,
            params: m.params,
            text: m.text ?? '',
          }),
      );
      const budgetKey = outcomes.budgetKey(channel);
      await messages.markSent(m, {
        channel,
        providerId,
        budgetKey,
        steps: [...passed, this.step(channel, 'sent', null)],
      });
      logger.info({ ...log, channel }, 'message sent');
      this.opts.onOutcome?.(channel, 'sent');
      await outcomes.afterSent(channel).catch((err: Error) => {
        logger.warn({ err: err.message, channel }, 'budget warning not recorded');
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const failure = err instanceof ProviderError ? err.failure : 'temporary';
      if (failure === 'unreachable') {
        this.unreachable(channel);
        await messages.markRetry(m, new Date(), message, { refund: true, channel });
        logger.warn({ ...log, channel, err: message }, 'message provider unreachable; it waits');
        this.opts.onOutcome?.(channel, 'retry');
        return;
      }
      if (failure === 'permanent' || m.attempts >= this.opts.maxAttempts) {
        await messages.markChannelFailed(m, channel, message, [
          this.step(channel, 'failed', message.slice(0, 200)),
        ]);
        logger.warn({ ...log, channel, err: message, failure }, 'message refused on this channel');
        this.opts.onOutcome?.(channel, 'failed');
        this.again = true;
        return;
      }
      const delay = this.backoff(m.attempts);
      await messages.markRetry(m, new Date(Date.now() + delay), message, { channel });
      logger.warn({ ...log, channel, err: message, retryInMs: delay }, 'message refused for now');
      this.opts.onOutcome?.(channel, 'retry');
    }
  }

  backoff(attempt: number): number {
    return Math.min(this.opts.retryBaseMs * 2 ** (attempt - 1), this.opts.retryMaxMs);
  }
}
