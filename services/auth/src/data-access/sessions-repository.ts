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

  async touch(sid: string): Promise<void> {
    await this.models.Session.updateOne({ sid }, { $set: { refreshed_at: new Date() } });
  }

  async revoke(sid: string, reason: string): Promise<void> {
    await this.models.Session.updateOne(
      { sid, revoked_at: null },
      { $set: { revoked_at: new Date(), revoked_reason: reason } },
    );
  }

  async revokeAllOfUser(userId: number, reason: string): Promise<void> {
    await this.models.Session.updateMany(
      { user_id: userId, revoked_at: null },
      { $set: { revoked_at: new Date(), revoked_reason: reason } },
    );
  }

  /** Sessions past their absolute end are useless; keep the collection small. */
  async purgeExpired(olderThan: Date): Promise<number> {
    const res = await this.models.Session.deleteMany({ expires_at: { $lt: olderThan } });
    return res.deletedCount;
  }
}
