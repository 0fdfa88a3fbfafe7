import { randomUUID } from 'node:crypto';
import { insertedUnlessTaken } from '../mongo';
import type { StoredCollection } from './collection';

/** One term of a lease: who holds `name` from the term's start until `until`. */
export interface LeaseDoc {
  /** `<name>#<term>`: two processes taking the same term collide on this key */
  _id: string;
  name: string;
  term: number;
  holder: string;
  until: Date;
}

/** A lease held (Leases.whileHeld): its fence token and the signal of its loss. */
export interface Lease {
  name: string;
  /**
   * The lease's term: raised each time the lease changes hands (a writer that carries it can be
   * refused once a newer holder wrote).
   */
  fence: number;
  /** aborted once this holder may have lost the lease: a renewal refused, or not made in time */
  lost: AbortSignal;
  /**
   * True while this holder certainly still holds the lease (not lost, its last renewal's end not
   * reached on this process's clock); work checks it before each write and stops when false.
   */
  held(): boolean;
}

/**
 * A holder's term ends at `until`; another may take the next term only `grace` later, so a
 * holder that stops at its `until` on its own clock never overlaps the next (clocks of pods differ
 * by far less; the write that renews must also land before `until`, see whileHeld).
 */
const graceOf = (ms: number) => Math.min(2000, Math.floor(ms / 4));

/**
 * Leases with an expiry, for work that one replica at a time should do (a scheduled job's pass,
 * a rebuild of counts). Fenced by terms (issue 42): each holding is a document of its own,
 * `<name>#<term>`, created by an insert that wins or loses (a unique key, atomic across
 * processes on FerretDB and MongoDB alike, unlike an update with a filter), and written after
 * that only by its holder (renewals, giving up). A holder renews only before its term ran out;
 * anyone takes the next term once the last has been out for the grace. So of two processes at
 * most one holds a lease at any moment, and a holder that lost it (paused longer than the
 * lease, its renewals failing) is told by `lost` and `held()` before its next write.
 */
export class Leases {
  constructor(
    private readonly stored: StoredCollection<LeaseDoc>,
    /** this process (a new one each start) */
    readonly holder: string = randomUUID(),
  ) {}

  /** The newest term of `name`, if any. */
  private latest(name: string): Promise<LeaseDoc | null> {
    return this.stored.collection.find({ name }).sort({ term: -1 }).limit(1).next();
  }

  /**
   * Takes or renews the lease of `name` for `ms`; the term held, or null while another holder has
   * it (or this one's term ran out: it takes a new one like anyone else, after the grace).
   */
  async hold(name: string, ms: number, now = new Date()): Promise<number | null> {
    const last = await this.latest(name);
    const until = new Date(now.getTime() + ms);
    if (last && last.holder === this.holder && last.until > now) {
      // this holder's own term, still running: only it writes this document
      await this.stored.collection.updateOne({ _id: last._id }, { $set: { until } });
      return last.term;
    }
    if (last && last.until.getTime() + graceOf(ms) > now.getTime()) return null;
    const term = (last?.term ?? 0) + 1;
    const doc = { _id: `${name}#${term}`, name, term, holder: this.holder, until };
    if (!(await insertedUnlessTaken(() => this.stored.collection.insertOne(doc)))) return null;
    // the terms before the last are history
    await this.stored.collection.deleteMany({ name, term: { $lt: term - 1 } });
    return term;
  }

  /** Takes or renews the lease of `name` for `ms`; false while another holder has it. */
  async take(name: string, ms: number, now = new Date()): Promise<boolean> {
    return (await this.hold(name, ms, now)) !== null;
  }

  /** Gives the lease of `name` up at once (when this process holds its newest term). */
  async give(name: string, now = new Date()): Promise<void> {
    const last = await this.latest(name);
    if (last?.holder === this.holder && last.until > now)
      await this.stored.collection.updateOne({ _id: last._id }, { $set: { until: now } });
  }

  /**
   * Runs `work` under the lease of `name`, renewed every third of `ms` while it runs; false (and
   * `work` not run) while another holder has it. `work` gets the lease: its fence, `held()` and a
   * signal aborted when a renewal is refused or none landed before the lease ran out (work that
   * must not go on without the lease checks `held()` before each write). With `keep`, the lease
   * is not given up when the work ends: it runs out at its time (a job's pass: the other
   * replicas skip their passes until then).
   */
  async whileHeld(
    name: string,
    ms: number,
    work: (lease: Lease) => Promise<unknown>,
    opts: { keep?: boolean } = {},
  ): Promise<boolean> {
    const start = Date.now();
    const fence = await this.hold(name, ms, new Date(start));
    if (fence === null) return false;
    const lost = new AbortController();
    let heldUntil = start + ms;
    let renewing = false;
    const renewal = async () => {
      if (renewing || lost.signal.aborted) return;
      renewing = true;
      try {
        const at = Date.now();
        const renewed =
          at < heldUntil ? await this.hold(name, ms, new Date(at)).catch(() => undefined) : null;
        // a renewal counts only when it landed while the term still ran: one that landed later
        // may have met the next holder's term
        if (renewed === fence && Date.now() < heldUntil) heldUntil = at + ms;
        else if (renewed !== undefined || Date.now() >= heldUntil) lost.abort();
      } finally {
        renewing = false;
      }
    };
    const renew = setInterval(() => void renewal(), ms / 3);
    renew.unref();
    const held = () => {
      if (!lost.signal.aborted && Date.now() >= heldUntil) lost.abort();
      return !lost.signal.aborted;
    };
    try {
      await work({ name, fence, lost: lost.signal, held });
    } finally {
      clearInterval(renew);
      if (!opts.keep && held()) await this.give(name).catch(() => undefined);
    }
    return true;
  }
}
