import type { DomainEvent } from '@furniture/contracts';
import { insertedUnlessTaken, type Store, type StoredCollection } from '@furniture/platform';
import type { OutboxMessageDoc } from './models';

/**
 * Events that belong to no document of ours (lot.reservation_failed for a lot that does not
 * exist). Each waits in its own outbox document, which the relay deletes once published. The
 * document id is the first event's id, so a redelivered cause adds nothing twice.
 */
export class OutboxMessages {
  private readonly stored: StoredCollection<OutboxMessageDoc & { _purge: boolean }>;

  constructor(store: Store) {
    this.stored = store.collection({ name: 'outbox_messages', key: '_id' });
  }

  async add(events: DomainEvent[]): Promise<void> {
    const first = events[0];
    if (!first) return;
    // the relay deletes a _purge document once its events are out
    const doc = { _id: first.eventId, id: first.eventId, _purge: true };
    await insertedUnlessTaken(() => this.stored.insert(doc, events));
  }
}
