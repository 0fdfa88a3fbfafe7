import type { DomainEvent, Role, User } from '@furniture/contracts';
import {
  escapeRegex,
  duplicateAs,
  nextId,
  tombstoneUpdate,
  NOT_DELETED,
  type Connection,
  type Store,
  type StoredCollection,
} from '@furniture/platform';
import type { QueryFilter } from 'mongoose';
import { emailTaken, toPublicUser, type UserRecord } from '../domain/records';
import type { UserDoc } from './models';

export { toPublicUser, type UserRecord } from '../domain/records';

/** Another user already has this e-mail: the unique index's refusal. */
const namedDuplicate = duplicateAs(emailTaken);

function toRecord(doc: UserDoc): UserRecord {
  return {
    id: doc.id,
    name: doc.name,
    email: doc.email,
    role: doc.role,
    ...(doc.agency_id !== undefined ? { agency_id: doc.agency_id } : {}),
    ...(doc.language ? { language: doc.language } : {}),
    password_hash: doc.password_hash,
    ...(doc.must_change_password ? { must_change_password: true } : {}),
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

export class UsersRepository {
  private readonly stored: StoredCollection<UserDoc>;

  constructor(
    store: Store,
    private readonly conn: Connection,
  ) {
    this.stored = store.collection<UserDoc>({ name: 'users', tombstones: true });
  }

  async count(): Promise<number> {
    return this.stored.countStored();
  }

  /** Administrators that stay: an admin marked for deletion no longer counts. */
  async countAdmins(): Promise<number> {
    return this.stored.countStored({ role: 'admin', deleting: { $ne: true } });
  }

  /**
   * First step of a deletion: marks the user so that it no longer counts as an administrator,
   * without deleting anything yet (see UsersService.delete). false when the user is gone.
   */
  async markDeleting(id: number, deleting: boolean): Promise<boolean> {
    return this.stored.update({ ...NOT_DELETED, id }, { $set: { deleting } });
  }

  async findById(id: number): Promise<UserRecord | null> {
    const doc = await this.stored.get(id);
    return doc ? toRecord(doc) : null;
  }

  /** The referrers of a partner agency (issue 44). */
  async referrersOf(agencyId: number): Promise<UserRecord[]> {
    const docs = await this.stored.find({ role: 'referrer', agency_id: agencyId });
    return docs.map(toRecord);
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    const doc = await this.stored.findOne({ email });
    return doc ? toRecord(doc) : null;
  }

  async list(q: {
    page: number;
    limit: number;
    search?: string;
    role?: Role;
  }): Promise<{ users: UserRecord[]; total: number }> {
    const filter: QueryFilter<UserDoc> = {};
    if (q.role) filter.role = q.role;
    if (q.search) {
      const re = new RegExp(escapeRegex(q.search), 'i');
      filter.$or = [{ name: re }, { email: re }];
    }
    const [docs, total] = await Promise.all([
      this.stored.find(filter, { sort: { id: 1 }, skip: (q.page - 1) * q.limit, limit: q.limit }),
      this.stored.countStored(filter),
    ]);
    return { users: docs.map(toRecord), total };
  }

  async create(
    data: {
      name: string;
      email: string;
      role: Role;
      password_hash: string;
      must_change_password?: boolean;
      agency_id?: number;
      language?: 'de' | 'uk';
    },
    events: (user: User) => DomainEvent[],
  ): Promise<UserRecord> {
    const now = new Date();
    const id = await nextId(this.conn, 'users');
    const doc: UserDoc = { id, ...data, created_at: now, updated_at: now };
    const record = toRecord(doc);
    await this.stored.insert({ ...doc }, events(toPublicUser(record))).catch(namedDuplicate);
    return record;
  }

  /** Applies a change and its events in one write; returns the new state (null if gone). */
  async update(
    before: UserRecord,
    set: Partial<
      Pick<UserDoc, 'name' | 'email' | 'role' | 'password_hash' | 'must_change_password'>
    >,
    events: (user: User) => DomainEvent[],
  ): Promise<UserRecord | null> {
    const updatedAt = new Date();
    const next: UserRecord = { ...before, ...set, updated_at: updatedAt.toISOString() };
    const done = await this.stored
      .update(
        { ...NOT_DELETED, id: before.id },
        { $set: { ...set, updated_at: updatedAt } },
        events(toPublicUser(next)),
      )
      .catch(namedDuplicate);
    return done ? next : null;
  }

  /** Records a login (or logout) with its event; the profile itself is unchanged. */
  async recordSessionEvent(id: number, events: DomainEvent[], loginAt?: Date): Promise<void> {
    await this.stored.update(
      { ...NOT_DELETED, id },
      loginAt ? { $set: { last_login_at: loginAt } } : {},
      events,
    );
  }

  /** Deletes through a tombstone so the deletion event cannot be lost. */
  async delete(id: number, events: DomainEvent[]): Promise<boolean> {
    // the unique email is released at once: the tombstone keeps a placeholder
    return this.stored.update(
      { ...NOT_DELETED, id },
      tombstoneUpdate(events, { email: `deleted:${id}:${Date.now()}` }),
    );
  }
}
