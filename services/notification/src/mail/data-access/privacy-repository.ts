import type { Store, StoredCollection } from '@furniture/platform';
import type { StoredRecord } from '@furniture/contracts';
import { isoDates } from '../../privacy/domain/privacy-service';
import type { MailDoc } from './models';

/**
 * The mails of a family, found by the ids of its applications and wishes (a wish's mail has the
 * wish id negated); the service never stores the phone number.
 */
export class MailPrivacyRepository {
  private readonly stored: StoredCollection<MailDoc>;

  constructor(store: Store) {
    this.stored = store.collection<MailDoc>({ name: 'mails', key: '_id' });
  }

  private get mails() {
    return this.stored.collection;
  }

  private mailFilter(applicationIds: number[], wishIds: number[]) {
    return { application_id: { $in: [...applicationIds, ...wishIds.map((id) => -id)] } };
  }

  /** The mail records of these applications and wishes, oldest first. */
  async find(applicationIds: number[], wishIds: number[]): Promise<StoredRecord[]> {
    if (applicationIds.length === 0 && wishIds.length === 0) return [];
    const mails = await this.mails
      .find(this.mailFilter(applicationIds, wishIds))
      .sort({ id: 1 })
      .toArray();
    return mails.map((m) => {
      const { _id, ...rest } = m;
      return isoDates({ event_id: _id, ...rest });
    });
  }

  /**
   * Deletes the mails of these applications and wishes, whatever their state (a queued mail to a
   * family that asked to be forgotten is not sent); answers how many.
   */
  async erase(applicationIds: number[], wishIds: number[]): Promise<number> {
    if (applicationIds.length === 0 && wishIds.length === 0) return 0;
    let mails = 0;
    const found = await this.mails
      .find(this.mailFilter(applicationIds, wishIds), { projection: { _id: 1 } })
      .toArray();
    for (const { _id } of found) if (await this.stored.remove({ _id })) mails++;
    return mails;
  }
}
