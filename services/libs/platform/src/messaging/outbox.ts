import type { DomainEvent } from '@furniture/contracts';
import type { Collection, Document, ObjectId, UpdateFilter } from 'mongodb';
import type { Schema } from 'mongoose';
import { withDocLock } from '../store/locks';
import type { Logger } from '../logger';
import { settlesWithin } from '../time';
import { UnroutableEventError, type EventBus } from './bus';

/** Fields a document carries while it has events waiting to be published. */
export interface OutboxFields {
  _outbox?: DomainEvent[];
  _outbox_pending?: boolean;
  /** delete the document once its events are out (deletions publish from a tombstone) */
  _purge?: boolean;
}

/**
 * Adds events to an update so that the state change and its events are one document write:
 * a crash between "saved" and "published" loses nothing, the relay publishes them later.
 */
export function withEvents(update: Document, events: DomainEvent[]): UpdateFilter<Document> {
  const u = update as Record<string, Record<string, unknown> | undefined>;
  return {
    ...update,
    $set: { ...(u.$set ?? {}), _outbox_pending: true },
    $push: { ...(u.$push ?? {}), _outbox: { $each: events } },
  } as unknown as UpdateFilter<Document>;
}

/** For inserts: the new document with its events. */
export function docWithEvents<D extends object>(doc: D, events: DomainEvent[]): D & OutboxFields {
  return { ...doc, _outbox: events, _outbox_pending: true };
}

/** For deletions: turns the document into a tombstone that disappears once its events are out. */
export function tombstoneUpdate(
  events: DomainEvent[],
  extraSet: Record<string, unknown> = {},
): UpdateFilter<Document> {
  return {
    $set: { ...extraSet, _outbox_pending: true, _purge: true, deleted_at: new Date() },
    $push: { _outbox: { $each: events } },
  } as unknown as UpdateFilter<Document>;
}

/** Documents an outbox relay drains at once, of at most BATCH a sweep reads per collection. */
const DRAIN_CONCURRENCY = 8;
const BATCH = 200;

/**
 * Takes published events out of a document's outbox one by one (the caller holds its lock): the
 * whole element, as FerretDB's $pull matches by equality, not as a query.
 */
async function pullEach(
  collection: Collection<Document>,
  _id: ObjectId,
  events: DomainEvent[],
): Promise<void> {
  for (const event of events)
    await collection.updateOne({ _id }, { $pull: { _outbox: event } } as Document);
}

/**
 * A collection whose documents carry an outbox, with the field that names a document in its
 * writes (their turn, the store's lock: the relay's removal takes the same; default `id`, else
 * `_id`).
 */
export interface OutboxSource {
  outbox: Collection<Document>;
  key: string;
}

const sourceOf = (c: Collection<Document> | OutboxSource): OutboxSource =>
  'outbox' in c ? c : { outbox: c, key: 'id' };

/**
 * Publishes the events documents carry, in order per document, then removes them. Runs right
 * after each write (`kick`) and on an interval to pick up what a crash left behind. Several
 * replicas may publish the same event twice: consumers are idempotent.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly opts: {
      /** read at every sweep: the store adds the collections declared after the relay's start */
      collections: readonly (Collection<Document> | OutboxSource)[];
      publisher: Pick<EventBus, 'publish'>;
      logger: Logger;
      intervalMs?: number;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.opts.intervalMs ?? 5000);
    this.timer.unref();
    this.kick();
  }

  /** Asks for a sweep now; sweeps never overlap. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
    });
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.sweep();
      } catch (err) {
        this.opts.logger.warn({ err: (err as Error).message }, 'outbox sweep failed; will retry');
        return;
      }
    } while (this.again && !this.stopped);
  }

  /**
   * Publishes everything pending; resolves when done (tests await it). Documents are drained
   * several at a time (order matters within a document, not between documents): one document's
   * wait for the broker's confirmation and the database does not hold up the others.
   */
  async sweep(): Promise<number> {
    let published = 0;
    for (const source of this.opts.collections.map(sourceOf)) {
      const collection = source.outbox;
      const docs = await collection
        .find(
          { _outbox_pending: true },
          { projection: { _id: 1, id: 1, [source.key]: 1, _outbox: 1, _purge: 1 } },
        )
        .limit(BATCH)
        .toArray();
      let next = 0;
      let failure: { err: unknown } | undefined;
      const worker = async () => {
        while (next < docs.length && !failure) {
          const sent = await this.drain(source, docs[next++]!).catch((err: unknown) => {
            // an unroutable event is kept in its document; the documents behind it go on
            if (!(err instanceof UnroutableEventError)) failure ??= { err };
            return 0;
          });
          published += sent; // not `+= await`: that reads the sum before the wait
        }
      };
      await Promise.all(Array.from({ length: Math.min(DRAIN_CONCURRENCY, docs.length) }, worker));
      if (failure) throw failure.err;
    }
    return published;
  }

  /**
   * Publishes one document's events in order, then takes them out of its outbox. The removal
   * runs under the document's lock (a concurrent state change must not be lost, see locks.ts);
   * the publishing itself, which waits for the broker, never does, so a broker outage cannot
   * block staff edits. Usually one write: the outbox still holds exactly what was published, so
   * it is emptied (or the tombstone deleted) by an update guarded by that content; when events
   * were added meanwhile, the published ones are pulled one by one and the new ones stay.
   */
  private async drain(source: OutboxSource, doc: Document): Promise<number> {
    const collection = source.outbox;
    const _id = doc._id as ObjectId;
    const lockId = (doc[source.key] as number | string | undefined) ?? String(_id);
    const events = (doc._outbox ?? []) as DomainEvent[];
    let sent = 0;
    try {
      for (const event of events) {
        await this.opts.publisher.publish(event);
        sent++;
      }
    } catch (err) {
      if (sent > 0)
        await withDocLock(collection, lockId, () =>
          pullEach(collection, _id, events.slice(0, sent)),
        );
      throw err;
    }
    await withDocLock(collection, lockId, async () => {
      // the whole array: FerretDB matches arrays by equality, as MongoDB does
      const unchanged = { _id, _outbox: events };
      const done = doc._purge
        ? (await collection.deleteOne(unchanged)).deletedCount
        : (
            await collection.updateOne(unchanged, {
              $set: { _outbox: [], _outbox_pending: false },
            })
          ).matchedCount;
      if (done) return;
      await pullEach(collection, _id, events);
      if (doc._purge) await collection.deleteOne({ _id, _outbox: { $size: 0 } });
      else
        await collection.updateOne(
          { _id, _outbox: { $size: 0 } },
          { $set: { _outbox_pending: false } },
        );
    });
    return events.length;
  }

  /**
   * Stops the interval and waits for a running sweep, at most `graceMs`: with the broker gone a
   * publish waits for ever, and what it was publishing stays in the outbox for the next start.
   */
  async stop(graceMs = 3000): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.running) await settlesWithin(this.running, graceMs);
  }

  /** Documents with events not yet published (the outbox backlog). */
  async backlog(): Promise<number> {
    let total = 0;
    for (const { outbox } of this.opts.collections.map(sourceOf)) {
      total += await outbox.countDocuments({ _outbox_pending: true });
    }
    return total;
  }
}

/**
 * mongoose plugin for collections that carry an outbox: declares the fields (strict schemas would
 * strip them) and indexes the relay's query. Repositories exclude tombstones with `NOT_DELETED`.
 */
export function outboxPlugin(schema: Schema): void {
  schema.add({
    _outbox: { type: [Object], default: undefined, select: false },
    _outbox_pending: { type: Boolean, default: undefined, select: false },
    _purge: { type: Boolean, default: undefined, select: false },
    deleted_at: { type: Date, default: undefined, select: false },
  });
  schema.index({ _outbox_pending: 1 });
}

/** Filter for live documents (not tombstones waiting for their deletion event to go out). */
export const NOT_DELETED = { deleted_at: null } as const;
