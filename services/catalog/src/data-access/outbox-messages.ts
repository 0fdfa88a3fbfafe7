import type { DomainEvent } from '@furniture/contracts';
import { docWithEvents, insertedUnlessTaken } from '@furniture/platform';
import type { Models } from './models';

/**
 * Events that belong to no document of ours (lot.reservation_failed for a lot that does not
 * exist). Each waits in its own outbox document, which the relay deletes once published. The
 * document id is the first event's id, so a redelivered cause adds nothing twice.
 */
export class OutboxMessages {
  constructor(
    private readonly models: Models,
    private readonly onWrite: () => void,
  ) {}

  async add(events: DomainEvent[]): Promise<void> {
    const first = events[0];
    if (!first) return;
    // the relay deletes a _purge document once its events are out
    const doc = {
      ...docWithEvents({ _id: first.eventId, id: first.eventId }, events),
      _purge: true,
    };
    await insertedUnlessTaken(() => this.models.OutboxMessage.collection.insertOne(doc as never));
    this.onWrite();
  }
}
