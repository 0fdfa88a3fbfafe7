import type { Language } from '@furniture/contracts';

/** The application changes a family is told about by e-mail (public-site §1). */
export const MailKinds = [
  'submitted',
  'approved',
  'rejected',
  'completed',
  'reservation_cancelled',
] as const;
export type MailKind = (typeof MailKinds)[number];

/**
 * queued → sending → sent; a failed attempt goes back to queued (later) or, after the last
 * attempt or a permanent SMTP refusal, to failed; withdrawn: never sent because the change it
 * announced was undone before it went out.
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
  close(): void;
}

/** A delivery that did not work; `permanent` when retrying the same mail would fail again. */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'MailDeliveryError';
  }
}
