import { insertedUnlessTaken, type Store, type StoredCollection } from '@furniture/platform';
import type { SessionDoc } from './models';

export interface Session {
  sid: string;
  userId: number;
  createdAt: Date;
  expiresAt: Date;
  /** the last login or refresh */
  lastUsedAt: Date;
  revokedAt: Date | null;
}

/** What presenting a refresh token of a session came to (see SessionsRepository.rotate). */
export type RotationResult =
  /** the session's current token: replaced by the new one */
  | { kind: 'rotated'; session: Session }
  /** the token replaced a moment ago (another tab refreshed at the same time): nothing changes */
  | { kind: 'grace'; session: Session }
  /** a token the session already replaced: someone replays it */
  | { kind: 'reused'; session: Session }
  /** no token this session ever had, or the session is gone or ended */
  | { kind: 'refused' };

/** Rotated-out token hashes kept per session for reuse detection (oldest dropped first). */
export const USED_HASHES_KEPT = 200;

function toSession(doc: SessionDoc): Session {
  return {
    sid: doc.sid,
    userId: doc.user_id,
    createdAt: doc.created_at,
    expiresAt: doc.expires_at,
    lastUsedAt: doc.last_used_at ?? doc.refreshed_at ?? doc.created_at,
    revokedAt: doc.revoked_at ?? null,
  };
}

/** Sessions past their absolute end are useless a day later: the store deletes them. */
const EXPIRED_KEPT_MS = 24 * 3600 * 1000;

/** An access token that has renewed its session (POST /auth/refresh with the bearer token). */
interface TokenClaimDoc {
  /** the token's jti: unique, so that one token renews once on any number of replicas */
  jti: string;
  sid: string;
  claimed_at: Date;
  /** after this the token could no longer refresh anyway: the store deletes the claim */
  expires_at: Date;
}

export class SessionsRepository {
  private readonly stored: StoredCollection<SessionDoc>;
  private readonly claims: StoredCollection<TokenClaimDoc>;

  constructor(store: Store) {
    this.stored = store.collection<SessionDoc>({
      name: 'sessions',
      key: 'sid',
      expiry: { field: 'expires_at', afterMs: EXPIRED_KEPT_MS },
    });
    this.claims = store.collection<TokenClaimDoc>({
      name: 'refresh_token_claims',
      key: 'jti',
      unique: ['jti'],
      expiry: { field: 'expires_at', afterMs: EXPIRED_KEPT_MS },
    });
  }

  /**
   * Claims access token `jti` of session `sid` for its one refresh: true for the first claim,
   * false when it was claimed before (here or on another replica: the unique index decides).
   */
  async claimToken(jti: string, sid: string, usableUntil: Date): Promise<boolean> {
    return insertedUnlessTaken(() =>
      this.claims.insert({ jti, sid, claimed_at: new Date(), expires_at: usableUntil }),
    );
  }

  /**
   * Records a use of the open session (a refresh by bearer token: the refresh token stays);
   * the session as it is now, or null when it has ended meanwhile.
   */
  async touch(sid: string): Promise<Session | null> {
    const now = new Date();
    const touched = await this.stored.update(
      { sid, revoked_at: null },
      { $set: { last_used_at: now, refreshed_at: now } },
    );
    return touched ? this.find(sid) : null;
  }

  async create(s: {
    sid: string;
    userId: number;
    expiresAt: Date;
    refreshHash: string;
  }): Promise<Session> {
    const now = new Date();
    const doc: SessionDoc = {
      sid: s.sid,
      user_id: s.userId,
      created_at: now,
      expires_at: s.expiresAt,
      last_used_at: now,
      refresh_hash: s.refreshHash,
      used_hashes: [],
      rotated_at: now,
      revoked_at: null,
    };
    await this.stored.insert({ ...doc });
    return toSession(doc);
  }

  async find(sid: string): Promise<Session | null> {
    const doc = await this.stored.get(sid);
    return doc ? toSession(doc) : null;
  }

  /**
   * One refresh: the token with hash `presented` against the session's. The current token is
   * replaced by `next` in a write guarded by it, so two refreshes of one token never both rotate
   * (on any number of replicas): the second reads again and finds it replaced a moment ago
   * ('grace', within `graceMs`) or long ago ('reused').
   */
  async rotate(
    sid: string,
    presented: string,
    next: string,
    graceMs: number,
  ): Promise<RotationResult> {
    for (;;) {
      const doc = await this.stored.get(sid);
      if (!doc || doc.revoked_at || !doc.refresh_hash) return { kind: 'refused' };
      const now = new Date();
      const used = doc.used_hashes ?? [];
      if (presented === doc.refresh_hash) {
        const set = {
          refresh_hash: next,
          used_hashes: [...used, presented].slice(-USED_HASHES_KEPT),
          rotated_at: now,
          last_used_at: now,
          refreshed_at: now,
        };
        const rotated = await this.stored.update(
          { sid, revoked_at: null, refresh_hash: presented },
          { $set: set },
        );
        if (rotated) return { kind: 'rotated', session: toSession({ ...doc, ...set }) };
        continue; // rotated or ended meanwhile: what it is now decides
      }
      if (!used.includes(presented)) return { kind: 'refused' };
      const justReplaced =
        used[used.length - 1] === presented &&
        doc.rotated_at !== undefined &&
        now.getTime() - doc.rotated_at.getTime() <= graceMs;
      return { kind: justReplaced ? 'grace' : 'reused', session: toSession(doc) };
    }
  }

  /** Whether `hash` is the session's refresh token or one it replaced. */
  async hadToken(sid: string, hash: string): Promise<boolean> {
    return this.stored.exists({ sid, $or: [{ refresh_hash: hash }, { used_hashes: hash }] });
  }

  /** Sessions ended at or after `since`, newest first, at most `limit`. */
  async endedSince(since: Date, limit: number): Promise<{ sid: string; revoked_at: Date }[]> {
    const docs = await this.stored.find(
      { revoked_at: { $gte: since } },
      { projection: { sid: 1, revoked_at: 1 }, sort: { revoked_at: -1 }, limit },
    );
    return docs.map((d) => ({ sid: d.sid, revoked_at: d.revoked_at! }));
  }

  /** Ends the session; true when this call ended it (false when it had already ended). */
  async revoke(sid: string, reason: string): Promise<boolean> {
    return this.stored.update(
      { sid, revoked_at: null },
      { $set: { revoked_at: new Date(), revoked_reason: reason } },
    );
  }

  async revokeAllOfUser(userId: number, reason: string): Promise<void> {
    const open = await this.stored.find(
      { user_id: userId, revoked_at: null },
      { projection: { sid: 1 } },
    );
    await Promise.all(open.map((s) => this.revoke(s.sid, reason)));
  }

  /** Open sessions past their absolute end, or unused since `idleSince`. */
  async findLapsed(now: Date, idleSince: Date, limit = 500): Promise<Session[]> {
    const docs = await this.stored.find(
      {
        revoked_at: null,
        $or: [
          { expires_at: { $lte: now } },
          { last_used_at: { $lte: idleSince } },
          { last_used_at: { $exists: false }, created_at: { $lte: idleSince } },
        ],
      },
      { limit },
    );
    return docs.map(toSession);
  }
}
