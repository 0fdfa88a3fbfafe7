import { Events, type Actor, type PreparedMessage } from '@furniture/contracts';
import { AppError, createEvent, type LotLookup } from '@furniture/platform/domain';
import type { ApplicationsRepository } from '../data-access/applications-repository';
import type { WishesRepository } from '../data-access/wishes-repository';
import { authorOf, berlinTimestamp, noteLine } from './notes';
import { familyNumbers, lotName } from './status-changes';

/** The prepared messages as the notes name them (German, the back-office's main language). */
const PreparedLabelsDe: Record<PreparedMessage, string> = {
  call_office: 'Bitte melden Sie sich',
  still_interested: 'Noch Interesse?',
  pickup_reminder: 'Erinnerung an die Abholung',
};

const noteText = (template: PreparedMessage) =>
  `Nachricht „${PreparedLabelsDe[template]}“ per WhatsApp/SMS angefordert`;

/**
 * Staff ask for a prepared WhatsApp/SMS message to a family (issue 30): the application (or the
 * wish) gets a note line and, in the same write, `message.requested` goes to the outbox; the
 * notification service sends it like every message and shows what became of it. The family's
 * numbers and language travel in the event, so the message goes out even if the application
 * changes meanwhile.
 */
export class MessageRequests {
  constructor(
    private readonly deps: {
      applications: ApplicationsRepository;
      wishes: WishesRepository;
      lots: LotLookup;
    },
  ) {}

  async forApplication(actor: Actor, id: number, template: PreparedMessage): Promise<void> {
    const app = await this.deps.applications.findById(id);
    if (!app) throw new AppError('APPLICATION_NOT_FOUND');
    const lot = await this.deps.lots.get(app.lot_id);
    const event = createEvent(
      Events.MessageRequested,
      {
        application_id: app.id,
        wish_id: null,
        lot_id: app.lot_id,
        lot_name: lotName(lot, app),
        template,
        applicant_name: app.applicant_name,
        applicant_email: app.applicant_email,
        language: app.language,
        ...familyNumbers(app),
        pickup_by: app.pickup_by,
      },
      actor,
    );
    const line = noteLine(authorOf(actor), 'CONTACT', noteText(template));
    if (!(await this.deps.applications.addNote(id, line, [event]))) {
      throw new AppError('APPLICATION_NOT_FOUND');
    }
  }

  async forWish(actor: Actor, id: number, template: PreparedMessage): Promise<void> {
    const wish = await this.deps.wishes.findById(id);
    if (!wish) throw new AppError('WISH_NOT_FOUND');
    if (wish.status !== 'active') throw new AppError('WISH_NOT_ACTIVE');
    const event = createEvent(
      Events.MessageRequested,
      {
        application_id: null,
        wish_id: wish.id,
        lot_id: null,
        lot_name: null,
        template,
        applicant_name: wish.applicant_name,
        applicant_email: wish.applicant_email ?? null,
        language: wish.language,
        applicant_phone: null,
        applicant_whatsapp: wish.applicant_whatsapp,
        pickup_by: null,
      },
      actor,
    );
    const line = `[${berlinTimestamp(new Date())}] ${actor.email}: ${noteText(template)}`;
    if (!(await this.deps.wishes.appendNote(id, line, [event]))) {
      throw new AppError('WISH_NOT_ACTIVE');
    }
  }
}
