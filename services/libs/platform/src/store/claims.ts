import { insertedUnlessTaken } from '../mongo';
import type { StoredCollection } from './collection';

/** A claim of one piece of work: who may do it, until when. */
export interface ClaimDoc {
  /** what is claimed (e.g. `mail:<id>#<attempt>`), or a takeover of it (`<key>~<end>`) */
  _id: string;
  until: Date;
}

/** A claim that ran out is taken over only this much later (clocks and a late write). */
const graceOf = (ms: number) => Math.min(2000, Math.floor(ms / 4));

/**
 * Claims of work that one process should do once (issue 42): a sender's attempt at one mail or
 * message. A guarded update ("state still queued, attempts still n") matches in two processes at
 * once on FerretDB; an insert of the work's key does not: the first claim of a key is the one
 * insert that wins. A claim runs out after `ms` (its holder died before it recorded the work as
 * taken); then it is taken over by the one insert of `<key>~<end of the claim>`, whose winner
 * alone moves the claim's end. Claims are deleted a day after they ran out.
 */
export class Claims {
  constructor(private readonly stored: StoredCollection<ClaimDoc>) {}

  /** True when this process may do the work of `key` (for `ms`); false while another may. */
  async claim(key: string, ms: number, now = new Date()): Promise<boolean> {
    const until = new Date(now.getTime() + ms);
    const { collection } = this.stored;
    if (await insertedUnlessTaken(() => collection.insertOne({ _id: key, until }))) return true;
    const held = await collection.findOne({ _id: key });
    if (!held) return this.claim(key, ms, now); // purged in between
    const end = held.until.getTime();
    if (end + graceOf(ms) > now.getTime()) return false;
    const takeover = { _id: `${key}~${end}`, until };
    if (!(await insertedUnlessTaken(() => collection.insertOne(takeover)))) return false;
    await collection.updateOne({ _id: key }, { $set: { until } });
    return true;
  }
}
