import {
  Events,
  type DomainEvent,
  type EventName,
  type EventPayload,
  type Language,
  type LocalizedText,
} from '@furniture/contracts';
import { dayIn, slotTimeIn } from '../../mail/domain/mail-blocks';
import { lotNameIn } from '../../mail/domain/mail-templates';
import { DonationMailKinds, HandoverMailKinds, MailedEvents } from '../../mail/domain/mail-types';
import {
  MessageTemplates,
  paramValue,
  renderText,
  templateName,
  type ParamName,
} from './message-templates';
import type { MessageKind, MessageThread } from './message-types';

/** What the messages say about the organisation (from config). */
export interface MessageContext {
  siteName: string;
  publicBaseUrl: string;
  timeZone: string;
  /** the office's phone, else its e-mail address */
  contact: string;
}

/** A message decided from an event, before it is stored. */
export interface MessageDraft {
  kind: MessageKind;
  thread: MessageThread;
  lot_id: number | null;
  language: Language;
  template: string;
  params: string[];
  text: string;
  whatsapp_to: string | null;
  sms_to: string | null;
  /** the family's (or donor's) e-mail address, if any */
  email: string | null;
  /** a prepared message: who asked for it */
  requested_by: string | null;
}

type FamilyEvent = keyof typeof MailedEvents;
type HandoverEvent = keyof typeof HandoverMailKinds;
const DonationEvents: readonly EventName[] = [
  Events.DonationSubmitted,
  Events.DonationStatusChanged,
];

/** The events that message someone: every mailed event and a staff member's prepared message. */
export function isMessagedEvent(name: EventName): boolean {
  return (
    name in MailedEvents ||
    name in HandoverMailKinds ||
    DonationEvents.includes(name) ||
    name === Events.MessageRequested
  );
}

const clean = (n: string | null | undefined): string | null => {
  const v = n?.trim();
  return v ? v : null;
};

/** WhatsApp to the WhatsApp number (else the phone), SMS to the phone (else the WhatsApp number). */
function familyNumbers(p: {
  applicant_phone?: string | null;
  applicant_whatsapp?: string | null;
}): Pick<MessageDraft, 'whatsapp_to' | 'sms_to'> {
  const phone = clean(p.applicant_phone);
  const whatsapp = clean(p.applicant_whatsapp);
  return { whatsapp_to: whatsapp ?? phone, sms_to: phone ?? whatsapp };
}

/** Builds one message's draft; its text rendered from the kind's template. */
class Draft {
  constructor(
    private readonly ctx: MessageContext,
    private readonly lang: Language,
  ) {}

  say(de: string, uk: string): string {
    return this.lang === 'de' ? de : uk;
  }

  link(path: string): string {
    return /^https?:\/\//.test(path) ? path : `${this.ctx.publicBaseUrl}${path}`;
  }

  lot(name: LocalizedText | null | undefined, lotId: number | null): string {
    if (!name) return this.say('die Möbel', 'меблі');
    return lotNameIn(name, this.lang, lotId ?? 0).replace(/\s+/g, ' ');
  }

  date(day: string | null | undefined): string {
    return day ? dayIn(day) : this.say('vereinbarten Termin', 'узгодженої дати');
  }

  slot(startsAt: string, endsAt: string): string {
    return slotTimeIn(startsAt, endsAt, this.lang, this.ctx.timeZone).full;
  }

  build(
    kind: MessageKind,
    values: Partial<Record<ParamName, string | number>>,
    rest: Omit<MessageDraft, 'kind' | 'language' | 'template' | 'params' | 'text'>,
  ): MessageDraft {
    const all: Partial<Record<ParamName, string | number>> = {
      contact: this.ctx.contact,
      ...values,
    };
    const params = MessageTemplates[kind].params.map((name) => paramValue(String(all[name] ?? '')));
    return {
      kind,
      language: this.lang,
      template: templateName(kind),
      params,
      text: renderText(kind, this.lang, this.ctx.siteName, params),
      ...rest,
    };
  }
}

/**
 * The message an event asks for, or null when it messages no one: the same rules as the mails
 * (a handover cancelled by the system is told by the application's own change; a donor pickup
 * has no family) and a wish's news that staff sent by WhatsApp themselves (channel `whatsapp`).
 */
export function draftOf(event: DomainEvent, ctx: MessageContext): MessageDraft | null {
  const name = event.name;
  if (name === Events.MessageRequested) return prepared(event as DomainEvent<typeof name>, ctx);
  if (name === Events.DonationSubmitted || name === Events.DonationStatusChanged)
    return donation(event as DomainEvent<typeof Events.DonationSubmitted>, ctx);
  if (name in HandoverMailKinds) return handover(event as DomainEvent<HandoverEvent>, ctx);
  if (name in MailedEvents) return family(event as DomainEvent<FamilyEvent>, ctx);
  return null;
}

function family(event: DomainEvent<FamilyEvent>, ctx: MessageContext): MessageDraft | null {
  const p = event.payload as EventPayload<FamilyEvent> & {
    application_id?: number;
    wish_id?: number;
    queue_position?: number;
    pickup_by?: string | null;
    handover_url?: string | null;
    channel?: 'email' | 'whatsapp';
  };
  if (event.name === Events.WishNotified && p.channel === 'whatsapp') return null;
  const kind = MailedEvents[event.name];
  const d = new Draft(ctx, p.language);
  const statusLink = d.link('/check-status');
  const links: Partial<Record<MessageKind, string>> = {
    approved: p.handover_url ? d.link(p.handover_url) : statusLink,
    rejected: d.link('/categories'),
    completed: d.link('/categories'),
    wish_match: d.link(`/lots/${p.lot_id}`),
  };
  const thread: MessageThread =
    typeof p.wish_id === 'number' && p.application_id === undefined
      ? { wish_id: p.wish_id }
      : { application_id: p.application_id! };
  return d.build(
    kind,
    {
      application: p.application_id,
      lot: d.lot(p.lot_name, p.lot_id),
      lot_id: p.lot_id,
      queue: p.queue_position ?? '–',
      date: d.date(p.pickup_by),
      link: links[kind] ?? statusLink,
    },
    {
      thread,
      lot_id: p.lot_id,
      ...familyNumbers(p),
      email: clean(p.applicant_email),
      requested_by: null,
    },
  );
}

function donation(
  event: DomainEvent<typeof Events.DonationSubmitted | typeof Events.DonationStatusChanged>,
  ctx: MessageContext,
): MessageDraft {
  const p = event.payload;
  const kind = DonationMailKinds['available_until' in p ? 'submitted' : p.new_status];
  const phone = clean(p.donor_phone);
  return new Draft(ctx, p.language).build(
    kind,
    { donation: p.donation_id },
    {
      thread: { donation_id: p.donation_id },
      lot_id: null,
      whatsapp_to: phone,
      sms_to: phone,
      email: clean(p.donor_email),
      requested_by: null,
    },
  );
}

function handover(event: DomainEvent<HandoverEvent>, ctx: MessageContext): MessageDraft | null {
  const p = event.payload;
  const by = 'by' in p ? p.by : null;
  if (by === 'system' || !p.family || p.application_id === null) return null;
  const f = p.family;
  const kind = HandoverMailKinds[event.name];
  const d = new Draft(ctx, f.language);
  const place =
    p.kind === 'delivery'
      ? d.say('Lieferung zu Ihnen nach Hause', 'доставка до Вас додому')
      : `${p.location.name}, ${p.location.address}, ${p.location.city}`;
  return d.build(
    kind,
    {
      application: p.application_id,
      lot: d.lot(f.lot_name, f.lot_id),
      slot: d.slot(p.starts_at, p.ends_at),
      place,
      link: d.link(f.handover_url),
    },
    {
      thread: { application_id: p.application_id },
      lot_id: f.lot_id,
      ...familyNumbers(f),
      email: clean(f.applicant_email),
      requested_by: null,
    },
  );
}

function prepared(
  event: DomainEvent<typeof Events.MessageRequested>,
  ctx: MessageContext,
): MessageDraft | null {
  const p = event.payload;
  const thread: MessageThread | null =
    p.application_id !== null
      ? { application_id: p.application_id }
      : p.wish_id !== null
        ? { wish_id: p.wish_id }
        : null;
  if (!thread) return null;
  const d = new Draft(ctx, p.language);
  const name = p.lot_name ? d.lot(p.lot_name, p.lot_id) : null;
  return d.build(
    `staff_${p.template}`,
    {
      ref: p.application_id ?? p.wish_id ?? '',
      lot: name ? d.say(`„${name}“`, `«${name}»`) : d.say('die Möbel', 'меблі'),
      date: d.date(p.pickup_by),
    },
    {
      thread,
      lot_id: p.lot_id,
      ...familyNumbers(p),
      email: clean(p.applicant_email),
      requested_by: event.actor?.name ?? null,
    },
  );
}
