import type { Store, StoredCollection } from '@furniture/platform';
import type { ErasableKind, ErasedTargetsStore, PersonIds } from '../domain/privacy-service';

/** The ids whose personal data was erased ("application:12", "wish:4", "donation:7"): ids only. */
export class ErasedTargetsRepository implements ErasedTargetsStore {
  private readonly stored: StoredCollection<{ _id: string; erased_at: Date }>;

  constructor(store: Store) {
    this.stored = store.collection({ name: 'erased_targets', key: '_id' });
  }

  /** Remembers erased ids, so that an event about them arriving later is stripped too. */
  async remember(ids: PersonIds, at: Date): Promise<void> {
    const keys = [
      ...ids.applicationIds.map((id) => `application:${id}`),
      ...ids.wishIds.map((id) => `wish:${id}`),
      ...ids.donationIds.map((id) => `donation:${id}`),
    ];
    for (const _id of keys) await this.stored.upsert({ _id }, { $setOnInsert: { erased_at: at } });
  }

  /** Whether the personal data of this application, wish or donation was erased. */
  async isErased(kind: ErasableKind, id: number): Promise<boolean> {
    // an exact _id lookup (FerretDB answers it from its primary key; a count runs an aggregation):
    // asked by both modules for every event about an application, a wish or a donation
    const found = await this.stored.collection.findOne(
      { _id: `${kind}:${id}` },
      { projection: { _id: 1 } },
    );
    return found !== null;
  }
}
