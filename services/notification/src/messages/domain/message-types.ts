import type {
  Language,
  MessageChannel,
  MessageReason,
  MessageStatus,
  MessageStep,
  PreparedMessage,
} from '@furniture/contracts';
import type { MailKind, PartnerMailKind } from '../../mail/domain/mail-types';

/**
 * What a message tells: every kind mailed to a family or donor (the same news as the mail) and
 * the prepared messages staff send from an application or a wish (`staff_<template>`). A
 * referrer's mails (issue 44) go by e-mail only.
 */
export type StaffMessageKind = `staff_${PreparedMessage}`;
export type MessageKind = Exclude<MailKind, PartnerMailKind> | StaffMessageKind;

/** The thread a message belongs to: one application, one wish or one donation. */
export type MessageThread =
  { application_id: number } | { wish_id: number } | { donation_id: number };

/** One message per event (`_id` is the event's id), with where it went and what became of it. */
export interface MessageRecord {
  _id: string;
  id: number;
  event_name: string;
  kind: MessageKind;
  application_id: number | null;
  wish_id: number | null;
  donation_id: number | null;
  lot_id: number | null;
  language: Language;
  /** the WhatsApp template (`mb_<kind>`) */
  template: string;
  /** its positional body parameters */
  params: string[];
  /** the rendered text (the SMS's body); null once erased */
  text: string | null;
  /** E.164 numbers per channel (null: none for that channel) */
  whatsapp_to: string | null;
  sms_to: string | null;
  /** the channel of the latest attempt */
  channel: MessageChannel | null;
  status: MessageStatus;
  reason: MessageReason | null;
  steps: MessageStep[];
  /** channels that failed for good for this message (the next one is tried) */
  failed_channels: MessageChannel[];
  /** the provider's id of the latest accepted attempt (wamid…, SM…) */
  provider_id: string | null;
  /** "<channel>:<YYYY-MM>" of every accepted attempt (the month's budget counts these) */
  sent_months: string[];
  attempts: number;
  /**
   * attempts cut short: the message was still `sending` past its lease (the sender was stopped
   * between its request and the record of the provider's answer); the provider may have taken
   * it, so the next attempt may deliver it twice (absent in records of earlier versions)
   */
  interrupted_attempts?: number;
  /**
   * claims of the record for an attempt so far, never given back (an attempt refunded during an
   * outage is claimed again under the next number): the key of the next claim (absent in records
   * of earlier versions: their attempts)
   */
  claims?: number;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  last_error: string | null;
  emailed: boolean;
  /**
   * a prepared message's family address, kept until the message is final: a prepared message
   * that fails for good goes by mail instead (automatic kinds were mailed anyway)
   */
  mail_to: string | null;
  requested_by: string | null;
  traceparent: string | null;
  occurred_at: Date;
  created_at: Date;
  updated_at: Date;
}

/** Statuses in which nothing more happens on the sender's side. */
export const FinalStatuses: readonly MessageStatus[] = [
  'sent',
  'delivered',
  'read',
  'failed',
  'skipped',
];

/** The forward order of delivery: a callback never moves a message back. */
const DeliveryRank: Partial<Record<MessageStatus, number>> = { sent: 1, delivered: 2, read: 3 };

/** The statuses a delivery report `to` may move a message from (forward only). */
export function statusesBefore(to: 'sent' | 'delivered' | 'read'): MessageStatus[] {
  const rank = DeliveryRank[to]!;
  return (Object.keys(DeliveryRank) as MessageStatus[]).filter((s) => DeliveryRank[s]! < rank);
}

/**
 * Why a request to a provider did not work (as the mail's DeliveryFailure):
 * - unreachable: no answer at all (network, timeout): the message waits without using attempts;
 * - temporary: rate limited or the provider's own trouble (429, 5xx, 130429, 20429): retried;
 * - permanent: refused for good (a bad number, a missing template, bad credentials): the next
 *   channel is tried.
 */
export type ProviderFailure = 'unreachable' | 'temporary' | 'permanent';

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly failure: ProviderFailure,
    /** the provider's error code, when it gave one */
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** One message as handed to a provider. */
export interface OutgoingMessage {
  /** our message's id (WhatsApp's biz_opaque_callback_data) */
  id: number;
  to: string;
  language: Language;
  template: string;
  params: string[];
  text: string;
}

/** One channel's provider (integrations/whatsapp-client.ts, sms-client.ts). */
export interface MessageProvider {
  readonly channel: MessageChannel;
  /** resolves with the provider's message id; throws ProviderError */
  send(message: OutgoingMessage): Promise<{ providerId: string }>;
  /** resolves when the provider answers at all (any HTTP answer) */
  probe(): Promise<void>;
}

/** A delivery report from a callback, as the domain reads it. */
export interface StatusReport {
  channel: MessageChannel;
  providerId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  /** the provider's error (code and title) of a failure */
  error: string | null;
  /** our message's id as the provider echoes it (WhatsApp's biz_opaque_callback_data) */
  messageId?: number;
}

/** An inbound message from a family (its number E.164, its text). */
export interface InboundMessage {
  channel: MessageChannel;
  from: string;
  text: string;
}

/** What a provider's callback said, once read. */
export interface CallbackContent {
  reports: StatusReport[];
  inbound: InboundMessage[];
}

/** One provider's callbacks: the signature check and the reading (integrations/callbacks.ts). */
export interface CallbackReader {
  readonly channel: MessageChannel;
  /** whether the request carries the provider's signature of exactly this body */
  verify(raw: Buffer, signature: string | undefined): boolean;
  /** the reports and inbound messages of a verified body; null when it is no callback at all */
  read(raw: Buffer): CallbackContent | null;
}
