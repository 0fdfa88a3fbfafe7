import { withDocLock } from '@furniture/platform';
import type { Models, SessionDoc } from './models';

export interface Session {
  sid: string;
  userId: number;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

function toSession(doc: SessionDoc): Session {
  return {
    sid: doc.sid,
    userId: doc.user_id,
    createdAt: doc.created_at,
    expiresAt: doc.expires_at,
    revokedAt: doc.revoked_at ?? null,
  };
}

export class SessionsRepository {
  constructor(private readonly models: Models) {}

  async create(s: { sid: string; userId: number; expiresAt: Date }): Promise<Session> {
    const doc: SessionDoc = {
      sid: s.sid,
      user_id: s.userId,
      created_at: new Date(),
      expires_at: s.expiresAt,
      revoked_at: null,
    };
    await this.models.Session.collection.insertOne({ ...doc });
    return toSession(doc);
  }

  async find(sid: string): Promise<Session | null> {
    const doc = await this.models.Session.findOne({ sid }).lean<SessionDoc>();
    return doc ? toSession(doc) : null;
  }

  /** Session writes are serialized per session (see platform locks.ts). */
  private write<T>(sid: string, fn: () => Promise<T>): Promise<T> {
    return withDocLock(this.models.Session.collection, sid, fn);
  }

  async touch(sid: string): Promise<void> {
    await this.write(sid, () =>
      this.models.Session.updateOne(
        { sid, revoked_at: null },
        { $set: { refreshed_at: new Date() } },
      ),
    );
  }

  async revoke(sid: string, reason: string): Promise<void> {
    await this.write(sid, () =>
      this.models.Session.updateOne(
        { sid, revoked_at: null },
        { $set: { revoked_at: new Date(), revoked_reason: reason } },
      ),
    );
  }

  async revokeAllOfUser(userId: number, reason: string): Promise<void> {
    const open = await this.models.Session.find(
      { user_id: userId, revoked_at: null },
      { sid: 1 },
    ).lean<SessionDoc[]>();
    await Promise.all(open.map((s) => this.revoke(s.sid, reason)));
  }

  /** Sessions past their absolute end are useless; keep the collection small. */
  async purgeExpired(olderThan: Date): Promise<number> {
    const res = await this.models.Session.deleteMany({ expires_at: { $lt: olderThan } });
    return res.deletedCount;
  }
}
