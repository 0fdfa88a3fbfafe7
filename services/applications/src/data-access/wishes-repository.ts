import type { DomainEvent, Wish, WishStatus } from '@furniture/contracts';
import {
  KeptCounts,
  docWithEvents,
  escapeRegex,
  nextId,
  type KeptCountsDoc,
  withDocLock,
  withEvents,
  NOT_DELETED,
  type Connection,
} from '@furniture/platform';
import type { QueryFilter } from 'mongoose';
import type { NewWish } from '../domain/records';
import {
  BLOCK_LAYOUT,
  countMove,
  pageOfBlocks,
  placeNewest,
  placeOf,
  rebuildBlockCounts,
} from './blocks';
import type { Models, WishDoc } from './models';

function toWish(doc: WishDoc): Wish {
  return {
    id: doc.id,
    status: doc.status,
    admin_notes: doc.admin_notes ?? null,
    applicant_name: doc.applicant_name,
    applicant_whatsapp: doc.applicant_whatsapp,
    applicant_whatsapp_raw: doc.applicant_whatsapp_raw,
    applicant_email: doc.applicant_email ?? null,
    furniture_category: doc.furniture_category,
    furniture_description: doc.furniture_description,
    language: doc.language,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

const LIVE = NOT_DELETED as QueryFilter<WishDoc>;

/**
 * The counts kept with every write (KeptCounts, keys in blocks.ts), as for the applications. The
 * staff list without category or search reads them instead of counting, and reads its page block
 * by block (FerretDB pushes the equality on `block` down).
 */
const COUNTS = 'wish_counts';

export class WishesRepository {
  private readonly kept: KeptCounts;

  constructor(
    private readonly conn: Connection,
    private readonly models: Models,
  ) {
    this.kept = new KeptCounts(conn.collection<KeptCountsDoc>(COUNTS), 'all', BLOCK_LAYOUT);
  }

  private get collection() {
    return this.models.Wish.collection;
  }

  /** At start: true when the counts must be rebuilt (rebuildCounts) from the wishes. */
  openCounts(): Promise<boolean> {
    return this.kept.open(async () => Boolean(await this.models.Wish.exists({})));
  }

  /** Gives every wish its block and counts the wishes once more, in one pass. */
  async rebuildCounts(log: (msg: string) => void = () => undefined): Promise<void> {
    log('rebuilding the wish counts');
    const total = await rebuildBlockCounts(this.collection as never, this.kept);
    log(`wish counts rebuilt: ${total} wishes`);
  }

  drawId(): Promise<number> {
    return nextId(this.conn, 'wishes');
  }

  /** Every minute: the part of records an older replica wrote without one (placeNewestParts). */
  placeNewest(): Promise<number> {
    return placeNewest(this.conn, this.collection as never, 'wishes');
  }

  async insert(data: NewWish, events: (wish: Wish) => DomainEvent[]): Promise<Wish> {
    const now = new Date();
    const id = await this.drawId();
    const doc: WishDoc = { ...data, id, ...placeOf(id), created_at: now, updated_at: now };
    const wish = toWish(doc);
    await this.collection.insertOne(docWithEvents({ ...doc }, events(wish)));
    await this.kept.add(countMove(id, null, doc.status));
    return wish;
  }

  async findById(id: number): Promise<Wish | null> {
    const doc = await this.models.Wish.findOne({ ...LIVE, id }).lean<WishDoc>();
    return doc ? toWish(doc) : null;
  }

  /** Active wishes of a category, oldest first. */
  async activeOfCategory(category: number, limit: number): Promise<Wish[]> {
    const docs = await this.models.Wish.find({
      ...LIVE,
      status: 'active',
      furniture_category: category,
    })
      .sort({ id: 1 })
      .limit(limit)
      .lean<WishDoc[]>();
    return docs.map(toWish);
  }

  /** Appends a line to an active wish's admin notes, with its events; null when not active. */
  async appendNote(id: number, line: string, events: DomainEvent[]): Promise<Wish | null> {
    const res = await withDocLock(this.collection, id, async () => {
      const doc = await this.models.Wish.findOne({ ...LIVE, id }).lean<WishDoc>();
      if (!doc || doc.status !== 'active') return { matchedCount: 0 };
      const notes = doc.admin_notes ? `${doc.admin_notes}\n${line}` : line;
      return this.collection.updateOne(
        { ...NOT_DELETED, id, status: 'active', admin_notes: doc.admin_notes ?? null },
        withEvents({ $set: { admin_notes: notes, updated_at: new Date() } }, events),
      );
    });
    if (res.matchedCount !== 1) return null;
    return this.findById(id);
  }

  async list(q: {
    status?: WishStatus;
    category?: number;
    search?: string;
    limit: number;
    skip: number;
  }): Promise<{ wishes: Wish[]; total: number }> {
    const counts = q.category === undefined && !q.search ? await this.kept.readWithLayout() : null;
    if (counts) {
      const { docs, total } = await pageOfBlocks(counts, q, (where, take) =>
        this.models.Wish.find({ ...LIVE, ...where, ...(q.status ? { status: q.status } : {}) })
          .sort({ id: -1 })
          .limit(take)
          .lean<WishDoc[]>(),
      );
      return { wishes: docs.map(toWish), total };
    }
    const filter: QueryFilter<WishDoc> = { ...LIVE };
    if (q.status) filter.status = q.status;
    if (q.category !== undefined) filter.furniture_category = q.category;
    if (q.search) {
      const re = new RegExp(escapeRegex(q.search), 'i');
      filter.$or = [
        { applicant_name: re },
        { furniture_description: re },
        { applicant_whatsapp: re },
        { applicant_whatsapp_raw: re },
        { admin_notes: re },
      ];
    }
    const [docs, total] = await Promise.all([
      this.models.Wish.find(filter).sort({ id: -1 }).skip(q.skip).limit(q.limit).lean<WishDoc[]>(),
      this.models.Wish.countDocuments(filter),
    ]);
    return { wishes: docs.map(toWish), total };
  }

  /**
   * Sets status and notes in one write guarded by the status the change was decided on; null
   * when the wish is gone or its status changed meanwhile.
   */
  async update(
    id: number,
    expectedStatus: WishStatus,
    set: { status: WishStatus; admin_notes: string | null },
    events: DomainEvent[],
  ): Promise<Wish | null> {
    const res = await withDocLock(this.collection, id, () =>
      this.collection.updateOne(
        { ...NOT_DELETED, id, status: expectedStatus },
        withEvents({ $set: { ...set, updated_at: new Date() } }, events),
      ),
    );
    if (res.matchedCount !== 1) return null;
    if (set.status !== expectedStatus)
      await this.kept.add(countMove(id, expectedStatus, set.status));
    return this.findById(id);
  }
}
