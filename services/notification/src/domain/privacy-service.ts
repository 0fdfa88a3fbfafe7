import {
  Events,
  type DomainEvent,
  type PrivacyRecords,
  type PrivacyRecordsQuery,
} from '@furniture/contracts';
import type { Logger } from '@furniture/platform/domain';
import type { NotificationPrivacyRepository } from '../data-access/privacy-repository';

/**
 * Data protection in the notification service (issue 15, docs/privacy.md): staff read what it
 * keeps about a family's applications and wishes (the mails, the activity entries), and an
 * erasure in the applications service (`privacy.personal_data_erased`) removes the mails and the
 * family's details from the log. The handler is idempotent: a redelivery finds nothing left.
 */
export class NotificationPrivacy {
  constructor(
    private readonly deps: { repo: NotificationPrivacyRepository; logger: Logger },
  ) {}

  /** POST /privacy/records */
  records(q: PrivacyRecordsQuery): Promise<PrivacyRecords> {
    return this.deps.repo.find(q.application_ids, q.wish_ids);
  }

  async onErased(event: DomainEvent<typeof Events.PersonalDataErased>): Promise<void> {
    const { application_ids, wish_ids, reason } = event.payload;
    const done = await this.deps.repo.erase(application_ids, wish_ids);
    this.deps.logger.info(
      { eventId: event.eventId, reason, mails: done.mails, entries: done.activity },
      'personal data erased',
    );
  }
}
