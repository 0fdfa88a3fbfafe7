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
}
