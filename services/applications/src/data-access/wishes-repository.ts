import type { DomainEvent, Wish, WishStatus } from '@furniture/contracts';
import { escapeRegex, NOT_DELETED, type Store, type StoredList } from '@furniture/platform';
import type { QueryFilter } from 'mongoose';
import type { NewWish, ReferralRecord } from '../domain/records';
import type { WishDoc } from './models';

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

export class WishesRepository {
  /** the staff list is counted by status and read block by block (the store) */
  readonly stored: StoredList<WishDoc>;

  constructor(store: Store) {
    this.stored = store.list<WishDoc>({
      name: 'wishes',
      counts: 'wish_counts',
      countedBy: ['status'],
      tallied: { status: 'status' },
      tombstones: true,
    });
  }

  drawId(): Promise<number> {
    return this.stored.nextId();
  }

  async insert(
    data: NewWish & { referral?: ReferralRecord | null },
    events: (wish: Wish) => DomainEvent[],
  ): Promise<Wish> {
    const now = new Date();
    const { referral, ...fields } = data;
    const doc: WishDoc = {
      ...fields,
      referral: referral
        ? { ...referral, expires_at: new Date(referral.expires_at), expired_at: null }
        : null,
      id: await this.drawId(),
      created_at: now,
      updated_at: now,
    };
    const wish = toWish(doc);
    await this.stored.insert({ ...doc }, events(wish));
    return wish;
  }

  /** Referred wishes (issue 44): of one agency or every agency, newest first, with the referral. */
  async referred(
    where: { agencyId?: number; referralId?: number },
    limit = 500,
  ): Promise<{ wish: Wish; referral: ReferralRecord }[]> {
    const filter: Record<string, unknown> = { referral: { $ne: null } };
    if (where.agencyId !== undefined) filter['referral.agency_id'] = where.agencyId;
    if (where.referralId !== undefined) filter['referral.id'] = where.referralId;
    const docs = await this.stored.find(filter, { sort: { id: -1 }, limit });
    return docs.map((doc) => ({
      wish: toWish(doc),
      referral: {
        ...doc.referral!,
        expires_at: new Date(doc.referral!.expires_at).toISOString(),
        expired_at: null,
      },
    }));
  }

  async findById(id: number): Promise<Wish | null> {
    const doc = await this.stored.get(id);
    return doc ? toWish(doc) : null;
  }

  /** Active wishes of a category, oldest first. */
  async activeOfCategory(category: number, limit: number): Promise<Wish[]> {
    const docs = await this.stored.find(
      { status: 'active', furniture_category: category },
      { sort: { id: 1 }, limit },
    );
    return docs.map(toWish);
  }

  /** Appends a line to an active wish's admin notes, with its events; null when not active. */
  async appendNote(id: number, line: string, events: DomainEvent[]): Promise<Wish | null> {
    // guarded by the notes it was read with: a note added meanwhile makes it read again
    for (let attempt = 0; attempt < 5; attempt++) {
      const doc = await this.stored.get(id);
      if (!doc || doc.status !== 'active') return null;
      const notes = doc.admin_notes ? `${doc.admin_notes}\n${line}` : line;
      const guard = { status: 'active', admin_notes: doc.admin_notes ?? null };
      const done = await this.write(id, guard, { admin_notes: notes }, events);
      if (done) return this.findById(id);
    }
    throw new Error(`wish ${id}: concurrent notes did not settle`);
  }

  async list(q: {
    status?: WishStatus;
    category?: number;
    search?: string;
    limit: number;
    skip: number;
  }): Promise<{ wishes: Wish[]; total: number }> {
    const where: QueryFilter<WishDoc> = {};
    if (q.status) where.status = q.status;
    if (q.category !== undefined) where.furniture_category = q.category;
    if (q.search) {
      const re = new RegExp(escapeRegex(q.search), 'i');
      where.$or = [
        { applicant_name: re },
        { furniture_description: re },
        { applicant_whatsapp: re },
        { applicant_whatsapp_raw: re },
        { admin_notes: re },
      ];
    }
    const { docs, total } = await this.stored.pageWithTotal(where, q);
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
    const done = await this.write(id, { status: expectedStatus }, set, events);
    return done ? this.findById(id) : null;
  }

  /** One guarded change of a live wish with its events, which the relay is asked to publish. */
  private async write(
    id: number,
    guard: Record<string, unknown>,
    set: Record<string, unknown>,
    events: DomainEvent[],
  ): Promise<boolean> {
    const update = { $set: { ...set, updated_at: new Date() } };
    const done = await this.stored.update({ ...NOT_DELETED, id, ...guard }, update, events);
    return done;
  }
}
