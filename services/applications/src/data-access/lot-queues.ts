// The per-lot summary of the applications (issue 16): for every lot, its open applications in
// queue order and the one that holds the lot. The staff
// lists need these facts for every open application of a page (queue position, lot.held_by); read
// from the applications themselves that was one query per lot and some 100 documents decoded per
// page on FerretDB. The summary is one document per lot, read by its primary key.
//
// It is recomputed from the lot's applications after every write that changes one of them, never
// patched by deltas, so a redelivered event or a repeated write leaves it right. Every summary
// carries a version `v`; a recomputation writes only over the version it read before it read the
// applications, so of two recomputations running at the same time (two replicas) the one that
// read older applications loses and reads again. Like the kept counts, they are rebuilt at start
// in one pass when they are not complete (after a bulk load, or over applications written before
// the summaries existed); a process dying between a write and its summary's leaves that lot's
// summary behind until the lot's next write or a rebuild (a page then reads the lot's
// applications itself where the summary contradicts one of its applications, see
// ApplicationsRepository.queuesOf).
import type { ApplicationStatus } from '@furniture/contracts';
import {
  insertManyKeepingExisting,
  isDuplicateKeyError,
  withDocLock,
  type Connection,
} from '@furniture/platform';
import type { Collection } from 'mongodb';
import { OPEN_STATUSES } from '../domain/records';

/** The application that holds a lot: approved, or with its approval under way. */
export interface LotHolder {
  id: number;
  applicant_name: string;
}

/** One lot's facts, as the staff lists present them. */
export interface LotQueue {
  /** the open (pending, approved) applications' ids, oldest (queue order) first */
  open: number[];
  holder: LotHolder | null;
}

/** What a summary needs of each application of a lot. */
export interface LotMember {
  id: number;
  status: ApplicationStatus;
  applicant_name: string;
  approval?: { state?: string } | null;
  deleted_at?: Date | null;
}

interface LotQueueDoc extends LotQueue {
  /** String(lot id): FerretDB answers a filter of exactly {_id: '<string>'} from its primary key */
  _id: string;
  /** no `id` field: the lot's id is `lot_id` (the scale bench copies lot views by their `id`) */
  lot_id: number;
  /** raised by every write of the summary */
  v: number;
}

/** Whether the summaries are complete (written once the first rebuild finished). */
interface StateDoc {
  _id: typeof STATE;
  ready: boolean;
}

const STATE = 'state';
const keyOf = (lotId: number) => String(lotId);
/** The projection of an application a summary is computed from. */
export const MEMBER_FIELDS = {
  _id: 0,
  id: 1,
  lot_id: 1,
  status: 1,
  applicant_name: 1,
  'approval.state': 1,
  deleted_at: 1,
} as const;

/** The summary of a lot's applications (deleted ones left out). */
export function summarize(members: LotMember[]): LotQueue {
  const live = members.filter((m) => !m.deleted_at);
  const open = live.filter((m) => OPEN_STATUSES.includes(m.status)).sort((a, b) => a.id - b.id);
  const holder = open.find((m) => m.status === 'approved' || m.approval?.state === 'requested');
  return {
    open: open.map((m) => m.id),
    holder: holder ? { id: holder.id, applicant_name: holder.applicant_name } : null,
  };
}

const sameQueue = (a: LotQueue, b: LotQueue): boolean =>
  JSON.stringify([a.open, a.holder]) === JSON.stringify([b.open, b.holder]);

export class LotQueues {
  private readonly collection: Collection<LotQueueDoc>;
  private readonly state: Collection<StateDoc>;

  constructor(
    conn: Connection,
    /** the applications of one lot, with MEMBER_FIELDS */
    private readonly members: (lotId: number) => Promise<LotMember[]>,
    /** every application, with MEMBER_FIELDS (the rebuild's one pass) */
    private readonly everyMember: () => Promise<(LotMember & { lot_id: number })[]>,
    collectionName = 'lot_queues',
  ) {
    this.collection = conn.collection<LotQueueDoc>(collectionName) as never;
    this.state = conn.collection<StateDoc>(collectionName) as never;
  }

  /**
   * At start: true when the summaries are not complete and must be rebuilt (the reads use the
   * applications until then): marked so (invalidate), or never built over stored applications
   * (written by a version without summaries). Without any application they are complete.
   */
  async open(hasApplications: () => Promise<boolean>): Promise<boolean> {
    const state = await this.state.findOne({ _id: STATE });
    if (state) return !state.ready;
    if (await hasApplications()) return true;
    await this.state.updateOne({ _id: STATE }, { $setOnInsert: { ready: true } }, { upsert: true });
    return false;
  }

  /** Marks the summaries incomplete until the next rebuild (the applications were bulk-loaded). */
  async invalidate(): Promise<void> {
    await this.state.updateOne({ _id: STATE }, { $set: { ready: false } }, { upsert: true });
  }

  /** The summaries of some lots (lots without applications are absent), or null while incomplete. */
  async get(lotIds: number[]): Promise<Map<number, LotQueue> | null> {
    const [state, ...docs] = await Promise.all([
      this.state.findOne({ _id: STATE }),
      ...lotIds.map((lotId) => this.collection.findOne({ _id: keyOf(lotId) })),
    ]);
    if (!state?.ready) return null;
    const out = new Map<number, LotQueue>();
    for (const doc of docs as (LotQueueDoc | null)[])
      if (doc) out.set(doc.lot_id, { open: doc.open, holder: doc.holder });
    return out;
  }

  /**
   * Recomputes a lot's summary from its applications, after a write to one of them. Under the
   * lot's lock in this process; against other processes by the version (see the top).
   */
  async refresh(lotId: number): Promise<void> {
    const _id = keyOf(lotId);
    await withDocLock(this.collection, _id, async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const stored = await this.collection.findOne({ _id }, { projection: { v: 1 } });
        const queue = summarize(await this.members(lotId));
        if (!stored) {
          try {
            await this.collection.insertOne({ _id, lot_id: lotId, v: 1, ...queue });
            return;
          } catch (err) {
            if (isDuplicateKeyError(err)) continue; // another replica stored it meanwhile
            throw err;
          }
        }
        const res = await this.collection.updateOne(
          { _id, v: stored.v },
          { $set: { ...queue, v: stored.v + 1 } },
        );
        if (res.matchedCount === 1) return;
      }
      // five replicas' writes in between: the last of them wrote what it read after ours
    });
  }

  /**
   * Checks every summary against the applications, in one pass, and writes those that differ
   * (all of them after a bulk load), then marks the summaries complete. A summary that a write
   * refreshed while the pass ran keeps the write's version (newer than what the pass read).
   * Answers how many summaries it wrote.
   */
  async rebuild(): Promise<number> {
    // the summaries first: a write after this read raises the version and wins over the pass
    const stored = new Map<string, LotQueueDoc>();
    for (const doc of await this.collection.find({ lot_id: { $exists: true } }).toArray())
      stored.set(doc._id, doc);
    const byLot = new Map<number, LotMember[]>();
    for (const m of await this.everyMember()) {
      const list = byLot.get(m.lot_id);
      if (list) list.push(m);
      else byLot.set(m.lot_id, [m]);
    }
    for (const doc of stored.values()) if (!byLot.has(doc.lot_id)) byLot.set(doc.lot_id, []);
    let written = 0;
    const missing: LotQueueDoc[] = [];
    for (const [lotId, members] of byLot) {
      const _id = keyOf(lotId);
      const queue = summarize(members);
      const old = stored.get(_id);
      if (!old) {
        missing.push({ _id, lot_id: lotId, v: 1, ...queue });
        continue;
      }
      if (sameQueue(old, queue)) continue;
      const res = await withDocLock(this.collection, _id, () =>
        this.collection.updateOne({ _id, v: old.v }, { $set: { ...queue, v: old.v + 1 } }),
      );
      written += res.matchedCount;
    }
    // new summaries (all of them after a bulk load) a page at a time; one a write stored
    // meanwhile collides with its key and stays
    for (let i = 0; i < missing.length; i += 500) {
      const page = missing.slice(i, i + 500);
      written += page.length - (await insertManyKeepingExisting(this.collection, page)).length;
    }
    await this.state.updateOne({ _id: STATE }, { $set: { ready: true } }, { upsert: true });
    return written;
  }
}
