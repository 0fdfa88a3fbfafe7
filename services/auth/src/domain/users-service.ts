import {
  Events,
  type Actor,
  type User,
  type UserCreate,
  type UserUpdate,
  type UsersPage,
  type UsersQuery,
} from '@furniture/contracts';
import { AppError, createEvent } from '@furniture/platform/domain';
import type { SessionsRepository } from '../data-access/sessions-repository';
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

/**
 * Staff user management (admins only; the router enforces the role).
 * Rules: an admin cannot delete themself; the last admin can be neither deleted nor demoted;
 * a role or password change and a deletion end the user's sessions.
 */
export class UsersService {
  constructor(
    private readonly deps: {
      users: UsersRepository;
      sessions: SessionsRepository;
      hasher: PasswordHasher;
      policy: PasswordPolicy;
      throttle: LoginThrottle;
      /** a referrer's agency must exist and be active (issue 44) */
      requireAgency?: (id: number) => Promise<unknown>;
    },
  ) {}

  async list(q: UsersQuery): Promise<UsersPage> {
    const { users, total } = await this.deps.users.list(q);
    return { users: users.map(toPublicUser), total, page: q.page, limit: q.limit };
  }

  async get(id: number): Promise<User> {
    return toPublicUser(await this.require(id));
  }

  /**
   * A new user. `mustChangePassword`: the password was chosen by someone else (the admin command
   * line prints one), so the first login leads to the password change.
   */
  async create(
    actor: Actor | null,
    input: UserCreate,
    opts: { mustChangePassword?: boolean } = {},
  ): Promise<User> {
    if (this.deps.policy.isWeak(input.password, [input.name, input.email]))
      throw passwordTooWeak('password');
    if (input.agency_id !== undefined) await this.deps.requireAgency?.(input.agency_id);
    const created = await this.deps.users.create(
      {
        name: input.name,
        email: input.email,
        role: input.role,
        ...(input.agency_id !== undefined ? { agency_id: input.agency_id } : {}),
        password_hash: await this.deps.hasher.hash(input.password),
        ...(opts.mustChangePassword ? { must_change_password: true } : {}),
      },
      (user) => [createEvent(Events.UserCreated, { user: snapshot(user) }, actor)],
    );
    return toPublicUser(created);
  }

  async update(actor: Actor, id: number, input: UserUpdate): Promise<User> {
    const before = await this.require(id);
    const userInputs = [input.name ?? before.name, input.email ?? before.email];
    if (input.password !== undefined && this.deps.policy.isWeak(input.password, userInputs))
      throw passwordTooWeak('password');
    const set: Partial<Pick<UserRecord, 'name' | 'email' | 'role' | 'password_hash'>> = {};
    if (input.name !== undefined && input.name !== before.name) set.name = input.name;
    if (input.email !== undefined && input.email !== before.email) set.email = input.email;
    if (input.role !== undefined && input.role !== before.role) set.role = input.role;
    if (input.password !== undefined)
      set.password_hash = await this.deps.hasher.hash(input.password);
    if (Object.keys(set).length === 0) return toPublicUser(before);

    const demotes = before.role === 'admin' && set.role !== undefined && set.role !== 'admin';
    if (demotes && (await this.deps.users.countAdmins()) <= 1) throw new AppError('LAST_ADMIN');

    const updated = await this.deps.users.update(before, set, (next) => [
      userUpdated(before, set, next, actor),
    ]);
    if (!updated) throw new AppError('USER_NOT_FOUND');
    // two admins demoting each other at the same moment: the later write is undone
    if (demotes && (await this.deps.users.countAdmins()) === 0) {
      await this.deps.users.update(updated, { role: 'admin' }, (next) => [
        createEvent(
          Events.UserUpdated,
          { user: snapshot(next), changes: { role: { old: set.role, new: 'admin' } } },
          actor,
        ),
      ]);
      throw new AppError('LAST_ADMIN');
    }
    if (set.role !== undefined || set.password_hash !== undefined) {
      await this.deps.sessions.revokeAllOfUser(
        id,
        set.role !== undefined ? 'role_change' : 'password_reset',
      );
    }
    return toPublicUser(updated);
  }

  /**
   * An operator's reset (`npm run admin -- users reset-password`) for a user who cannot log in:
   * a new password that the first login leads to change, the user's sessions ended and the
   * account's login locks lifted, in one guarded write with its event (the log names no staff
   * member: nobody logged in did it).
   */
  async resetPassword(actor: Actor | null, email: string, password: string): Promise<User> {
    const before = await this.requireEmail(email);
    if (this.deps.policy.isWeak(password, [before.name, before.email]))
      throw passwordTooWeak('password');
    const set = {
      password_hash: await this.deps.hasher.hash(password),
      must_change_password: true,
    };
    const updated = await this.deps.users.update(before, set, (next) => [
      userUpdated(before, { password_hash: set.password_hash }, next, actor),
    ]);
    if (!updated) throw new AppError('USER_NOT_FOUND');
    await this.deps.sessions.revokeAllOfUser(before.id, 'password_reset');
    await this.deps.throttle.unlock(before.email);
    return toPublicUser(updated);
  }

  /** Lifts an account's login locks (failed logins from any address); its password stays. */
  async unlock(email: string): Promise<User> {
    const user = await this.requireEmail(email);
    await this.deps.throttle.unlock(user.email);
    return toPublicUser(user);
  }

  /**
   * Deletes a user. An administrator is deleted in two steps so that two admins deleting each
   * other at the same moment (also on two replicas) cannot leave none: first it is marked, which
   * takes it out of the admin count at once; if no other admin remains then, the mark is undone
   * and LAST_ADMIN answered (of two crossing deletions at least one is refused).
   */
  async delete(actor: Actor, id: number): Promise<void> {
    if (actor.id === id) throw new AppError('CANNOT_DELETE_SELF');
    const target = await this.require(id);
    if (target.role === 'admin') {
      if (!(await this.deps.users.markDeleting(id, true))) throw new AppError('USER_NOT_FOUND');
      if ((await this.deps.users.countAdmins()) === 0) {
        await this.deps.users.markDeleting(id, false);
        throw new AppError('LAST_ADMIN');
      }
    }
    const deleted = await this.deps.users.delete(id, [
      createEvent(Events.UserDeleted, { user: snapshot(toPublicUser(target)) }, actor),
    ]);
    if (!deleted) throw new AppError('USER_NOT_FOUND');
    await this.deps.sessions.revokeAllOfUser(id, 'user_deleted');
  }

  /** First start: an administrator from ADMIN_EMAIL / ADMIN_PASSWORD when there are no users. */
  async seedAdmin(admin: {
    email?: string;
    password?: string;
    name: string;
    /** the first login leads to the password change */
    mustChangePassword?: boolean;
  }): Promise<'created' | 'exists' | 'not_configured'> {
    if ((await this.deps.users.count()) > 0) return 'exists';
    if (!admin.email || !admin.password) return 'not_configured';
    try {
      await this.deps.users.create(
        {
          name: admin.name,
          email: admin.email.trim().toLowerCase(),
          role: 'admin',
          password_hash: await this.deps.hasher.hash(admin.password),
          ...(admin.mustChangePassword ? { must_change_password: true } : {}),
        },
        (user) => [createEvent(Events.UserCreated, { user: snapshot(user) }, null)],
      );
    } catch (err) {
      if (err instanceof AppError && err.code === 'EMAIL_TAKEN') return 'exists'; // another replica seeded first
      throw err;
    }
    return 'created';
  }

  private async requireEmail(email: string): Promise<UserRecord> {
    const user = await this.deps.users.findByEmail(email.trim().toLowerCase());
    if (!user) throw new AppError('USER_NOT_FOUND');
    return user;
  }

  private async require(id: number): Promise<UserRecord> {
    const user = await this.deps.users.findById(id);
    if (!user) throw new AppError('USER_NOT_FOUND');
    return user;
  }
}
