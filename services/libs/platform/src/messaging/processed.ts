import { randomUUID } from 'node:crypto';
import type { DomainEvent, EventName } from '@furniture/contracts';
import type { Connection } from 'mongoose';
import { insertedUnlessTaken } from '../mongo';
import { EventInFlightError, type EventHandler, type EventHandlers } from './bus';

interface ProcessedDoc {
  _id: string;
  name: string;
  /** claim time while `claimed`, then when it was handled (the purge reads it) */
  processed_at: Date;
  /** absent on records of earlier versions: those were written after handling */
  state?: 'claimed' | 'done';
  /** the consumer (process) that holds the claim */
  owner?: string;
  /** a claim not finished by then is taken over (its holder died) */
  claimed_until?: Date;
}

/**
 * A claim runs out at `claimed_until`; another consumer takes it over only this much later, and
 * its holder renews it only before then, so the two never write the claim at the same time.
 */
const graceOf = (leaseMs: number) => Math.min(2000, Math.floor(leaseMs / 4));

/** What a consumer may do with an event's id. */
type Claim = { kind: 'mine' } | { kind: 'done' } | { kind: 'busy'; forMs: number };

/**
 * Idempotent consumption across replicas: delivery is at least once, and two copies of one event
 * may reach two pods at once (a redelivery after a dropped connection, a backlog two relays
 * published). Before a handler runs, its consumer claims the event id by inserting it (the unique
 * `_id` lets one insert win); the claim is marked done after the handler succeeded and given back
 * if it failed. A copy that finds a live claim elsewhere is retried after the claim's lease
 * (EventInFlightError), so an event whose holder died is handled once its lease has run out; a
 * copy that finds it done is dropped. The holder renews its claim while the handler runs (every
 * third of the lease, only before the claim ran out); a claim that ran out is taken over by one
 * consumer: the one whose insert of the takeover's key (the event and the end of the claim it
 * found) wins, a unique key and so atomic across processes on both engines. Handlers still guard
 * their state transitions in the update (a holder stalled past its claim).
 */
export class ProcessedEvents {
  /** this process's name on its claims */
  private readonly owner = randomUUID();

  constructor(
    private readonly conn: Connection,
    private readonly leaseMs = 15000,
  ) {}

  private get collection() {
    return this.conn.collection<ProcessedDoc>('processed_events');
  }

  /** Handled already (a live claim elsewhere is not "seen": it may still fail). */
  async seen(eventId: string): Promise<boolean> {
    // an exact _id lookup (FerretDB pushes it down; a count runs an aggregation)
    const doc = await this.collection.findOne({ _id: eventId }, { projection: { state: 1 } });
    return doc !== null && doc.state !== 'claimed';
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

  /** Claims an event id for this process (see the class comment). */
  async claim(event: Pick<DomainEvent, 'eventId' | 'name'>): Promise<Claim> {
    const now = new Date();
    const until = new Date(now.getTime() + this.leaseMs);
    const doc: ProcessedDoc = {
      _id: event.eventId,
      name: event.name,
      processed_at: now,
      state: 'claimed',
      owner: this.owner,
      claimed_until: until,
    };
    if (await insertedUnlessTaken(() => this.collection.insertOne(doc))) return { kind: 'mine' };
    const held = await this.collection.findOne({ _id: event.eventId });
    if (!held) return this.claim(event); // given back in between
    if (held.state !== 'claimed') return { kind: 'done' };
    const end = held.claimed_until?.getTime() ?? 0;
    const left = end + graceOf(this.leaseMs) - now.getTime();
    if (left > 0) return { kind: 'busy', forMs: left };
    // its holder did not finish in time (it died): take it over; of the consumers that found
    // this claim, the one whose takeover key goes in first (kept as a done record, purged as
    // they are)
    const takeover = {
      _id: `${event.eventId}~${end}`,
      name: 'takeover',
      processed_at: now,
      state: 'done',
    };
    if (!(await insertedUnlessTaken(() => this.collection.insertOne(takeover as ProcessedDoc))))
      return { kind: 'busy', forMs: this.leaseMs };
    await this.collection.updateOne(
      { _id: event.eventId },
      { $set: { owner: this.owner, claimed_until: until, processed_at: now } },
    );
    return { kind: 'mine' };
  }

  /**
   * Renews this consumer's claim of an event while its handler runs; false once the claim ran
   * out before a renewal landed (it may have been taken over: the handler's guards decide).
   */
  private async renew(eventId: string, heldUntil: number): Promise<number | null> {
    const at = Date.now();
    if (at >= heldUntil) return null;
    const until = at + this.leaseMs;
    await this.collection.updateOne(
      { _id: eventId, owner: this.owner, state: 'claimed' },
      { $set: { claimed_until: new Date(until) } },
    );
    return Date.now() < heldUntil ? until : null;
  }

  /** The handler succeeded: redeliveries are dropped from now on. */
  async done(eventId: string): Promise<void> {
    await this.collection.updateOne(
      { _id: eventId, owner: this.owner },
      { $set: { state: 'done', processed_at: new Date() }, $unset: { claimed_until: '' } },
    );
  }

  /** The handler failed: the claim is given back for the retry (here or on another pod). */
  async release(eventId: string): Promise<void> {
    await this.collection.deleteOne({ _id: eventId, owner: this.owner, state: 'claimed' });
  }

  /** Records an event as handled without a claim (tests, and events handled elsewhere). */
  async remember(event: DomainEvent): Promise<void> {
    const doc = { _id: event.eventId, name: event.name, processed_at: new Date(), state: 'done' };
    await insertedUnlessTaken(() => this.collection.insertOne(doc as ProcessedDoc));
  }

  /** Wraps every handler so that each event id is handled once, also across replicas. */
  wrap(handlers: EventHandlers): EventHandlers {
    const wrapped: Record<string, EventHandler> = {};
    for (const [name, handler] of Object.entries(handlers) as [EventName, EventHandler][]) {
      wrapped[name] = async (event) => {
        const claim = await this.claim(event);
        if (claim.kind === 'done') return;
        if (claim.kind === 'busy') throw new EventInFlightError(event.eventId, claim.forMs);
        let heldUntil = Date.now() + this.leaseMs;
        // the renewal under way, if any: on the embedded database an update writes the whole
        // document it read, so a renewal still in flight when the handler ends would write the
        // claim back over "done"; the end waits for it
        let renewing: Promise<void> | null = null;
        const renewal = setInterval(() => {
          if (renewing) return;
          renewing = this.renew(event.eventId, heldUntil)
            .then((until) => {
              if (until !== null) heldUntil = until;
            })
            .catch(() => undefined)
            .finally(() => (renewing = null));
        }, this.leaseMs / 3);
        renewal.unref();
        const stopRenewing = async () => {
          clearInterval(renewal);
          if (renewing) await renewing;
        };
        try {
          await handler(event);
        } catch (err) {
          await stopRenewing();
          await this.release(event.eventId).catch(() => undefined);
          throw err;
        }
        await stopRenewing();
        await this.done(event.eventId);
      };
    }
    return wrapped as EventHandlers;
  }
}
