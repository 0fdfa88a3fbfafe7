import type { AnyDomainEvent as AnyEvent, DomainEvent, EventName } from '@furniture/contracts';
import type { Logger } from '@furniture/platform/domain';
import type { MailRepository } from '../data-access/mail-repository';
import { renderMail, type MailContext, type MailFacts } from './mail-templates';
import { MailedEvents, type MailRecord } from './mail-types';

type MailedEvent = keyof typeof MailedEvents;

export function isMailedEvent(name: EventName): name is MailedEvent {
  return name in MailedEvents;
}

export type QueueResult = 'queued' | 'duplicate' | 'no_address' | 'not_mailed';

/**
 * What became of a failed mail asked to be sent again: queued; not there (deleted, or a wrong
 * id); not failed (sent, or already waiting); or without its text (failed before failed mails
 * kept it, in 0.2).
 */
export type ResendResult = 'queued' | 'not_found' | 'not_failed' | 'no_text';

/**
 * Turns application events into mail records (rendered at once, in the family's language) and
 * wakes the sender. One record per event: a redelivered event finds its record and queues nothing.
 * Every mailed event is final (an approval is announced only once the lot is reserved), so every
 * mail is due at once.
 */
export class MailService {
  constructor(
    private readonly deps: {
      mails: MailRepository;
      context: MailContext;
      /** domain part of the Message-ID header */
      messageIdDomain: string;
      onQueued: () => void;
      logger: Logger;
    },
  ) {}

  /** Mails that failed for good (after their last attempt, or refused for good), latest first. */
  failed(limit = 1000): Promise<MailRecord[]> {
    return this.deps.mails.failed(limit);
  }

  /**
   * Puts a failed mail back in the queue with all its attempts (the operator fixed the address's
   * server or the SMTP settings): the sender takes it when it next looks at the queue, at most
   * MAIL_WAKE_MAX_MS later, also in another process.
   */
  async resend(id: number): Promise<ResendResult> {
    const mail = await this.deps.mails.findById(id);
    if (!mail) return 'not_found';
    if (mail.state !== 'failed') return 'not_failed';
    if (!mail.text) return 'no_text';
    if (!(await this.deps.mails.requeue(mail, new Date()))) return 'not_failed';
    this.deps.logger.info({ mailId: mail.id, kind: mail.kind }, 'failed mail queued again');
    this.deps.onQueued();
    return 'queued';
  }

  async onEvent(event: DomainEvent): Promise<QueueResult> {
    const e = event as AnyEvent;
    if (!isMailedEvent(e.name)) return 'not_mailed';
    const p = (e as DomainEvent<MailedEvent>).payload;
    const to = p.applicant_email?.trim();
    if (!to) return 'no_address';

    const kind = MailedEvents[e.name];
    // a wish's mail has no application: its records are kept apart by a negative number
    const applicationId = 'application_id' in p ? p.application_id : -p.wish_id;
    const facts: MailFacts = {
      kind,
      reason: 'reason' in p ? p.reason : null,
      language: p.language,
      applicantName: p.applicant_name,
      applicationId,
      lotId: p.lot_id,
      lotName: p.lot_name,
      queuePosition: 'queue_position' in p ? p.queue_position : undefined,
      pickupBy: 'pickup_by' in p ? (p.pickup_by ?? null) : null,
    };
    const rendered = renderMail(facts, this.deps.context);
    const queued = await this.deps.mails.insert({
      event_id: event.eventId,
      event_name: event.name,
      kind,
      reason: facts.reason,
      application_id: applicationId,
      lot_id: p.lot_id,
      to,
      language: p.language,
      ...rendered,
      next_attempt_at: new Date(),
      message_id: `<${event.eventId}@${this.deps.messageIdDomain}>`,
      traceparent: event.traceparent ?? null,
      occurred_at: new Date(event.occurredAt),
    });
    if (!queued) return 'duplicate';
    this.deps.logger.info(
      { event: event.name, eventId: event.eventId, applicationId, kind },
      'mail queued',
    );
    this.deps.onQueued();
    return 'queued';
  }
}
