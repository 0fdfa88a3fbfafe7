import { insertedUnlessTaken, type Store, type StoredCollection } from '@furniture/platform';

interface CounterDoc {
  _id: string;
  n?: number;
  /** a name a report shows for a key (an agency's: `label:agency:<id>`), the last one heard */
  label?: string;
}
interface MarkDoc {
  _id: string;
  at: Date;
}
interface SinceDoc {
  _id: 'since';
  at: Date;
}

/** A redelivered event comes within minutes, not weeks: its mark is kept a month. */
const MARKS_KEPT_MS = 30 * 24 * 3600 * 1000;

/**
 * The impact counters: one document per counter (`_id` is its key, `n` its value), and one mark
 * per counted event so that a redelivered event is not counted twice. A handful of hundred
 * documents at most, whatever the size of the platform.
 */
export class ImpactRepository {
  private readonly counters: StoredCollection<CounterDoc>;
  private readonly marks: StoredCollection<MarkDoc>;
  private readonly meta: StoredCollection<SinceDoc>;

  constructor(store: Store) {
    this.counters = store.collection<CounterDoc>({ name: 'impact_counters', key: '_id' });
    this.marks = store.collection<MarkDoc>({
      name: 'impact_marks',
      key: '_id',
      expiry: { field: 'at', afterMs: MARKS_KEPT_MS },
    });
    this.meta = store.collection<SinceDoc>({ name: 'impact_meta', key: '_id' });
  }

  /**
   * Counts one event: marks it, then adds each delta. false when the event was counted before.
   * When an increment fails (the database went away), the mark is taken back so that the retry
   * counts the event again: a counter may then err by one high, an event is never lost.
   */
  async count(
    eventId: string,
    at: Date,
    deltas: Record<string, number>,
    labels: Record<string, string> = {},
  ): Promise<boolean> {
    if (!(await insertedUnlessTaken(() => this.marks.insert({ _id: eventId, at: new Date() }))))
      return false;
    try {
      for (const [key, d] of Object.entries(deltas))
        if (d !== 0) await this.counters.upsert({ _id: key }, { $inc: { n: d } });
      for (const [key, label] of Object.entries(labels))
        await this.counters.upsert({ _id: `label:${key}` }, { $set: { label } });
      await this.keepEarliest(at);
    } catch (err) {
      await this.marks.remove({ _id: eventId }).catch(() => undefined);
      throw err;
    }
    return true;
  }

  /** The date counting started: the earliest event's. */
  private keepEarliest(at: Date): Promise<void> {
    return this.meta.upsert({ _id: 'since' }, { $min: { at } });
  }

  /** Every counter, as key → value, and every label, as key → name. */
  async all(): Promise<{
    counters: Map<string, number>;
    labels: Map<string, string>;
    since: Date | null;
  }> {
    const [docs, since] = await Promise.all([
      this.counters.collection.find({}).toArray(),
      this.meta.collection.findOne({ _id: 'since' }),
    ]);
    const counters = new Map<string, number>();
    const labels = new Map<string, string>();
    for (const d of docs) {
      if (d._id.startsWith('label:')) labels.set(d._id.slice('label:'.length), d.label ?? '');
      else counters.set(d._id, d.n ?? 0);
    }
    return { counters, labels, since: since?.at ?? null };
  }
}
