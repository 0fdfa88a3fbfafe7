import { randomUUID } from 'node:crypto';
import { insertedUnlessTaken } from '../mongo';
import type { StoredCollection } from './collection';

interface LeaseDoc {
  _id: string;
  holder: string;
  until: Date;
  /** raised by every new holder (absent in leases from before fences: 0) */
  fence?: number;
}

/** A lease held (Leases.whileHeld): its fence token and the signal of its loss. */
export interface Lease {
  name: string;
  /**
   * Raised each time the lease changes hands: a writer that carries it can be refused once a
   * newer holder wrote (the fence of the writes a job guards by it).
   */
  fence: number;
  /** aborted once this holder may have lost the lease: a renewal refused, or not made in time */
  lost: AbortSignal;
}

/**
 * Leases with an expiry, for work that one replica at a time should do (a scheduled job's pass):
 * a document per name says who holds it until when. The holder renews it, anyone takes it once
 * it has run out (a replica that died gives it up by not renewing). What must hold even when two
 * passes meet (a lease ran out mid-pass, FerretDB's unisolated updates across processes) rests
 * on the job's own guarded writes; the lease only keeps the replicas from doing the work twice.
 */
export class Leases {
  constructor(
    private readonly stored: StoredCollection<LeaseDoc>,
    /** this process (a new one each start) */
    readonly holder: string = randomUUID(),
  ) {}

  /** Takes or renews the lease of `name` for `ms`; false while another holder has it. */
  async take(name: string, ms: number, now = new Date()): Promise<boolean> {
    const until = new Date(now.getTime() + ms);
    const set = { $set: { holder: this.holder, until } };
    if (await this.stored.update({ _id: name, holder: this.holder }, set)) return true;
    const taken = { ...set, $inc: { fence: 1 } };
    if (await this.stored.update({ _id: name, until: { $lte: now } }, taken)) return true;
    const first = { _id: name, holder: this.holder, until, fence: 1 };
    return insertedUnlessTaken(() => this.stored.insert(first));
  }

  /** The fence of the lease of `name` while this process holds it, else null. */
  private async fenceOf(name: string): Promise<number | null> {
    const doc = await this.stored.collection.findOne({ _id: name });
    return doc?.holder === this.holder ? (doc.fence ?? 0) : null;
  }

  /** Gives the lease of `name` up at once (when this process holds it). */
  async give(name: string, now = new Date()): Promise<void> {
    await this.stored.update({ _id: name, holder: this.holder }, { $set: { until: now } });
  }

  /**
   * Runs `work` under the lease of `name`, renewed every third of `ms` while it runs; false (and
   * `work` not run) while another holder has it. `work` gets the lease: its fence, and a signal
   * aborted when a renewal is refused or none succeeded before the lease ran out (work that must
   * not go on without the lease checks it before each write).
   */
  async whileHeld(
    name: string,
    ms: number,
    work: (lease: Lease) => Promise<unknown>,
  ): Promise<boolean> {
    if (!(await this.take(name, ms))) return false;
    const fence = await this.fenceOf(name);
    if (fence === null) return false;
    const lost = new AbortController();
    let heldUntil = Date.now() + ms;
    const renewal = async () => {
      const at = Date.now();
      const renewed = await this.take(name, ms).catch(() => null);
      if (renewed) heldUntil = at + ms;
      if (renewed === false || Date.now() >= heldUntil) lost.abort();
    };
    const renew = setInterval(() => void renewal(), ms / 3);
    renew.unref();
    try {
      await work({ name, fence, lost: lost.signal });
    } finally {
      clearInterval(renew);
      await this.give(name).catch(() => undefined);
    }
    return true;
  }
}
