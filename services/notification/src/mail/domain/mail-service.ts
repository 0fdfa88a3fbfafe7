import type { AnyDomainEvent as AnyEvent, DomainEvent, EventName } from '@furniture/contracts';
import type { Logger } from '@furniture/platform/domain';
import type { MailRepository } from '../data-access/mail-repository';
import { renderMail, type MailContext, type MailFacts } from './mail-templates';
import { MailedEvents } from './mail-types';

type MailedEvent = keyof typeof MailedEvents;

export function isMailedEvent(name: EventName): name is MailedEvent {
  return name in MailedEvents;
}

export type QueueResult = 'queued' | 'duplicate' | 'no_address' | 'not_mailed';

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
