// A summary per group of a list's documents (the applications of one lot: the open ones in queue
// order and the one that holds the lot), kept in its own collection and read by primary key. Read
// from the documents themselves that was one query per group and some 100 documents decoded per
// staff page on FerretDB.
//
// A summary is recomputed from its group's documents after every write that touches the fields
// it is made of (StoredList), never patched by deltas, so a redelivered event or a repeated write
// leaves it right: it is derived, not a second copy of a fact. Every summary carries a version
// `v`; a recomputation writes only over the version it read before it read the documents, so of
// two recomputations running at the same time (two replicas) the one that read older documents
// loses and reads again. Like the counts, summaries are rebuilt at start in one pass when they are
// not complete (after a bulk load, or over documents stored before they existed); a process dying
// between a write and its summary's leaves that group's summary behind until its next write or a
// rebuild (readers that must not contradict a document recompute that group: `fresh`).
import type { Collection, Document } from 'mongodb';
import {
  insertedUnlessTaken,
  insertManyKeepingExisting,
  retryingDuplicates,
  type Connection,
} from '../mongo';
import { docKey } from './collection';
import { withDocLock } from './locks';

export interface SummaryDeclaration<M, S extends Document> {
  /** the collection of the summaries */
  name: string;
  /** the field of the list's documents that names their group (a lot's id) */
  groupBy: string;
  /** the fields of a document a summary is made of (a projection) */
  fields: readonly string[];
  /** a group's summary from its documents (tombstones included: the summary decides) */
  summarize: (members: M[]) => S;
}

interface SummaryDoc extends Document {
  /** String(group): FerretDB answers a filter of exactly {_id: '<string>'} from its primary key */
  _id: string;
  /** raised by every write of the summary */
  v: number;
}

/** Whether the summaries are complete (written once the first rebuild finished). */
const STATE = 'state';

/** The list a summary reads its members from (StoredList). */
interface Source {
  collection: Collection<Document>;
}

export class KeptSummaries<M = Document, S extends Document = Document> {
  private readonly collection: Collection<SummaryDoc>;
  readonly name: string;
  readonly groupBy: string;
  readonly fields: readonly string[];
  private readonly projection: Document;

  constructor(
    conn: Connection,
    private readonly source: Source,
    private readonly decl: SummaryDeclaration<M, S>,
  ) {
    this.collection = conn.collection(decl.name) as unknown as Collection<SummaryDoc>;
    this.name = decl.name;
    this.groupBy = decl.groupBy;
    this.fields = [decl.groupBy, ...decl.fields];
    this.projection = Object.fromEntries([['_id', 0], ...this.fields.map((f) => [f, 1])]);
  }

  /**
   * At start: true when the summaries are not complete and must be rebuilt (the readers recompute
   * meanwhile): marked so, or never built over stored documents. Without any, they are complete.
   */
  async open(): Promise<boolean> {
    const state = await this.collection.findOne({ _id: STATE });
    if (state) return !state.ready;
    if (await this.source.collection.findOne({}, { projection: { _id: 1 } })) return true;
    // two processes starting together both upsert: the loser's insert hits the winner's key
    // (a start crashed on it before issue 42) and its second try finds the document
    await retryingDuplicates(() =>
      this.collection.updateOne(
        { _id: STATE },
        { $setOnInsert: { ready: true } },
        { upsert: true },
      ),
    );
    return false;
  }

  /** Complete (read only; `open` may mark them). */
  async isComplete(): Promise<boolean> {
    return (await this.collection.findOne({ _id: STATE }))?.ready === true;
  }

  /** Marks the summaries incomplete until the next rebuild (the documents were bulk-loaded). */
  async invalidate(): Promise<void> {
    await retryingDuplicates(() =>
      this.collection.updateOne({ _id: STATE }, { $set: { ready: false } }, { upsert: true }),
    );
  }

  /** A group's summary computed now from its documents (not stored). */
  async fresh(group: number): Promise<S> {
    return this.decl.summarize(await this.members(group));
  }

  private members(group: number): Promise<M[]> {
    return this.source.collection
      .find({ [this.groupBy]: group }, { projection: this.projection })
      .toArray() as Promise<M[]>;
  }

  /** The summaries of some groups (groups without documents are absent), or null while incomplete. */
  async get(groups: number[]): Promise<Map<number, S> | null> {
    const [state, ...docs] = await Promise.all([
      this.collection.findOne({ _id: STATE }),
      ...groups.map((group) => this.collection.findOne({ _id: docKey(group) })),
    ]);
    if (!state?.ready) return null;
    const out = new Map<number, S>();
    for (const doc of docs as (SummaryDoc | null)[])
      if (doc) {
        const { _id, v: _v, [this.groupBy]: group, ...summary } = doc;
        out.set(group as number, summary as unknown as S);
      }
    return out;
  }

  /**
   * Recomputes a group's summary from its documents, after a write to one of them. In the group's
   * turn in this process; against other processes by the version (see the top).
   */
  async refresh(group: number): Promise<void> {
    const _id = docKey(group);
    await withDocLock(this.collection, _id, async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const stored = await this.collection.findOne({ _id }, { projection: { v: 1 } });
        const summary = await this.fresh(group);
        if (!stored) {
          const doc = { ...summary, _id, [this.groupBy]: group, v: 1 };
          if (await insertedUnlessTaken(() => this.collection.insertOne(doc))) return;
          continue; // another replica stored it meanwhile
        }
        const res = await this.collection.updateOne(
          { _id, v: stored.v },
          { $set: { ...summary, v: stored.v + 1 } },
        );
        if (res.matchedCount === 1) return;
      }
      // five replicas' writes in between: the last of them wrote what it read after ours
    });
  }

  /**
   * Checks every summary against the documents in one pass, writes those that differ (all of them
   * after a bulk load), then marks the summaries complete. A summary that a write refreshed while
   * the pass ran keeps the write's version (newer than what the pass read). Answers how many it
   * wrote.
   */
  async rebuild(): Promise<number> {
    // the summaries first: a write after this read raises the version and wins over the pass
    const stored = new Map<string, SummaryDoc>();
    for (const doc of await this.collection.find({ [this.groupBy]: { $exists: true } }).toArray())
      stored.set(doc._id, doc);
    // every stored summary's group too: one whose documents are all gone is summarized empty
    const byGroup = new Map<number, M[]>();
    for (const doc of stored.values()) byGroup.set(doc[this.groupBy] as number, []);
    const everyMember = this.source.collection.find({}, { projection: this.projection });
    for (const m of await everyMember.toArray()) {
      const group = m[this.groupBy] as number;
      if (!byGroup.has(group)) byGroup.set(group, []);
      byGroup.get(group)!.push(m as M);
    }
    let written = 0;
    const missing: SummaryDoc[] = [];
    for (const [group, members] of byGroup) {
      const _id = docKey(group);
      const summary = this.decl.summarize(members);
      const old = stored.get(_id);
      if (!old) {
        missing.push({ ...summary, _id, [this.groupBy]: group, v: 1 });
        continue;
      }
      if (Object.entries(summary).every(([k, v]) => JSON.stringify(old[k]) === JSON.stringify(v)))
        continue;
      const res = await withDocLock(this.collection, _id, () =>
        this.collection.updateOne({ _id, v: old.v }, { $set: { ...summary, v: old.v + 1 } }),
      );
      written += res.matchedCount;
    }
    // new summaries a page at a time; one a write stored meanwhile collides with its key and stays
    for (let i = 0; i < missing.length; i += 500) {
      const page = missing.slice(i, i + 500);
      written += page.length - (await insertManyKeepingExisting(this.collection, page)).length;
    }
    await retryingDuplicates(() =>
      this.collection.updateOne({ _id: STATE }, { $set: { ready: true } }, { upsert: true }),
    );
    return written;
  }
}
