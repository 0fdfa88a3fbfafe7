import {
  Events,
  REVOCATIONS_PATH,
  revocationsPageAnswer,
  type DomainEvent,
  type EventName,
} from '@furniture/contracts';
import { addressesOf, internalAuthorization, type InternalCredential } from './internal-calls';

/** The user events that end sessions before their tokens expire. */
export const RevokingEvents: readonly EventName[] = [
  Events.UserLoggedOut,
  Events.UserPasswordChanged,
  Events.UserUpdated,
  Events.UserDeleted,
];

/** What the verifier knows of a token when it asks whether it was revoked. */
export interface TokenIdentity {
  sessionId: string;
  userId: number;
  /** the token's iat, in seconds */
  issuedAt: number;
}

/**
 * Sessions and users whose tokens no longer count, fed by the auth service's events (every
 * process receives all of them, see EventBus.broadcast): a logout ends its session; a password
 * change, a role change or a deletion ends every token of the user issued before it. Access tokens
 * live minutes, so an entry is dropped after `retentionMs`.
 */
export class RevokedTokens {
  private readonly sessions = new Map<string, number>();
  /** user id → tokens issued before this second are refused */
  private readonly users = new Map<number, { before: number; recordedAt: number }>();

  constructor(private readonly retentionMs = 24 * 3600 * 1000) {}

  apply(event: DomainEvent): void {
    const at = Date.parse(event.occurredAt);
    const payload = event.payload as {
      user?: { id: number };
      session_id?: string;
      changes?: Record<string, unknown>;
    };
    const userId = payload.user?.id;
    if (userId === undefined) return;
    switch (event.name) {
      case Events.UserLoggedOut:
        if (!payload.session_id) return this.revokeUserBefore(userId, at);
        this.revokeSession(payload.session_id);
        return;
      case Events.UserPasswordChanged:
      case Events.UserDeleted:
        this.revokeUserBefore(userId, at);
        return;
      case Events.UserUpdated:
        // a new password shows as `password` (changesOf masks the hash and drops `_hash`)
        if (payload.changes && ('role' in payload.changes || 'password' in payload.changes))
          this.revokeUserBefore(userId, at);
        return;
      default:
    }
  }

  /** every token of the session (a logout, or a session the auth service lists as ended) */
  revokeSession(sessionId: string): void {
    this.prune();
    if (!this.sessions.has(sessionId)) this.sessions.set(sessionId, Date.now());
  }

  /** tokens of the user issued in an earlier second than `atMs` (the new session's survives) */
  revokeUserBefore(userId: number, atMs: number): void {
    this.prune();
    const before = Math.floor(atMs / 1000);
    const known = this.users.get(userId);
    if (!known || known.before < before) this.users.set(userId, { before, recordedAt: Date.now() });
  }

  isRevoked(token: TokenIdentity): boolean {
    if (this.sessions.has(token.sessionId)) return true;
    const user = this.users.get(token.userId);
    return user !== undefined && token.issuedAt < user.before;
  }

  private prune(): void {
    const oldest = Date.now() - this.retentionMs;
    for (const [sid, at] of this.sessions) if (at < oldest) this.sessions.delete(sid);
    for (const [id, u] of this.users) if (u.recordedAt < oldest) this.users.delete(id);
  }
}

/**
 * Loads the sessions the auth service ended within `windowMs` into `revoked` (a process that
 * starts, or whose broker connection came back, missed the logouts sent meanwhile). Tries again
 * with a growing pause while the auth service does not answer, up to `attempts` times; answers
 * how many sessions it loaded, or null when it gave up. The events go on arriving meanwhile.
 */
export async function loadRevocations(opts: {
  authUrl: string;
  /** this process's credential for auth's internal route */
  credential?: InternalCredential;
  revoked: RevokedTokens;
  windowMs: number;
  attempts?: number;
  firstPauseMs?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<number | null> {
  const attempts = opts.attempts ?? 8;
  let pause = opts.firstPauseMs ?? 500;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (opts.signal?.aborted) return null;
    try {
      // as the catalog's snapshot source builds its URL (read-models/lots.ts)
      // several processes of auth (make run REPLICAS=2): each attempt asks the next
      const addresses = addressesOf(opts.authUrl);
      const url = new URL(REVOCATIONS_PATH, addresses[(attempt - 1) % addresses.length]);
      url.searchParams.set('since', new Date(Date.now() - opts.windowMs).toISOString());
      const res = await fetch(url, {
        headers: opts.credential ? { authorization: internalAuthorization(opts.credential) } : {},
        signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
      });
      if (res.ok) {
        const page = revocationsPageAnswer.parse(await res.json());
        for (const s of page.sessions) opts.revoked.revokeSession(s.sid);
        return page.sessions.length;
      }
    } catch {
      // not there yet (starting, or gone for a moment): try again
    }
    if (attempt < attempts) {
      await new Promise((resolve) => setTimeout(resolve, pause).unref());
      pause = Math.min(pause * 2, 30000);
    }
  }
  return null;
}
