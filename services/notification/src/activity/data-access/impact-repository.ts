import { isDuplicateKeyError, withDocLock, type Connection } from '@furniture/platform';

interface CounterDoc {
  _id: string;
  n: number;
}
interface MarkDoc {
  _id: string;
  at: Date;
}
interface SinceDoc {
  _id: 'since';
  at: Date;
}

/**
 * The impact counters: one document per counter (`_id` is its key, `n` its value), and one mark
 * per counted event so that a redelivered event is not counted twice. A handful of hundred
 * documents at most, whatever the size of the platform.
 */
export class ImpactRepository {
  constructor(private readonly conn: Connection) {}

  private get counters() {
    return this.conn.collection<CounterDoc>('impact_counters');
  }
  private get marks() {
    return this.conn.collection<MarkDoc>('impact_marks');
  }
  private get meta() {
    return this.conn.collection<SinceDoc>('impact_meta');
  }

  /**
   * Counts one event: marks it, then adds each delta. false when the event was counted before.
   * When an increment fails (the database went away), the mark is taken back so that the retry
   * counts the event again: a counter may then err by one high, an event is never lost.
   */
  async count(eventId: string, at: Date, deltas: Record<string, number>): Promise<boolean> {
    try {
      await this.marks.insertOne({ _id: eventId, at: new Date() });
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
    try {
      for (const [key, d] of Object.entries(deltas)) {
        if (d !== 0) await this.increment(key, d);
      }
      await withDocLock(this.meta, 'since', async () => {
        const since = await this.meta.findOne({ _id: 'since' });
        if (since && since.at <= at) return;
        await this.upsertRetrying(() =>
          this.meta.updateOne({ _id: 'since' }, { $set: { at } }, { upsert: true }),
        );
      });
    } catch (err) {
      await this.marks.deleteOne({ _id: eventId }).catch(() => undefined);
      throw err;
    }
    return true;
  }

  /** $inc under the document's lock: FerretDB applies it as read-modify-write (locks.ts). */
  private increment(key: string, d: number) {
    return withDocLock(this.counters, key, () =>
      this.upsertRetrying(() =>
        this.counters.updateOne({ _id: key }, { $inc: { n: d } }, { upsert: true }),
      ),
    );
  }

  /** Two first increments of a new counter race to insert it: the loser simply goes again. */
  private async upsertRetrying(run: () => Promise<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await run();
        return;
      } catch (err) {
        if (!isDuplicateKeyError(err) || attempt >= 5) throw err;
      }
    }
  }

  /** Every counter, as key → value. */
  async all(): Promise<{ counters: Map<string, number>; since: Date | null }> {
    const [docs, since] = await Promise.all([
      this.counters.find({}).toArray(),
      this.meta.findOne({ _id: 'since' }),
    ]);
    return { counters: new Map(docs.map((d) => [d._id, d.n])), since: since?.at ?? null };
  }

  /** Marks older than `before` (a redelivery comes within minutes, not weeks). */
  async purgeMarks(before: Date): Promise<number> {
    const res = await this.marks.deleteMany({ at: { $lt: before } });
    return res.deletedCount;
  }
}
