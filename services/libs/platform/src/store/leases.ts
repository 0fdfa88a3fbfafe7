import { randomUUID } from 'node:crypto';
import { insertedUnlessTaken } from '../mongo';
import type { StoredCollection } from './collection';

interface LeaseDoc {
  _id: string;
  holder: string;
  until: Date;
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
    const renewed = await this.stored.update(
      { _id: name, $or: [{ holder: this.holder }, { until: { $lte: now } }] },
      { $set: { holder: this.holder, until } },
    );
    if (renewed) return true;
    return insertedUnlessTaken(() => this.stored.insert({ _id: name, holder: this.holder, until }));
  }

  /** Gives the lease of `name` up at once (when this process holds it). */
  async give(name: string, now = new Date()): Promise<void> {
    await this.stored.update({ _id: name, holder: this.holder }, { $set: { until: now } });
  }

  /**
   * Runs `work` under the lease of `name`, renewed every third of `ms` while it runs; false (and
   * `work` not run) while another holder has it.
   */
  async whileHeld(name: string, ms: number, work: () => Promise<unknown>): Promise<boolean> {
    if (!(await this.take(name, ms))) return false;
    const renew = setInterval(() => void this.take(name, ms).catch(() => undefined), ms / 3);
    renew.unref();
    try {
      await work();
    } finally {
      clearInterval(renew);
      await this.give(name).catch(() => undefined);
    }
    return true;
  }
}
