import type { DomainEvent, Events, StoredRecord } from '@furniture/contracts';
import type { Logger } from '@furniture/platform/domain';
import type { ErasedTargets } from '../../privacy/domain/privacy-service';
import type { MailPrivacyRepository } from '../data-access/privacy-repository';

/**
 * The mail module's part of data protection (docs/privacy.md): staff read a family's mail records,
 * and an erasure deletes them, whatever their state.
 */
export class MailPrivacy {
  constructor(private readonly deps: { repo: MailPrivacyRepository; logger: Logger }) {}

  records(applicationIds: number[], wishIds: number[]): Promise<StoredRecord[]> {
    return this.deps.repo.find(applicationIds, wishIds);
  }

  async onErased(event: DomainEvent<typeof Events.PersonalDataErased>): Promise<void> {
    const { application_ids, wish_ids, reason } = event.payload;
    const mails = await this.deps.repo.erase(application_ids, wish_ids);
    this.deps.logger.info({ eventId: event.eventId, reason, mails }, 'personal data erased: mails');
  }

  /** Deletes the mails of an erased family again (one queued while the erasure ran). */
  async erase(target: ErasedTargets): Promise<void> {
    await this.deps.repo.erase(target.applicationIds, target.wishIds);
  }
}
