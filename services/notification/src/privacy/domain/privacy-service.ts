import {
  Events,
  type DomainEvent,
  type PrivacyRecords,
  type PrivacyRecordsQuery,
} from '@furniture/contracts';
import type { Logger } from '@furniture/platform/domain';
import type { NotificationPrivacyRepository } from '../data-access/privacy-repository';

/** The applications and wishes whose family data was erased. */
export interface ErasedTargets {
  applicationIds: number[];
  wishIds: number[];
}

/**
 * Data protection in the notification service (issue 15, docs/privacy.md): staff read what it
 * keeps about a family's applications and wishes (the mails, the activity entries), and an
 * erasure in the applications service (`privacy.personal_data_erased`) removes the mails and the
 * family's details from the log. The handler is idempotent: a redelivery finds nothing left. The
 * erased ids are remembered (ids only), so that an event about them that arrives later (one on
 * its way, or retried, when the erasure happened) queues no mail and leaves a stripped entry.
 */
export class NotificationPrivacy {
  constructor(private readonly deps: { repo: NotificationPrivacyRepository; logger: Logger }) {}

  /** POST /privacy/records */
  records(q: PrivacyRecordsQuery): Promise<PrivacyRecords> {
    return this.deps.repo.find(q.application_ids, q.wish_ids);
  }

  async onErased(event: DomainEvent<typeof Events.PersonalDataErased>): Promise<void> {
    const { application_ids, wish_ids, reason } = event.payload;
    await this.deps.repo.remember(application_ids, wish_ids, new Date(event.occurredAt));
    const done = await this.deps.repo.erase(application_ids, wish_ids);
    this.deps.logger.info(
      { eventId: event.eventId, reason, mails: done.mails, entries: done.activity },
      'personal data erased',
    );
  }

  /** The application or wish an event is about, when its family's data was erased already. */
  async erasedTargetOf(event: DomainEvent): Promise<ErasedTargets | null> {
    if (event.name === Events.PersonalDataErased) return null;
    const p = event.payload as { application_id?: unknown; wish_id?: unknown };
    if (typeof p.application_id === 'number' && event.name.startsWith('application.')) {
      return (await this.deps.repo.isErased('application', p.application_id))
        ? { applicationIds: [p.application_id], wishIds: [] }
        : null;
    }
    if (typeof p.wish_id === 'number' && event.name.startsWith('wish.')) {
      return (await this.deps.repo.isErased('wish', p.wish_id))
        ? { applicationIds: [], wishIds: [p.wish_id] }
        : null;
    }
    return null;
  }

  /** Strips the family's details from the entries of these ids again (a late event's entry). */
  async strip(target: ErasedTargets): Promise<void> {
    await this.deps.repo.erase(target.applicationIds, target.wishIds);
  }
}
