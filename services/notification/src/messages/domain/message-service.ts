import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  type Actor,
  type DomainEvent,
  type Message,
  type MessageChannel,
  type MessageStatusAnswer,
  type MessageThreadQuery,
  type OptOutState,
} from '@furniture/contracts';
import { AppError, type Logger } from '@furniture/platform/domain';
import type { MessageRepository } from '../data-access/message-repository';
import type { OptOutRepository } from '../data-access/opt-out-repository';
import { ChannelOrder, keywordOf, maskNumber, numberFor, phoneHash } from './channels';
import { draftOf, type MessageContext } from './message-facts';
import type { MessageOutcomes } from './message-outcomes';
import type { MessageActivity } from './message-ports';
import type {
  CallbackReader,
  InboundMessage,
  MessageRecord,
  MessageThread,
  StatusReport,
} from './message-types';

export type QueueResult = 'queued' | 'duplicate' | 'not_messaged';

/**
 * Equal secrets, in constant time: the digests are compared, so neither a differing byte nor a
 * differing length tells an attacker how close a guess came (issue 43).
 */
function sameSecret(given: string, expected: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The messages module's domain: every mailed event and every prepared message becomes one
 * message record (one per event: a redelivery queues nothing), which the sender takes; staff
 * read a thread's messages and the parked ones, resend one, and mark a number opted out; the
 * providers' signed callbacks move a message on (forward only) or let a family opt out (STOP).
 */
export class MessageService {
  constructor(
    private readonly deps: {
      messages: MessageRepository;
      optOuts: OptOutRepository;
      outcomes: MessageOutcomes;
      activity: MessageActivity;
      context: MessageContext;
      callbacks: Partial<Record<MessageChannel, CallbackReader>>;
      verifyToken: string;
      reachable: (channel: MessageChannel) => boolean;
      onQueued: () => void;
      logger: Logger;
    },
  ) {}

  private get enabled(): Record<MessageChannel, boolean> {
    const view = this.deps.outcomes.view();
    return { whatsapp: view.whatsapp.enabled, sms: view.sms.enabled };
  }

  async onEvent(event: DomainEvent): Promise<QueueResult> {
    const draft = draftOf(event, this.deps.context);
    if (!draft) return 'not_messaged';
    const { thread, email, ...rest } = draft;
    const staff = draft.kind.startsWith('staff_');
    const queued = await this.deps.messages.insert({
      event_id: event.eventId,
      event_name: event.name,
      ...rest,
      application_id: 'application_id' in thread ? thread.application_id : null,
      wish_id: 'wish_id' in thread ? thread.wish_id : null,
      donation_id: 'donation_id' in thread ? thread.donation_id : null,
      emailed: email !== null,
      mail_to: staff ? email : null,
      next_attempt_at: new Date(),
      traceparent: event.traceparent ?? null,
      occurred_at: new Date(event.occurredAt),
    });
    if (!queued) return 'duplicate';
    this.deps.logger.info(
      { event: event.name, eventId: event.eventId, kind: draft.kind },
      'message queued',
    );
    this.deps.onQueued();
    return 'queued';
  }

  /** A record as staff read it: the number masked, never the whole number. */
  toAnswer(m: MessageRecord): Message {
    const to = m.channel ? numberFor(m, m.channel) : (m.whatsapp_to ?? m.sms_to);
    return {
      id: m.id,
      kind: m.kind,
      application_id: m.application_id,
      wish_id: m.wish_id,
      donation_id: m.donation_id,
      lot_id: m.lot_id,
      channel: m.channel,
      to: maskNumber(to),
      language: m.language,
      template: m.template,
      text: m.text,
      status: m.status,
      reason: m.reason,
      steps: m.steps,
      emailed: m.emailed,
      requested_by: m.requested_by,
      created_at: m.created_at.toISOString(),
      updated_at: m.updated_at.toISOString(),
    };
  }

  async thread(q: MessageThreadQuery): Promise<{ messages: Message[] }> {
    const thread: MessageThread =
      q.application_id !== undefined
        ? { application_id: q.application_id }
        : q.wish_id !== undefined
          ? { wish_id: q.wish_id }
          : { donation_id: q.donation_id! };
    const records = await this.deps.messages.thread(thread);
    return { messages: records.map((m) => this.toAnswer(m)) };
  }

  async failed(page: number, limit: number): Promise<{ messages: Message[]; total: number }> {
    const { messages, total } = await this.deps.messages.failed(page, limit);
    return { messages: messages.map((m) => this.toAnswer(m)), total };
  }

  async status(): Promise<MessageStatusAnswer> {
    const { outcomes } = this.deps;
    const now = new Date();
    const one = async (channel: MessageChannel) => {
      const usage = await outcomes.usage(channel, now);
      return {
        enabled: this.enabled[channel],
        used: usage.used,
        budget: usage.budget > 0 ? usage.budget : null,
        warning: usage.warning,
        spent: usage.spent,
        reachable: this.deps.reachable(channel),
      };
    };
    const [whatsapp, sms, failed] = await Promise.all([
      one('whatsapp'),
      one('sms'),
      this.deps.messages.countFailed(),
    ]);
    return { whatsapp, sms, failed, month: outcomes.month(now) };
  }

  /** A parked message once more, on every channel again (staff fixed the cause). */
  async resend(id: number, actor: Actor): Promise<Message> {
    const m = await this.deps.messages.findById(id);
    if (!m) throw new AppError('MESSAGE_NOT_FOUND');
    if (m.status !== 'failed') throw new AppError('MESSAGE_NOT_FAILED');
    if (!ChannelOrder.some((c) => this.enabled[c])) throw new AppError('MESSAGES_OFF');
    if (!(await this.deps.messages.requeue(m, new Date())))
      throw new AppError('MESSAGE_NOT_FAILED');
    this.deps.logger.info({ messageId: m.id, kind: m.kind, by: actor.id }, 'message resent');
    this.deps.onQueued();
    const again = await this.deps.messages.findById(id);
    return this.toAnswer(again ?? m);
  }

  async optOutState(e164: string): Promise<OptOutState> {
    const hash = phoneHash(e164);
    const [whatsapp, sms] = await Promise.all([
      this.deps.optOuts.isOptedOut('whatsapp', hash),
      this.deps.optOuts.isOptedOut('sms', hash),
    ]);
    return { phone: e164, whatsapp, sms };
  }

  /** Staff mark a number (the family asked by phone or at the counter). */
  async setOptOut(
    actor: Actor,
    e164: string,
    channel: MessageChannel,
    optedOut: boolean,
  ): Promise<OptOutState> {
    await this.changeOptOut(channel, e164, optedOut, 'staff', actor);
    return this.optOutState(e164);
  }

  private async changeOptOut(
    channel: MessageChannel,
    e164: string,
    optedOut: boolean,
    by: 'family' | 'staff',
    actor: Actor | null,
  ): Promise<void> {
    const hash = phoneHash(e164);
    const changed = optedOut
      ? await this.deps.optOuts.optOut(channel, hash, by)
      : await this.deps.optOuts.optIn(channel, hash);
    if (!changed) return;
    this.deps.logger.info({ channel, optedOut, by }, 'message opt-out changed');
    await this.deps.activity.record({
      eventId: `message-opt-out:${randomUUID()}`,
      action: 'MESSAGE_OPT_OUT',
      target: 'system',
      targetId: null,
      details: { channel, opted_out: optedOut, by },
      user: actor,
    });
  }

  /** Meta's webhook verification: the challenge when the token matches, else refused. */
  verifyWebhook(mode: string, token: string, challenge: string): string {
    const expected = this.deps.verifyToken;
    if (mode !== 'subscribe' || !expected || !sameSecret(token, expected)) {
      this.deps.logger.warn({ channel: 'whatsapp' }, 'webhook verification refused');
      throw new AppError('MESSAGE_CALLBACK_FORBIDDEN');
    }
    return challenge;
  }

  /**
   * A provider's callback: refused (403, logged without its content) unless signed for exactly
   * this body; a signed body that is no callback at all is a bad request.
   */
  async callback(channel: MessageChannel, raw: Buffer, signature: string | undefined) {
    const reader = this.deps.callbacks[channel];
    if (!reader || !reader.verify(raw, signature)) {
      this.deps.logger.warn(
        { channel, signed: signature !== undefined, bytes: raw.length },
        'message callback refused: bad signature',
      );
      throw new AppError('MESSAGE_CALLBACK_FORBIDDEN');
    }
    const content = reader.read(raw);
    if (!content) throw new AppError('BAD_REQUEST');
    let early = false;
    for (const report of content.reports) early = (await this.onReport(report)) || early;
    for (const inbound of content.inbound) await this.onInbound(inbound);
    // a report about a message whose send is still being recorded (the provider was quicker
    // than our write of its id): 503, and the provider posts it again shortly (Meta retries)
    if (early) throw new AppError('SERVICE_UNAVAILABLE');
  }

  /** Applies a report; true when it came before its message's provider id was recorded. */
  private async onReport(r: StatusReport): Promise<boolean> {
    const m = await this.deps.messages.findByProviderId(r.providerId);
    if (!m || m.channel !== r.channel) {
      if (m || r.messageId === undefined) return false;
      const ours = await this.deps.messages.findById(r.messageId);
      return ours?.status === 'sending';
    }
    const step = {
      channel: r.channel,
      status: r.status,
      at: new Date().toISOString(),
      error: r.error,
    };
    if (r.status === 'failed') {
      if (await this.deps.messages.reportFailed(m, r.channel, step)) {
        this.deps.logger.warn(
          { messageId: m.id, channel: r.channel, err: r.error },
          'message undelivered; the next channel is tried',
        );
        this.deps.onQueued();
      }
      return false;
    }
    await this.deps.messages.report(m, r.status, step);
    return false;
  }

  private async onInbound(msg: InboundMessage): Promise<void> {
    const word = keywordOf(msg.text);
    if (!word) return;
    await this.changeOptOut(msg.channel, msg.from, word === 'stop', 'family', null);
  }
}
