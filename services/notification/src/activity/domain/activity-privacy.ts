import type { DomainEvent, Events, StoredRecord } from '@furniture/contracts';
import type { Logger } from '@furniture/platform/domain';
import type { ErasedTargets } from '../../privacy/domain/privacy-service';
import type { ActivityPrivacyRepository } from '../data-access/privacy-repository';

/**
 * The activity module's part of data protection (docs/privacy.md): staff read the log entries
 * about a family's applications and wishes, and an erasure strips the family's details from them
 * (the entries stay: who did what when, the counts).
 */
export class ActivityPrivacy {
  constructor(private readonly deps: { repo: ActivityPrivacyRepository; logger: Logger }) {}

  records(applicationIds: number[], wishIds: number[]): Promise<StoredRecord[]> {
    return this.deps.repo.find(applicationIds, wishIds);
  }

  async onErased(event: DomainEvent<typeof Events.PersonalDataErased>): Promise<void> {
    const { application_ids, wish_ids, reason } = event.payload;
    const entries = await this.deps.repo.erase(application_ids, wish_ids);
    this.deps.logger.info(
      { eventId: event.eventId, reason, entries },
      'personal data erased: activity entries',
    );
  }

  /** Strips the family's details from the entries of these ids again (a late event's entry). */
  async strip(target: ErasedTargets): Promise<void> {
    await this.deps.repo.erase(target.applicationIds, target.wishIds);
  }
}
