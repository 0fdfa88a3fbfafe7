import {
  Events,
  type AnyDomainEvent as AnyEvent,
  type DomainEvent,
  type EventName,
  type Language,
} from '@furniture/contracts';
import type { Logger } from '@furniture/platform/domain';
import type { MailRepository, NewMail } from '../data-access/mail-repository';
import type { DonationMailFacts } from './donation-mails';
import type { HandoverMailFacts } from './handover-mails';
import type { PartnerMailFacts, ReferralMailFacts } from './partner-mails';
import {
  lotNameIn,
  renderMail,
  type MailContext,
  type MailFacts,
  type NoticeMailFacts,
} from './mail-templates';
import { DonationMailKinds, HandoverMailKinds, MailedEvents, type MailRecord } from './mail-types';

type MailedEvent = keyof typeof MailedEvents;

/** A referred family's events its referrer is mailed about (issue 44). */
const ReferrerMailKinds = {
  [Events.ApplicationApproved]: 'referral_approved',
  [Events.ApplicationRejected]: 'referral_rejected',
  [Events.HandoverBooked]: 'referral_booked',
  [Events.ApplicationCompleted]: 'referral_handed_over',
} as const satisfies Partial<Record<EventName, string>>;
const DonationEvents = [Events.DonationSubmitted, Events.DonationStatusChanged] as const;
type DonationEvent = (typeof DonationEvents)[number];

type HandoverEvent = keyof typeof HandoverMailKinds;

function isFamilyMailEvent(name: EventName): name is MailedEvent {
  return name in MailedEvents;
}
function isHandoverMailEvent(name: EventName): name is HandoverEvent {
  return name in HandoverMailKinds;
}
function isPartnerMailEvent(name: EventName): name is typeof Events.ReferrerInvited {
  return name === Events.ReferrerInvited;
}
function isDonationMailEvent(name: EventName): name is DonationEvent {
  return (DonationEvents as readonly EventName[]).includes(name);
}

/**
 * The events that may mail someone: a family's application, wish and handover events, a donor's.
 */
export function isMailedEvent(name: EventName): boolean {
  return (
    isFamilyMailEvent(name) ||
    isDonationMailEvent(name) ||
    isHandoverMailEvent(name) ||
    isPartnerMailEvent(name)
  );
}

export type QueueResult = 'queued' | 'duplicate' | 'no_address' | 'not_mailed';

/**
 * What became of a failed mail asked to be sent again: queued; not there (deleted, or a wrong
 * id); not failed (sent, or already waiting); or without its text (failed before failed mails
 * kept it, in 0.2).
 */
export type ResendResult = 'queued' | 'not_found' | 'not_failed' | 'no_text';

/**
 * Turns application, wish and donation events into mail records (rendered at once, in the
 * family's or the donor's language) and wakes the sender. One record per event: a redelivered
 * event finds its record and queues nothing. Every mailed event is final (an approval is announced
 * only once the lot is reserved), so every mail is due at once.
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
    await this.toReferrer(event);
    const e = event as AnyEvent;
    if (isDonationMailEvent(e.name)) return this.onDonationEvent(e as DomainEvent<DonationEvent>);
    if (isHandoverMailEvent(e.name)) return this.onHandoverEvent(e as DomainEvent<HandoverEvent>);
    if (isPartnerMailEvent(e.name))
      return this.onInvitation(e as DomainEvent<typeof Events.ReferrerInvited>);
    if (!isFamilyMailEvent(e.name)) return 'not_mailed';
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
      handoverUrl: 'handover_url' in p ? (p.handover_url ?? null) : null,
    };
    return this.queue(event, facts, {
      kind,
      reason: facts.reason,
      application_id: applicationId,
      lot_id: p.lot_id,
      to,
    });
  }

  /**
   * A referred family's news for its referrer (issue 44): approved, rejected, booked, handed
   * over, in the referrer's language. Its own record (the event's id with `.referrer`), so the
   * family's mail and this one are each queued once; kept under the family's application, so
   * the family's erasure deletes it too.
   */
  private async toReferrer(event: DomainEvent): Promise<QueueResult> {
    const named = ReferrerMailKinds[event.name as keyof typeof ReferrerMailKinds];
    if (!named) return 'not_mailed';
    const expired = (event.payload as { reason?: string }).reason === 'referral_expired';
    const kind = expired ? 'referral_expired' : named;
    const p = event.payload as {
      application_id: number | null;
      lot_id?: number;
      applicant_name?: string;
      lot_name?: { de: string; uk: string };
      referrer?: { name: string; email: string; language: Language };
      pickup_by?: string | null;
      handover_url?: string | null;
      family?: {
        applicant_name: string;
        lot_id: number;
        lot_name: { de: string; uk: string };
        handover_url: string;
        referrer?: { name: string; email: string; language: Language };
      } | null;
      location?: { name: string };
      starts_at?: string;
    };
    const family = p.family;
    const referrer = family ? family.referrer : p.referrer;
    if (!referrer || p.application_id === null) return 'not_mailed';
    const lotId = family ? family.lot_id : p.lot_id!;
    const lotNameText = (family ? family.lot_name : p.lot_name) ?? { de: '', uk: '' };
    const facts: ReferralMailFacts = {
      kind,
      language: referrer.language,
      name: referrer.name,
      familyName: family ? family.applicant_name : (p.applicant_name ?? ''),
      applicationId: p.application_id,
      lotLabel: lotNameIn(lotNameText, referrer.language, lotId),
      pickupBy: p.pickup_by ?? null,
      handoverUrl: (family ? family.handover_url : p.handover_url) || null,
      slot:
        kind === 'referral_booked' && p.starts_at && p.location
          ? { startsAt: p.starts_at, location: p.location.name }
          : null,
    };
    return this.queue({ ...event, eventId: `${event.eventId}.referrer` }, facts, {
      kind,
      reason: null,
      application_id: p.application_id,
      lot_id: lotId,
      to: referrer.email,
    });
  }

  /** A referrer's invitation (issue 44), in the language the admin chose for the invitee. */
  private async onInvitation(
    event: DomainEvent<typeof Events.ReferrerInvited>,
  ): Promise<QueueResult> {
    const p = event.payload;
    const facts: PartnerMailFacts = {
      kind: 'referrer_invitation',
      language: p.language,
      name: '',
      agencyName: p.agency.name,
      inviteUrl: p.invite_url,
      validUntil: p.expires_at.slice(0, 10),
    };
    return this.queue(event, facts, {
      kind: 'referrer_invitation',
      reason: null,
      application_id: null,
      lot_id: null,
      donation_id: null,
      to: p.email,
    });
  }

  /** The donor's mail: the offer received, or the status it came to (wave 3). */
  private async onDonationEvent(event: DomainEvent<DonationEvent>): Promise<QueueResult> {
    const p = event.payload;
    const to = p.donor_email?.trim();
    if (!to) return 'no_address';
    const submitted = 'available_until' in p;
    const kind = DonationMailKinds[submitted ? 'submitted' : p.new_status];
    const facts: DonationMailFacts = {
      kind,
      language: p.language,
      donorName: p.donor_name,
      donationId: p.donation_id,
      itemCount: p.item_count,
      availableUntil: submitted ? p.available_until : null,
      // the staff's note is internal: only the reason is written to the donor
      reason: submitted ? null : p.reason,
    };
    // the record keeps no free text: the reason is in the mail's text until it is sent
    return this.queue(event, facts, {
      kind,
      reason: null,
      application_id: null,
      lot_id: null,
      donation_id: p.donation_id,
      to,
    });
  }

  /**
   * The family's mail about its slot (issue 29): booked or moved, given back, the reminder. A
   * donor pickup (no family), a family without an address, and a cancellation by the system (the
   * application ended: its own status change mails the family) mail no one.
   */
  private async onHandoverEvent(event: DomainEvent<HandoverEvent>): Promise<QueueResult> {
    const p = event.payload;
    const by = 'by' in p ? p.by : null;
    if (by === 'system') return 'not_mailed';
    const family = p.family;
    const to = family?.applicant_email?.trim();
    if (!family || !to || p.application_id === null) return 'no_address';
    const kind = HandoverMailKinds[event.name];
    const moved = 'moved_from_slot_id' in p && p.moved_from_slot_id !== null;
    const facts: HandoverMailFacts = {
      kind,
      language: family.language,
      applicantName: family.applicant_name,
      applicationId: p.application_id,
      lotId: family.lot_id,
      lotName: family.lot_name,
      slotKind: p.kind,
      startsAt: p.starts_at,
      endsAt: p.ends_at,
      location: p.location,
      handoverUrl: family.handover_url,
      moved,
      by: by === 'family' || by === 'staff' ? by : null,
    };
    return this.queue(event, facts, {
      kind,
      reason: kind === 'handover_cancelled' ? by : moved ? 'moved' : null,
      application_id: p.application_id,
      lot_id: family.lot_id,
      to,
    });
  }

  /**
   * A mail of the messages module (issue 30): a failed prepared message's text to the family, the
   * office's budget warning. Once per `eventId`, like every mail.
   */
  async queueNotice(mail: {
    eventId: string;
    eventName: string;
    to: string;
    facts: NoticeMailFacts;
    applicationId: number | null;
    lotId: number | null;
    occurredAt: Date;
  }): Promise<QueueResult> {
    return this.queue(
      { eventId: mail.eventId, name: mail.eventName, occurredAt: mail.occurredAt.toISOString() },
      mail.facts,
      {
        kind: mail.facts.kind,
        reason: null,
        application_id: mail.applicationId,
        lot_id: mail.lotId,
        donation_id: null,
        to: mail.to,
      },
    );
  }

  private async queue(
    event: { eventId: string; name: string; occurredAt: string; traceparent?: string | null },
    facts:
      | MailFacts
      | DonationMailFacts
      | HandoverMailFacts
      | NoticeMailFacts
      | PartnerMailFacts
      | ReferralMailFacts,
    fields: Pick<NewMail, 'kind' | 'reason' | 'application_id' | 'lot_id' | 'donation_id' | 'to'>,
  ): Promise<QueueResult> {
    const rendered = renderMail(facts, this.deps.context);
    const queued = await this.deps.mails.insert({
      event_id: event.eventId,
      event_name: event.name,
      ...fields,
      language: facts.language,
      ...rendered,
      next_attempt_at: new Date(),
      message_id: `<${event.eventId}@${this.deps.messageIdDomain}>`,
      traceparent: event.traceparent ?? null,
      occurred_at: new Date(event.occurredAt),
    });
    if (!queued) return 'duplicate';
    this.deps.logger.info(
      {
        event: event.name,
        eventId: event.eventId,
        applicationId: fields.application_id ?? undefined,
        donationId: fields.donation_id ?? undefined,
        kind: fields.kind,
      },
      'mail queued',
    );
    this.deps.onQueued();
    return 'queued';
  }
}
