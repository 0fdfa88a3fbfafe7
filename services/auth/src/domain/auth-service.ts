import { randomUUID } from 'node:crypto';
import {
  Events,
  type Actor,
  type TokenResponse,
  type User,
  type PasswordChange,
  type ProfileUpdate,
} from '@furniture/contracts';
import {
  AppError,
  changesOf,
  createEvent,
  type AuthenticatedActor,
} from '@furniture/platform/domain';
import type { SessionsRepository } from '../data-access/sessions-repository';
import type { UsersRepository } from '../data-access/users-repository';
import {
  EmailTakenError,
  keysOf,
  passwordTooWeak,
  toPublicUser,
  type LoginThrottle,
  type PasswordPolicy,
  type UserRecord,
} from './records';
import type { PasswordHasher } from '../integrations/password-hasher';
import type { TokenSigner } from '../integrations/token-signer';

export interface AuthDeps {
  users: UsersRepository;
  sessions: SessionsRepository;
  hasher: PasswordHasher;
  policy: PasswordPolicy;
  signer: TokenSigner;
  throttle: LoginThrottle;
  sessionMaxAgeSeconds: number;
  /** called after every write that carries events */
  onEvents: () => void;
}

const actorOf = (u: User): Actor => ({ id: u.id, name: u.name, email: u.email, role: u.role });
const snapshot = (u: User) => ({ id: u.id, name: u.name, email: u.email, role: u.role });

/**
 * Login, session refresh, logout, the current user, profile and password changes.
 *
 * A session (sid) is created at login and lives at most `sessionMaxAgeSeconds`; access tokens are
 * short-lived and carry the sid. Refresh needs a still-valid token of a session that is neither
 * revoked nor past its absolute end. Logout, password change, role change and deletion revoke.
 */
export class AuthService {
  // a real hash, so that unknown e-mails cost as much time as wrong passwords
  private dummyHash?: Promise<string>;

  constructor(private readonly deps: AuthDeps) {}

  async login(email: string, password: string, ip: string): Promise<TokenResponse> {
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
    if (hasher.needsRehash(user.password_hash)) {
      await users.update(user, { password_hash: await hasher.hash(password) }, () => []);
    }
    const publicUser = toPublicUser(user);
    const opened = await this.openSession(publicUser);
    const response: TokenResponse = user.must_change_password
      ? { ...opened, must_change_password: true }
      : opened;
    await users.recordSessionEvent(
      user.id,
      [createEvent(Events.UserLoggedIn, { user: snapshot(publicUser) }, actorOf(publicUser))],
      new Date(),
    );
    this.deps.onEvents();
    return response;
  }

  private async openSession(user: User): Promise<TokenResponse> {
    const session = await this.deps.sessions.create({
      sid: randomUUID(),
      userId: user.id,
      expiresAt: new Date(Date.now() + this.deps.sessionMaxAgeSeconds * 1000),
    });
    const { token, expiresIn } = this.deps.signer.sign(user, session.sid, session.expiresAt);
    return { access_token: token, token_type: 'bearer', expires_in: expiresIn, user };
  }

  /** The live user behind a token whose session is still open (401 otherwise). */
  async current(actor: AuthenticatedActor): Promise<UserRecord> {
    const session = await this.deps.sessions.find(actor.sessionId);
    if (
      !session ||
      session.revokedAt ||
      session.userId !== actor.id ||
      session.expiresAt <= new Date()
    ) {
      throw new AppError('SESSION_EXPIRED');
    }
    const user = await this.deps.users.findById(actor.id);
    if (!user) throw new AppError('SESSION_EXPIRED');
    return user;
  }

  async refresh(actor: AuthenticatedActor): Promise<TokenResponse> {
    const user = await this.current(actor);
    const session = await this.deps.sessions.find(actor.sessionId);
    if (!session) throw new AppError('SESSION_EXPIRED');
    await this.deps.sessions.touch(session.sid);
    const publicUser = toPublicUser(user);
    const { token, expiresIn } = this.deps.signer.sign(publicUser, session.sid, session.expiresAt);
    return { access_token: token, token_type: 'bearer', expires_in: expiresIn, user: publicUser };
  }

  async logout(actor: AuthenticatedActor): Promise<void> {
    const user = await this.current(actor);
    await this.deps.sessions.revoke(actor.sessionId, 'logout');
    const publicUser = toPublicUser(user);
    await this.deps.users.recordSessionEvent(user.id, [
      createEvent(
        Events.UserLoggedOut,
        { user: snapshot(publicUser), session_id: actor.sessionId },
        actorOf(publicUser),
      ),
    ]);
    this.deps.onEvents();
  }

  async updateProfile(actor: AuthenticatedActor, change: ProfileUpdate): Promise<User> {
    const user = await this.current(actor);
    const set: Partial<Pick<UserRecord, 'name' | 'email'>> = {};
    if (change.name !== undefined && change.name !== user.name) set.name = change.name;
    if (change.email !== undefined && change.email !== user.email) set.email = change.email;
    if (Object.keys(set).length === 0) return toPublicUser(user);
    try {
      const updated = await this.deps.users.update(user, set, (next) => [
        createEvent(
          Events.UserUpdated,
          {
            user: snapshot(next),
            changes: changesOf(user, set, keysOf(set), { masked: ['password_hash'] }),
          },
          actorOf(next),
        ),
      ]);
      if (!updated) throw new AppError('SESSION_EXPIRED');
      this.deps.onEvents();
      return toPublicUser(updated);
    } catch (err) {
      if (err instanceof EmailTakenError) throw new AppError('EMAIL_TAKEN');
      throw err;
    }
  }

  /**
   * Changes the password, ends every session of the user (other devices must log in again) and
   * opens a new one for this device.
   */
  async changePassword(actor: AuthenticatedActor, change: PasswordChange): Promise<TokenResponse> {
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
      (next) => [createEvent(Events.UserPasswordChanged, { user: snapshot(next) }, actorOf(next))],
    );
    await this.deps.sessions.revokeAllOfUser(user.id, 'password_change');
    this.deps.onEvents();
    return this.openSession(toPublicUser(user));
  }
}
