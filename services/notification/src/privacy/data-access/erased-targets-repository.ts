import type { Store, StoredCollection } from '@furniture/platform';
import type { ErasedTargetsStore } from '../domain/privacy-service';

/** The ids whose family data was erased ("application:12", "wish:4"): ids only. */
export class ErasedTargetsRepository implements ErasedTargetsStore {
  private readonly stored: StoredCollection<{ _id: string; erased_at: Date }>;

  constructor(store: Store) {
    this.stored = store.collection({ name: 'erased_targets', key: '_id' });
  }

  /** Remembers erased ids, so that an event about them arriving later is stripped too. */
  async remember(applicationIds: number[], wishIds: number[], at: Date): Promise<void> {
    const keys = [
      ...applicationIds.map((id) => `application:${id}`),
      ...wishIds.map((id) => `wish:${id}`),
    ];
    for (const _id of keys) await this.stored.upsert({ _id }, { $setOnInsert: { erased_at: at } });
  }

  /** Whether the family data of this application or wish was erased. */
  async isErased(kind: 'application' | 'wish', id: number): Promise<boolean> {
    // an exact _id lookup (FerretDB answers it from its primary key; a count runs an aggregation):
    // asked by both modules for every event about an application or a wish
    const found = await this.stored.collection.findOne(
      { _id: `${kind}:${id}` },
      { projection: { _id: 1 } },
    );
    return found !== null;
  }
}
