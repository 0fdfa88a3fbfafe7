import { Events, type EventName, type Language } from '@furniture/contracts';

/**
 * The application and wish events a family is told about by e-mail (public-site §1), and which
 * mail each is.
 */
export const MailedEvents = {
  [Events.ApplicationSubmitted]: 'submitted',
  [Events.ApplicationApproved]: 'approved',
  [Events.ApplicationRejected]: 'rejected',
  [Events.ApplicationCompleted]: 'completed',
  [Events.ApplicationReservationCancelled]: 'reservation_cancelled',
  /** back to pending: reconsidered by staff, or a cancelled reservation brought it back */
  [Events.ApplicationReconsidered]: 'reconsidered',
  /** staff moved the pickup date */
  [Events.ApplicationPickupExtended]: 'pickup_extended',
  /** the pickup date is two days away */
  [Events.ApplicationPickupReminderDue]: 'pickup_reminder',
  /** a lot matching the family's wish */
  [Events.WishNotified]: 'wish_match',
} as const satisfies Partial<Record<EventName, string>>;
export type MailKind = (typeof MailedEvents)[keyof typeof MailedEvents];
export const MailKinds = Object.values(MailedEvents);

/**
 * queued → sending → sent; a failed attempt goes back to queued (later) or, after the last
 * attempt or a permanent SMTP refusal, to failed. withdrawn: kept for mails of earlier versions
 * (approval mails were held back and could be withdrawn; approvals are final now).
 */
export const MailStates = ['queued', 'sending', 'sent', 'failed', 'withdrawn'] as const;
export type MailState = (typeof MailStates)[number];

/** One mail as rendered, ready to be handed to the SMTP server. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  language: Language;
  /** the same on every attempt of one mail */
  messageId: string;
}

/** The SMTP side, behind a small interface (integrations/smtp-mailer.ts). */
export interface Mailer {
  send(mail: OutgoingMail): Promise<{ response: string }>;
  /** resolves when the server answers (connection and greeting), rejects otherwise */
  verify(): Promise<void>;
  close(): void;
}

/**
 * Why a delivery did not work:
 * - permanent: the server refused this mail for good (5xx): retrying would be refused again;
 * - temporary: the server answered but refused for now (4xx): retried, at most maxAttempts;
 * - unreachable: no server to talk to (refused, timed out): the mail waits without using up its
 *   attempts until the server answers again.
 */
export type DeliveryFailure = 'permanent' | 'temporary' | 'unreachable';

export class MailDeliveryError extends Error {
  constructor(
    message: string,
    readonly failure: DeliveryFailure,
  ) {
    super(message);
    this.name = 'MailDeliveryError';
  }

  get permanent(): boolean {
    return this.failure === 'permanent';
  }
}

/** One mail per event (`_id` is the event's id), with its sending state. */
export interface MailRecord {
  /** the application event's id */
  _id: string;
  id: number;
  event_name: string;
  kind: MailKind;
  /** why the application changed (contracts ApplicationChangeReasons); null for a submission */
  reason: string | null;
  application_id: number;
  lot_id: number;
  to: string;
  language: Language;
  subject: string;
  text: string;
  html: string;
  state: MailState;
  attempts: number;
  /** when a queued mail is due */
  next_attempt_at: Date | null;
  /** while sending: after this the attempt counts as lost and the mail is tried again */
  lease_until: Date | null;
  last_error: string | null;
  /** why a mail was withdrawn without sending */
  withdrawn_reason: string | null;
  /** Message-ID header (the same on every attempt, so a repeated delivery is recognisable) */
  message_id: string;
  /** the trace of the event that asked for the mail (tracing on), continued by its delivery */
  traceparent?: string | null;
  smtp_response: string | null;
  occurred_at: Date;
  created_at: Date;
  updated_at: Date;
  sent_at: Date | null;
}
