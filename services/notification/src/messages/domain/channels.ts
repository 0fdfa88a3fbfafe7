import { createHash } from 'node:crypto';
import type { MessageChannel, MessageReason } from '@furniture/contracts';
import type { MessageRecord } from './message-types';

/** WhatsApp first (what families read), SMS when WhatsApp fails or is not wanted. */
export const ChannelOrder: readonly MessageChannel[] = ['whatsapp', 'sms'];

/** Why a channel is passed over for a message. */
export type PassedOver =
  'off' | 'no_number' | 'opted_out' | 'budget_spent' | 'anonymous_share_spent' | 'failed';

/** What the sender knows about each channel when it decides. */
export interface ChannelView {
  enabled: boolean;
  /** the number is opted out of this channel */
  optedOut: (e164: string) => Promise<boolean>;
  /** the month's budget is spent */
  spent: () => Promise<boolean>;
  /** an anonymous submission's message: the month's share for those is spent */
  shareSpent?: () => Promise<boolean>;
  /**
   * last, once the channel would be taken: the message takes one of the month's budget slots
   * (issue 42: exact across senders); false when none is left
   */
  takeBudget?: () => Promise<boolean>;
}

export type ChannelChoice =
  | { channel: MessageChannel; to: string; passed: [MessageChannel, PassedOver][] }
  | {
      channel: null;
      reason: MessageReason;
      final: 'skipped' | 'failed';
      passed: [MessageChannel, PassedOver][];
    };

export const numberFor = (m: Pick<MessageRecord, 'whatsapp_to' | 'sms_to'>, c: MessageChannel) =>
  c === 'whatsapp' ? m.whatsapp_to : m.sms_to;

/**
 * The channel a message takes next: the first in order that is on, has a number, is not opted
 * out, has budget left and has not failed for this message. None left: `failed` when a channel
 * was tried and failed (the reason: refused at sending or undelivered), else `skipped` with the
 * most telling reason (opted out, budget spent, no number, channels off).
 */
export async function chooseChannel(
  m: Pick<MessageRecord, 'whatsapp_to' | 'sms_to' | 'failed_channels' | 'steps'>,
  view: Record<MessageChannel, ChannelView>,
): Promise<ChannelChoice> {
  const passed: [MessageChannel, PassedOver][] = [];
  for (const channel of ChannelOrder) {
    const v = view[channel];
    const to = numberFor(m, channel);
    let why: PassedOver | null = null;
    if (m.failed_channels.includes(channel)) why = 'failed';
    else if (!v.enabled) why = 'off';
    else if (!to) why = 'no_number';
    else if (await v.optedOut(to)) why = 'opted_out';
    else if (await v.spent()) why = 'budget_spent';
    else if (v.shareSpent && (await v.shareSpent())) why = 'anonymous_share_spent';
    else if (v.takeBudget && !(await v.takeBudget())) why = 'budget_spent';
    if (!why) return { channel, to: to!, passed };
    passed.push([channel, why]);
  }
  const reasons = passed.map(([, why]) => why);
  if (reasons.includes('failed')) {
    const last = [...m.steps].reverse().find((s) => s.status === 'failed');
    const undelivered = last?.error?.startsWith('undelivered') ?? false;
    return {
      channel: null,
      final: 'failed',
      reason: undelivered ? 'undelivered' : 'provider_refused',
      passed,
    };
  }
  const reason: MessageReason = reasons.every((r) => r === 'off')
    ? 'channels_off'
    : reasons.includes('opted_out')
      ? 'opted_out'
      : reasons.includes('budget_spent')
        ? 'budget_spent'
        : reasons.includes('anonymous_share_spent')
          ? 'anonymous_share_spent'
          : 'no_number';
  return { channel: null, final: 'skipped', reason, passed };
}

/** The words that end (or renew) a family's messages on the channel they were sent on. */
const STOP_WORDS = ['STOP', 'STOPP', 'СТОП', 'ABMELDEN', 'UNSUBSCRIBE'];
const START_WORDS = ['START', 'СТАРТ'];

/** What an inbound text asks for: opt out, opt in, or nothing (any other text). */
export function keywordOf(text: string): 'stop' | 'start' | null {
  const word = text
    .trim()
    .replace(/[.!?\s]+$/u, '')
    .toLocaleUpperCase('de-DE');
  if (STOP_WORDS.includes(word)) return 'stop';
  if (START_WORDS.includes(word)) return 'start';
  return null;
}

/**
 * An opt-out is kept by the SHA-256 of the E.164 number and the channel: the number itself is
 * not stored, but a message to it can still be recognised (and refused).
 */
export function phoneHash(e164: string): string {
  return createHash('sha256').update(e164).digest('hex');
}

/** A number as staff read it in answers: +49 151 ••• 567. */
export function maskNumber(e164: string | null): string | null {
  if (!e164) return null;
  const digits = e164.replace(/\D/g, '');
  if (digits.length < 6) return '•••';
  return `+${digits.slice(0, 2)} ${digits.slice(2, 5)} ••• ${digits.slice(-3)}`;
}

/** The calendar month of an instant in the office's zone: "2026-11". */
export function monthOf(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
  }).formatToParts(at);
  const y = parts.find((p) => p.type === 'year')!.value;
  const m = parts.find((p) => p.type === 'month')!.value;
  return `${y}-${m}`;
}

/** The key a message's accepted attempt is counted under in the month's budget. */
export const budgetKey = (channel: MessageChannel, month: string) => `${channel}:${month}`;

/** Whether `used` of `budget` reached the warning (80 %), or the whole budget. */
export function budgetState(used: number, budget: number): { warning: boolean; spent: boolean } {
  if (budget <= 0) return { warning: false, spent: false };
  return { warning: used * 5 >= budget * 4, spent: used >= budget };
}
