import type { Store, StoredCollection } from '@furniture/platform';
import type { StoredRecord } from '@furniture/contracts';
import { isoDates, noIds, type PersonIds } from '../../privacy/domain/privacy-service';
import type { MailDoc } from './models';

/**
 * The mails of a family, found by the ids of its applications and wishes (a wish's mail has the
 * wish id negated), and a donor's, by the donations' ids; the service never stores the phone number.
 */
export class MailPrivacyRepository {
  private readonly stored: StoredCollection<MailDoc>;

  constructor(store: Store) {
    this.stored = store.collection<MailDoc>({ name: 'mails', key: '_id' });
  }

  private get mails() {
    return this.stored.collection;
  }

  private mailFilter(ids: PersonIds) {
    const families = [...ids.applicationIds, ...ids.wishIds.map((id) => -id)];
    return {
      $or: [
        ...(families.length > 0 ? [{ application_id: { $in: families } }] : []),
        ...(ids.donationIds.length > 0 ? [{ donation_id: { $in: ids.donationIds } }] : []),
      ],
    };
  }

  /** The mail records of these applications, wishes and donations, oldest first. */
  async find(ids: PersonIds): Promise<StoredRecord[]> {
    if (noIds(ids)) return [];
    const mails = await this.mails.find(this.mailFilter(ids)).sort({ id: 1 }).toArray();
    return mails.map((m) => {
      const { _id, ...rest } = m;
      return isoDates({ event_id: _id, ...rest });
    });
  }

  /**
   * Deletes the mails of these applications, wishes and donations, whatever their state (a queued
   * mail to a person who asked to be forgotten is not sent); answers how many.
   */
  async erase(ids: PersonIds): Promise<number> {
    if (noIds(ids)) return 0;
    let mails = 0;
    const found = await this.mails.find(this.mailFilter(ids), { projection: { _id: 1 } }).toArray();
    for (const { _id } of found) if (await this.stored.remove({ _id })) mails++;
    return mails;
  }
}
