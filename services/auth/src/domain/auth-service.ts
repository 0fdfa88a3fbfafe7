import { randomUUID } from 'node:crypto';
import {
  Events,
  type SessionEndReason,
  type TokenResponse,
  type User,
  type PasswordChange,
  type ProfileUpdate,
} from '@furniture/contracts';
import {
  AppError,
  createEvent,
  type AuthenticatedActor,
  type PresentedToken,
} from '@furniture/platform/domain';
import type { Session, SessionsRepository } from '../data-access/sessions-repository';
import type { UsersRepository } from '../data-access/users-repository';
import {
  passwordTooWeak,
  toPublicUser,
  type LoginThrottle,
  type PasswordPolicy,
  type UserRecord,
  snapshot,
  userUpdated,
} from './records';
import type { PasswordHasher } from '../integrations/password-hasher';
import type { RefreshTokens } from '../integrations/refresh-tokens';
import type { TokenSigner } from '../integrations/token-signer';

export interface AuthDeps {
  users: UsersRepository;
  sessions: SessionsRepository;
  hasher: PasswordHasher;
  policy: PasswordPolicy;
  signer: TokenSigner;
  refreshTokens: RefreshTokens;
  throttle: LoginThrottle;
  sessionMaxAgeSeconds: number;
  /** a session without a refresh for this long ends */
  sessionIdleSeconds: number;
  /** the token just replaced still answers (without rotating) for this long */
  refreshReuseGraceSeconds: number;
  /** an access token may renew its session (once) until this long after it expired */
  refreshBearerGraceSeconds: number;
  /** a referrer's partner agency (issue 44): it holds a session only while that is active */
  agencyOf?: (user: User) => Promise<{ name: string; active: boolean } | null>;
}

/** The refresh token for the cookie, and when the cookie may go (the session's absolute end). */
export interface RefreshCookie {
  token: string;
  expiresAt: Date;
}

/** A token answer, with the refresh token to set as cookie when there is a new one. */
export interface SessionAnswer {
  body: TokenResponse;
  refresh?: RefreshCookie;
}

/**
 * Login, session refresh, logout, the current user, profile and password changes.
 *
 * A session (sid) is created at login with a refresh token (the browser keeps it in an httpOnly
 * cookie) and ends after `sessionIdleSeconds` without a refresh or `sessionMaxAgeSeconds` after
 * login. Every refresh replaces the refresh token; a replaced token presented again (after the
 * short grace for two tabs refreshing at once) ends the session. Access tokens are short-lived,
 * carry the sid and never outlive the session's idle or absolute end. Every end of a session
 * (logout, lapse, replay) is announced with user.logged_out so that every service refuses its
 * tokens at once; password change, role change and deletion revoke all of the user's sessions.
 */
export class AuthService {
  // a real hash, so that unknown e-mails cost as much time as wrong passwords
  private dummyHash?: Promise<string>;

  constructor(private readonly deps: AuthDeps) {}

  private async mayLogIn(user: User): Promise<boolean> {
    if (user.role !== 'referrer' || !this.deps.agencyOf) return true;
    return (await this.deps.agencyOf(user))?.active === true;
  }

  async login(email: string, password: string, ip: string): Promise<SessionAnswer> {
    const { users, hasher, throttle } = this.deps;
    const wait = await throttle.take(email, ip);
    if (wait > 0) {
      throw new AppError('LOGIN_THROTTLED', {
        params: { minutes: Math.max(1, Math.ceil(wait / 60)) },
        extra: { retry_after: wait },
      });
    }
    const user = await users.findByEmail(email);
    // a refused computation (too many at once) must not stay cached
    this.dummyHash ??= hasher.hash(randomUUID()).catch((err: unknown) => {
      this.dummyHash = undefined;
      throw err;
    });
    const ok = await hasher.verify(user?.password_hash ?? (await this.dummyHash), password);
    if (!user || !ok) throw new AppError('INVALID_CREDENTIALS');
    await throttle.recordSuccess(email, ip);
    if (!(await this.mayLogIn(toPublicUser(user)))) throw new AppError('AGENCY_INACTIVE');
    if (hasher.needsRehash(user.password_hash)) {
      await users.update(user, { password_hash: await hasher.hash(password) }, () => []);
    }
    const publicUser = toPublicUser(user);
    const opened = await this.openSession(publicUser);
    const response: SessionAnswer = user.must_change_password
      ? { ...opened, body: { ...opened.body, must_change_password: true } }
      : opened;
    await users.recordSessionEvent(
      user.id,
      [createEvent(Events.UserLoggedIn, { user: snapshot(publicUser) }, snapshot(publicUser))],
      new Date(),
    );
    return response;
  }

  private async openSession(user: User): Promise<SessionAnswer> {
    const sid = randomUUID();
    const refresh = this.deps.refreshTokens.issue(sid);
    const session = await this.deps.sessions.create({
      sid,
      userId: user.id,
      expiresAt: new Date(Date.now() + this.deps.sessionMaxAgeSeconds * 1000),
      refreshHash: refresh.hash,
    });
    return {
      body: await this.tokenFor(user, session),
      refresh: { token: refresh.token, expiresAt: session.expiresAt },
    };
  }

  private async tokenFor(user: User, session: Session): Promise<TokenResponse> {
    const idleEnd = session.lastUsedAt.getTime() + this.deps.sessionIdleSeconds * 1000;
    const ends = new Date(Math.min(session.expiresAt.getTime(), idleEnd));
    // a referrer's token names its agency (issue 44): what the other services show and scope by
    const agency =
      user.role === 'referrer' && this.deps.agencyOf ? await this.deps.agencyOf(user) : null;
    const { token, expiresIn } = this.deps.signer.sign(user, session.sid, ends, {
      agencyName: agency?.name,
    });
    return { access_token: token, token_type: 'bearer', expires_in: expiresIn, user };
  }

  /** Why an open session has ended by time (idle or absolute age), if it has. */
  private lapseOf(session: Session, now = Date.now()): SessionEndReason | null {
    if (session.expiresAt.getTime() <= now) return 'max_age';
    if (session.lastUsedAt.getTime() + this.deps.sessionIdleSeconds * 1000 <= now) return 'idle';
    return null;
  }

  /**
   * Ends a session and announces it (user.logged_out with the session and the reason) so that
   * every service refuses its tokens; a session that had already ended is left as it is.
   */
  private async endSession(session: Session, reason: SessionEndReason): Promise<void> {
    if (!(await this.deps.sessions.revoke(session.sid, reason))) return;
    const user = await this.deps.users.findById(session.userId);
    if (!user) return; // a deleted user's tokens are refused already
    const publicUser = toPublicUser(user);
    await this.deps.users.recordSessionEvent(user.id, [
      createEvent(
        Events.UserLoggedOut,
        { user: snapshot(publicUser), session_id: session.sid, reason },
        snapshot(publicUser),
      ),
    ]);
  }

  /** Ends the open sessions past their idle or absolute end (a periodic job; answers how many). */
  /**
   * The sessions ended since `since` (ids and when), newest first, at most `limit`, and whether
   * more ended: what a starting or reconnected replica of any service loads (issue 32).
   */
  async endedSessionsSince(
    since: Date,
    limit: number,
  ): Promise<{ sessions: { sid: string; revoked_at: string }[]; truncated: boolean }> {
    const ended = await this.deps.sessions.endedSince(since, limit + 1);
    return {
      sessions: ended
        .slice(0, limit)
        .map((s) => ({ sid: s.sid, revoked_at: s.revoked_at.toISOString() })),
      truncated: ended.length > limit,
    };
  }

  async endLapsedSessions(now = new Date()): Promise<number> {
    const idleSince = new Date(now.getTime() - this.deps.sessionIdleSeconds * 1000);
    const lapsed = await this.deps.sessions.findLapsed(now, idleSince);
    for (const session of lapsed) {
      await this.endSession(session, this.lapseOf(session, now.getTime()) ?? 'idle');
    }
    return lapsed.length;
  }

  /** Session `sid` while open (of user `userId` when given); SESSION_EXPIRED, ended if lapsed. */
  private async liveSession(sid: string, userId?: number): Promise<Session> {
    const session = await this.deps.sessions.find(sid);
    if (!session || session.revokedAt || (userId !== undefined && session.userId !== userId))
      throw new AppError('SESSION_EXPIRED');
    const lapse = this.lapseOf(session);
    if (!lapse) return session;
    await this.endSession(session, lapse);
    throw new AppError('SESSION_EXPIRED');
  }

  /** The live user behind a token whose session is still open (401 otherwise). */
  async current(actor: AuthenticatedActor): Promise<UserRecord> {
    await this.liveSession(actor.sessionId, actor.id);
    const user = await this.deps.users.findById(actor.id);
    if (!user) throw new AppError('SESSION_EXPIRED');
    return user;
  }

  /**
   * A new access token for the session of `refreshToken` (the cookie's), and a new refresh token
   * replacing it. The token replaced within the grace answers an access token and no new cookie
   * (the browser already got it); an older replaced token ends the session (it was copied).
   */
  async refresh(refreshToken: unknown): Promise<SessionAnswer> {
    const parsed = this.deps.refreshTokens.parse(refreshToken);
    if (!parsed) throw new AppError('SESSION_EXPIRED');
    const session = await this.liveSession(parsed.sid);
    const next = this.deps.refreshTokens.issue(session.sid);
    const result = await this.deps.sessions.rotate(
      session.sid,
      parsed.hash,
      next.hash,
      this.deps.refreshReuseGraceSeconds * 1000,
    );
    if (result.kind === 'refused') throw new AppError('SESSION_EXPIRED');
    if (result.kind === 'reused') {
      await this.endSession(result.session, 'refresh_reuse');
      throw new AppError('SESSION_EXPIRED');
    }
    const user = await this.deps.users.findById(session.userId);
    if (!user || !(await this.mayLogIn(toPublicUser(user)))) throw new AppError('SESSION_EXPIRED');
    const body = await this.tokenFor(toPublicUser(user), result.session);
    if (result.kind === 'grace') return { body };
    return { body, refresh: { token: next.token, expiresAt: result.session.expiresAt } };
  }

  /**
   * A new access token for the session of a presented access token (the specification's refresh
   * with the bearer token, for clients without the cookie): the token may have expired at most
   * `refreshBearerGraceSeconds` ago, and its session must be open (not logged out, revoked, idle
   * or too old). Each token renews once: its id is claimed with a unique key, so a second use, on
   * this replica or another, finds it taken; that is a copied token, and ends the session as a
   * replayed refresh cookie does. The refresh cookie is neither needed nor changed.
   */
  async refreshByBearer(presented: PresentedToken): Promise<SessionAnswer> {
    const { actor, tokenId } = presented;
    const usableUntil = (actor.expiresAt + this.deps.refreshBearerGraceSeconds) * 1000;
    if (!tokenId || Date.now() > usableUntil) throw new AppError('SESSION_EXPIRED');
    const session = await this.liveSession(actor.sessionId, actor.id);
    if (!(await this.deps.sessions.claimToken(tokenId, session.sid, new Date(usableUntil)))) {
      await this.endSession(session, 'refresh_reuse');
      throw new AppError('SESSION_EXPIRED');
    }
    const used = await this.deps.sessions.touch(session.sid);
    const user = used && (await this.deps.users.findById(used.userId));
    if (!used || !user || !(await this.mayLogIn(toPublicUser(user))))
      throw new AppError('SESSION_EXPIRED');
    return { body: await this.tokenFor(toPublicUser(user), used) };
  }

  /**
   * Ends the session of the refresh cookie, or else of the bearer token. False when neither
   * names an open session (the cookie is cleared all the same).
   */
  async logout(refreshToken: unknown, actor: AuthenticatedActor | undefined): Promise<boolean> {
    const parsed = this.deps.refreshTokens.parse(refreshToken);
    const sid = parsed?.sid ?? actor?.sessionId;
    if (!sid) return false;
    const session = await this.deps.sessions.find(sid);
    if (!session || session.revokedAt) return false;
    // a cookie must be the session's own token (current or replaced), a bearer token its user's
    if (parsed) {
      if (!(await this.deps.sessions.hadToken(sid, parsed.hash))) return false;
    } else if (session.userId !== actor?.id) return false;
    await this.endSession(session, this.lapseOf(session) ?? 'logout');
    return true;
  }

  async updateProfile(actor: AuthenticatedActor, change: ProfileUpdate): Promise<User> {
    const user = await this.current(actor);
    const set: Partial<Pick<UserRecord, 'name' | 'email'>> = {};
    if (change.name !== undefined && change.name !== user.name) set.name = change.name;
    if (change.email !== undefined && change.email !== user.email) set.email = change.email;
    if (Object.keys(set).length === 0) return toPublicUser(user);
    const updated = await this.deps.users.update(user, set, (next) => [
      userUpdated(user, set, next, snapshot(next)),
    ]);
    if (!updated) throw new AppError('SESSION_EXPIRED');
    return toPublicUser(updated);
  }

  /**
   * Changes the password, ends every session of the user (other devices must log in again) and
   * opens a new one for this device.
   */
  async changePassword(actor: AuthenticatedActor, change: PasswordChange): Promise<SessionAnswer> {
    const user = await this.current(actor);
    if (!(await this.deps.hasher.verify(user.password_hash, change.current_password))) {
      throw new AppError('CURRENT_PASSWORD_WRONG');
    }
    if (change.new_password === change.current_password) {
      throw new AppError('PASSWORD_UNCHANGED', {
        fieldErrors: [{ loc: ['body', 'new_password'], msg: '', type: 'password_unchanged' }],
      });
    }
    if (this.deps.policy.isWeak(change.new_password, [user.name, user.email]))
      throw passwordTooWeak('new_password');
    const hash = await this.deps.hasher.hash(change.new_password);
    await this.deps.users.update(
      user,
      { password_hash: hash, must_change_password: false },
      (next) => [createEvent(Events.UserPasswordChanged, { user: snapshot(next) }, snapshot(next))],
    );
    await this.deps.sessions.revokeAllOfUser(user.id, 'password_change');
    return this.openSession(toPublicUser(user));
  }
}
