import type { MessageChannel, MessageReason } from '@furniture/contracts';
import type { Logger } from '@furniture/platform/domain';
import type { BudgetWarningRepository, OptOutRepository } from '../data-access/opt-out-repository';
import type { MessageRepository } from '../data-access/message-repository';
import { budgetKey, budgetState, monthOf, phoneHash, type ChannelView } from './channels';
import type { MessageActivity, MessageMail } from './message-ports';
import type { AnonymousQuotaRepository } from '../data-access/anonymous-quota-repository';
import { isAnonymousKind } from './anonymous-messages';
import type { MessageRecord } from './message-types';

export interface ChannelSettings {
  enabled: boolean;
  /** messages per calendar month; 0: none */
  budget: number;
}

/**
 * What follows from a message's fate, whoever decides it (the sender, a callback): the month's
 * budget and its warning at 80 % (once per channel and month: an activity entry and a mail to the
 * office), and a message that failed for good (an activity entry; a prepared message's text by
 * mail when the family has an address).
 */
export class MessageOutcomes {
  constructor(
    private readonly deps: {
      messages: MessageRepository;
      optOuts: OptOutRepository;
      warnings: BudgetWarningRepository;
      channels: Record<MessageChannel, ChannelSettings>;
      /** the share (percent) of each channel's budget that anonymous submissions' messages get */
      anonymousPercent: number;
      quota: AnonymousQuotaRepository;
      activity: MessageActivity;
      mail: MessageMail;
      timeZone: string;
      siteName: string;
      officeEmail: string;
      logger: Logger;
    },
  ) {}

  month(at = new Date()): string {
    return monthOf(at, this.deps.timeZone);
  }

  budgetKey(channel: MessageChannel, at = new Date()): string {
    return budgetKey(channel, this.month(at));
  }

  /** This month's use of a channel and where it stands against its budget. */
  async usage(channel: MessageChannel, at = new Date()) {
    const used = await this.deps.messages.countSent(this.budgetKey(channel, at));
    const budget = this.deps.channels[channel].budget;
    return { used, budget, ...budgetState(used, budget) };
  }

  /**
   * Whether an anonymous submission's message finds no place in the month's share of the
   * channel's budget: it takes one of the share's numbered slots (a unique key, exact across
   * replicas) and keeps it for its retries; a channel without a budget has no share to spend.
   */
  async shareSpent(channel: MessageChannel, messageId: number, at = new Date()): Promise<boolean> {
    const { budget } = this.deps.channels[channel];
    if (budget <= 0) return false;
    const size = Math.floor((budget * this.deps.anonymousPercent) / 100);
    return !(await this.deps.quota.takeSlot(
      `anonymous:${this.budgetKey(channel, at)}`,
      size,
      messageId,
    ));
  }

  /** Whether message `messageId` holds one of the month's budget slots of a channel already. */
  async holdsBudget(channel: MessageChannel, messageId: number, at = new Date()): Promise<boolean> {
    return this.deps.quota.holdsSlot(`budget:${this.budgetKey(channel, at)}`, messageId);
  }

  /**
   * Whether the month's budget of a channel has no place for message `messageId` (issue 42). A
   * check of the month's count before sending let two processes' senders pass it together, so a
   * message takes one of the budget's numbered slots (a unique key, as the anonymous share's) and
   * keeps it for its retries and callbacks; it is asked last (chooseChannel), so that a message
   * passed over for another reason takes none. The count of accepted messages still decides as
   * well: messages sent before the slots (the month of an upgrade) count too.
   */
  async budgetSpent(channel: MessageChannel, messageId: number, at = new Date()): Promise<boolean> {
    const { budget } = this.deps.channels[channel];
    if (budget <= 0) return false;
    const slots = `budget:${this.budgetKey(channel, at)}`;
    if (await this.deps.quota.holdsSlot(slots, messageId)) return false;
    if ((await this.usage(channel, at)).spent) return true;
    return !(await this.deps.quota.takeSlot(slots, budget, messageId));
  }

  /** What the sender knows of each channel when it picks one (for message `m`). */
  view(m?: Pick<MessageRecord, 'id' | 'kind'>): Record<MessageChannel, ChannelView> {
    const anonymous = m !== undefined && isAnonymousKind(m.kind);
    const one = (channel: MessageChannel): ChannelView => ({
      enabled: this.deps.channels[channel].enabled,
      optedOut: (e164) => this.deps.optOuts.isOptedOut(channel, phoneHash(e164)),
      spent: async () =>
        this.deps.channels[channel].budget > 0 &&
        !(m && (await this.holdsBudget(channel, m.id))) &&
        (await this.usage(channel)).spent,
      ...(anonymous ? { shareSpent: () => this.shareSpent(channel, m.id) } : {}),
      ...(m ? { takeBudget: async () => !(await this.budgetSpent(channel, m.id)) } : {}),
    });
    return { whatsapp: one('whatsapp'), sms: one('sms') };
  }

  /** After an accepted message: the warning once 80 % of the month's budget are used. */
  async afterSent(channel: MessageChannel): Promise<void> {
    const { budget } = this.deps.channels[channel];
    if (budget <= 0) return;
    const { used, warning } = await this.usage(channel);
    if (!warning) return;
    const month = this.month();
    if (!(await this.deps.warnings.record(channel, month, used, budget))) return;
    const eventId = `message-budget:${channel}:${month}`;
    const name = channel === 'whatsapp' ? 'WhatsApp' : 'SMS';
    this.deps.logger.warn({ channel, month, used, budget }, 'message budget 80 % used');
    await this.deps.activity.record({
      eventId,
      action: 'MESSAGE_BUDGET_WARNING',
      target: 'system',
      targetId: null,
      details: { channel, month, used, budget },
      user: null,
    });
    if (this.deps.officeEmail)
      await this.deps.mail.queue({
        eventId,
        eventName: 'message.budget_warning',
        kind: 'message_budget_warning',
        to: this.deps.officeEmail,
        language: 'de',
        name: '',
        subject: `${name}-Budget zu 80 % verbraucht (${month})`,
        paragraphs: [
          `im ${month} wurden bereits ${used} von ${budget} ${name}-Nachrichten gesendet (80 % des Monatsbudgets).`,
          `Ist das Budget aufgebraucht, gehen in diesem Monat keine ${name}-Nachrichten mehr hinaus (die Familien bekommen sie dann per ${channel === 'whatsapp' ? 'SMS' : 'WhatsApp'}, wenn möglich, und per E-Mail, wenn sie eine Adresse angegeben haben). Das Budget lässt sich mit ${channel === 'whatsapp' ? 'WHATSAPP_MONTHLY_BUDGET' : 'SMS_MONTHLY_BUDGET'} ändern.`,
        ],
        applicationId: null,
        lotId: null,
        occurredAt: new Date(),
      });
  }

  /**
   * A message failed for good: the log says so (no number in it); a prepared message goes to
   * the family by mail instead, when it gave an address.
   */
  async failedForGood(m: MessageRecord, reason: MessageReason): Promise<void> {
    const target =
      m.application_id !== null
        ? { target: 'application' as const, targetId: m.application_id }
        : m.wish_id !== null
          ? { target: 'wish' as const, targetId: m.wish_id }
          : m.donation_id !== null
            ? { target: 'donation' as const, targetId: m.donation_id }
            : { target: 'system' as const, targetId: null };
    if (m.mail_to && m.kind.startsWith('staff_') && m.text) {
      await this.deps.mail.queue({
        eventId: `${m._id}:mail`,
        eventName: m.event_name,
        kind: 'prepared_message',
        to: m.mail_to,
        language: m.language,
        name: '',
        subject:
          m.language === 'de'
            ? `Nachricht von ${this.deps.siteName}`
            : `Повідомлення від ${this.deps.siteName}`,
        paragraphs: [m.text],
        applicationId: m.application_id ?? (m.wish_id !== null ? -m.wish_id : null),
        lotId: m.lot_id,
        occurredAt: new Date(),
      });
    }
    await this.deps.activity.record({
      eventId: `message-failed:${m._id}:${m.steps.length}`,
      action: 'MESSAGE_FAILED',
      ...target,
      details: {
        message_id: m.id,
        kind: m.kind,
        reason,
        channels: m.failed_channels,
        emailed: m.emailed,
      },
      user: null,
    });
  }
}
