import type { StoredRecord } from '@furniture/contracts';
import type { Store, StoredCollection } from '@furniture/platform';
import { isoDates, noIds, type PersonIds } from '../../privacy/domain/privacy-service';
import type { MessageDoc } from './models';

/** The messages of a family's applications and wishes and of a donor's donations. */
export class MessagePrivacyRepository {
  private readonly stored: StoredCollection<MessageDoc>;

  constructor(store: Store) {
    this.stored = store.collection<MessageDoc>({ name: 'messages', key: '_id' });
  }

  private filter(ids: PersonIds) {
    return {
      $or: [
        ...(ids.applicationIds.length > 0 ? [{ application_id: { $in: ids.applicationIds } }] : []),
        ...(ids.wishIds.length > 0 ? [{ wish_id: { $in: ids.wishIds } }] : []),
        ...(ids.donationIds.length > 0 ? [{ donation_id: { $in: ids.donationIds } }] : []),
      ],
    };
  }

  /** The message records of these applications, wishes and donations, oldest first. */
  async find(ids: PersonIds): Promise<StoredRecord[]> {
    if (noIds(ids)) return [];
    const docs = await this.stored.collection.find(this.filter(ids)).sort({ id: 1 }).toArray();
    return docs.map((m) => {
      const { _id, ...rest } = m;
      return isoDates({ event_id: _id, ...rest });
    });
  }

  /** Deletes them, whatever their state (a waiting message is not sent); answers how many. */
  async erase(ids: PersonIds): Promise<number> {
    if (noIds(ids)) return 0;
    let n = 0;
    const found = await this.stored.collection
      .find(this.filter(ids), { projection: { _id: 1 } })
      .toArray();
    for (const { _id } of found) if (await this.stored.remove({ _id })) n++;
    return n;
  }
}
