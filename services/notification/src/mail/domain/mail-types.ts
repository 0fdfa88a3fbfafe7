import { Events, type DonationStatus, type EventName, type Language } from '@furniture/contracts';

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
/** A family's mail about an application or a wish. */
export type FamilyMailKind = (typeof MailedEvents)[keyof typeof MailedEvents];

/**
 * The donor's mails (wave 3), by the donation's status: the offer received
 * (`donation.submitted`) and every status staff or the expiry job set (`donation.status_changed`).
 */
export const DonationMailKinds = {
  submitted: 'donation_received',
  /** staff will call to arrange the pickup */
  accepted: 'donation_accepted',
  /** with the staff's reason */
  declined: 'donation_declined',
  /** a thank-you */
  collected: 'donation_collected',
  /** the pickup will not happen after all: the donor may give the furniture elsewhere */
  cancelled: 'donation_cancelled',
  /** the available-until date passed before the furniture was collected */
  expired: 'donation_expired',
} as const satisfies Record<DonationStatus, string>;
export type DonationMailKind = (typeof DonationMailKinds)[DonationStatus];

/**
 * The family's mails about its handover slot (wave 3, issue 29): booked (or moved), given back,
 * and the reminder the day before. A donor pickup mails no one (its event carries no family).
 */
export const HandoverMailKinds = {
  [Events.HandoverBooked]: 'handover_booked',
  [Events.HandoverCancelled]: 'handover_cancelled',
  [Events.HandoverReminderDue]: 'handover_reminder',
} as const satisfies Partial<Record<EventName, string>>;
export type HandoverMailKind = (typeof HandoverMailKinds)[keyof typeof HandoverMailKinds];

/**
 * Mails of the messages module (issue 30): a prepared message that failed for good, to a family
 * with an address (the same text), and the office's warning that 80 % of a month's message
 * budget are used.
 */
export const NoticeMailKinds = ['prepared_message', 'message_budget_warning'] as const;
export type NoticeMailKind = (typeof NoticeMailKinds)[number];

/**
 * Mails to a partner agency's referrer (issue 44): the invitation, and the news of a referred
 * family's application (approved, rejected, its slot booked, handed over).
 */
export const PartnerMailKinds = [
  'referrer_invitation',
  'referral_approved',
  'referral_rejected',
  'referral_booked',
  'referral_handed_over',
  /** still pending after REFERRAL_VALID_DAYS: closed as expired */
  'referral_expired',
] as const;
export type PartnerMailKind = (typeof PartnerMailKinds)[number];

export type MailKind = FamilyMailKind | DonationMailKind | HandoverMailKind | PartnerMailKind;
export const MailKinds: readonly (MailKind | NoticeMailKind)[] = [
  ...Object.values(MailedEvents),
  ...Object.values(DonationMailKinds),
  ...Object.values(HandoverMailKinds),
  ...PartnerMailKinds,
  ...NoticeMailKinds,
];

/**
 * The mails one person reads in order: those of one application (a wish's under its negated id)
 * or those of one donation.
 */
export type MailThread = { application_id: number } | { donation_id: number };

/** The thread a mail belongs to (records of earlier versions have no donation_id). */
export function threadOf(mail: Pick<MailRecord, 'application_id' | 'donation_id'>): MailThread {
  if (typeof mail.donation_id === 'number') return { donation_id: mail.donation_id };
  return { application_id: mail.application_id ?? 0 };
}

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
  /** the id of the event the mail tells of */
  _id: string;
  id: number;
  event_name: string;
  kind: MailKind | NoticeMailKind;
  /**
   * why the application changed (contracts ApplicationChangeReasons); null for a submission; a
   * handover mail's: `moved` (booked), who gave the slot back (cancelled: `family`, `staff`)
   */
  reason: string | null;
  /** the application (a wish's mail: the wish id negated); null for a donor's mail */
  application_id: number | null;
  /** the lot the mail is about; null for a donor's mail */
  lot_id: number | null;
  /** the donation of a donor's mail (absent in records of earlier versions) */
  donation_id?: number | null;
  to: string;
  language: Language;
  subject: string;
  text: string;
  html: string;
  state: MailState;
  attempts: number;
  /**
   * attempts cut short mid-send (the service was killed or lost its lease): the server may have
   * taken the mail already, so the next attempt may deliver it twice, under the same Message-ID
   * (absent in records of earlier versions)
   */
  interrupted_attempts?: number;
  /**
   * claims of the record for an attempt so far, never given back (an attempt refunded during an
   * outage is claimed again under the next number): the key of the next claim (absent in records
   * of earlier versions: their attempts)
   */
  claims?: number;
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
