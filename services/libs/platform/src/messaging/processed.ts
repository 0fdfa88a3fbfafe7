import type { DomainEvent, EventName } from '@furniture/contracts';
import type { Connection } from 'mongoose';
import { insertedUnlessTaken } from '../mongo';
import type { EventHandler, EventHandlers } from './bus';

interface ProcessedDoc {
  _id: string;
  name: string;
  processed_at: Date;
}

/**
 * Idempotent consumption: delivery is at least once, so a handled event's id is recorded and a
 * redelivery is skipped. The record is written after the handler succeeded; a crash in between
 * re-runs the handler, which is why handlers also guard their state transitions in the update.
 */
export class ProcessedEvents {
  constructor(private readonly conn: Connection) {}

  private get collection() {
    return this.conn.collection<ProcessedDoc>('processed_events');
  }

  async seen(eventId: string): Promise<boolean> {
    // an exact _id lookup (FerretDB pushes it down; a count runs an aggregation)
    return (await this.collection.findOne({ _id: eventId }, { projection: { _id: 1 } })) !== null;
  }

  /** The index housekeeping needs (created at start with the service's other indexes). */
  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ processed_at: 1 });
  }

  /**
   * Forgets events processed before `before`, a batch at a time (what a TTL index would do;
   * FerretDB has none). A redelivery older than that is caught by the handlers' own guards.
   */
  async purgeBefore(before: Date, batch = 1000): Promise<number> {
    let total = 0;
    for (;;) {
      const old = await this.collection
        .find({ processed_at: { $lt: before } }, { projection: { _id: 1 } })
        .limit(batch)
        .toArray();
      if (old.length === 0) return total;
      const res = await this.collection.deleteMany({ _id: { $in: old.map((d) => d._id) } });
      total += res.deletedCount;
    }
  }

  async remember(event: DomainEvent): Promise<void> {
    const doc = { _id: event.eventId, name: event.name, processed_at: new Date() };
    await insertedUnlessTaken(() => this.collection.insertOne(doc));
  }

  /** Wraps every handler so that each event id is handled once. */
  wrap(handlers: EventHandlers): EventHandlers {
    const wrapped: Record<string, EventHandler> = {};
    for (const [name, handler] of Object.entries(handlers) as [EventName, EventHandler][]) {
      wrapped[name] = async (event) => {
        if (await this.seen(event.eventId)) return;
        await handler(event);
        await this.remember(event);
      };
    }
    return wrapped as EventHandlers;
  }
}
