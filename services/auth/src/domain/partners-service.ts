import { createHash, randomBytes } from 'node:crypto';
import {
  Events,
  type Actor,
  type AgenciesAnswer,
  type Agency,
  type AgencyCreate,
  type AgencyPatch,
  type InvitationAccept,
  type InvitationAnswer,
  type InvitationCreate,
  type User,
} from '@furniture/contracts';
import { AppError, changesOf, createEvent } from '@furniture/platform/domain';
import type { PartnersRepository } from '../data-access/partners-repository';
import type { SessionsRepository } from '../data-access/sessions-repository';
import type { UsersRepository } from '../data-access/users-repository';
import { agencyNameKey, agencySnapshotOf, toAgency, type AgencyRecord } from './partner-records';
import { passwordTooWeak, snapshot, toPublicUser, type PasswordPolicy } from './records';
import type { PasswordHasher } from '../integrations/password-hasher';

const DAY_MS = 24 * 3600 * 1000;

/** The stored form of an invitation's secret: only its hash is kept. */
export const invitationHash = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

/**
 * Partner agencies and their referrers (issue 44). Admins keep agencies and invite referrers; an
 * invitation is a secret link, single-use (its use is an insert that wins once, in any process),
 * that makes a user with the role `referrer` bound to the agency. A deactivated agency's referrers
 * are logged out everywhere (their sessions end and every service refuses their tokens) and
 * cannot log in until it is active again.
 */
export class PartnersService {
  constructor(
    private readonly deps: {
      partners: PartnersRepository;
      users: UsersRepository;
      sessions: SessionsRepository;
      hasher: PasswordHasher;
      policy: PasswordPolicy;
      publicBaseUrl: string;
      invitationValidDays: number;
    },
  ) {}

  async list(): Promise<AgenciesAnswer> {
    return { agencies: (await this.deps.partners.listAgencies()).map(toAgency) };
  }

  async create(actor: Actor, input: AgencyCreate): Promise<Agency> {
    const now = new Date();
    const record: AgencyRecord = {
      id: await this.deps.partners.nextAgencyId(),
      name: input.name,
      name_key: agencyNameKey(input.name),
      city: input.city,
      contact_email: input.contact_email,
      active: true,
      created_at: now,
      updated_at: now,
      rev: 1,
    };
    const event = createEvent(Events.AgencyCreated, { agency: agencySnapshotOf(record) }, actor);
    if (!(await this.deps.partners.insertAgency(record, [event])))
      throw new AppError('AGENCY_TAKEN');
    return toAgency(record);
  }

  async update(actor: Actor, id: number, input: AgencyPatch): Promise<Agency> {
    const current = await this.requireAgency(id);
    const set: Partial<AgencyRecord> = {};
    if (input.name !== undefined && input.name !== current.name) {
      set.name = input.name;
      set.name_key = agencyNameKey(input.name);
    }
    if (input.city !== undefined && input.city !== current.city) set.city = input.city;
    if (input.contact_email !== undefined && input.contact_email !== current.contact_email)
      set.contact_email = input.contact_email;
    if (input.active !== undefined && input.active !== current.active) set.active = input.active;
    if (Object.keys(set).length === 0) return toAgency(current);
    set.updated_at = new Date();
    const keys = (['name', 'city', 'contact_email', 'active'] as const).filter((k) => k in set);
    const done = await this.deps.partners
      .updateAgency(current, set, (after) => [
        createEvent(
          Events.AgencyUpdated,
          { agency: agencySnapshotOf(after), changes: changesOf(current, set, keys) },
          actor,
        ),
      ])
      .catch((err: unknown) => {
        if ((err as { code?: number }).code === 11000) throw new AppError('AGENCY_TAKEN');
        throw err;
      });
    if (!done) throw new AppError('AGENCY_NOT_FOUND');
    if (set.active === false) await this.logOutReferrers(id);
    return toAgency(done.after);
  }

  /**
   * Ends every session of the agency's referrers and tells every service to refuse their tokens
   * (user.logged_out without a session: all tokens issued before now). Login is refused from the
   * moment the agency is inactive (AuthService's agencyOf), so a session opened meanwhile is refused at refresh.
   */
  private async logOutReferrers(agencyId: number): Promise<void> {
    for (const referrer of await this.deps.users.referrersOf(agencyId)) {
      await this.deps.sessions.revokeAllOfUser(referrer.id, 'agency_deactivated');
      const user = snapshot(toPublicUser(referrer));
      await this.deps.users.recordSessionEvent(referrer.id, [
        createEvent(Events.UserLoggedOut, { user, reason: 'agency_deactivated' }, null),
      ]);
    }
  }

  /** A referrer's agency (its name for the token; it may hold a session only while active). */
  async agencyOf(user: Pick<User, 'agency_id'>): Promise<{ name: string; active: boolean } | null> {
    if (user.agency_id === undefined) return null;
    const agency = await this.deps.partners.agency(user.agency_id);
    return agency ? { name: agency.name, active: agency.active } : null;
  }

  /** A referrer's agency must exist (POST /users with role referrer). */
  async requireActiveAgency(id: number): Promise<AgencyRecord> {
    const agency = await this.requireAgency(id);
    if (!agency.active) throw new AppError('AGENCY_INACTIVE');
    return agency;
  }

  async invite(actor: Actor, agencyId: number, input: InvitationCreate): Promise<InvitationAnswer> {
    const agency = await this.requireActiveAgency(agencyId);
    // lower-case hex: API paths are lower case everywhere (canonicalApiPath)
    const token = randomBytes(32).toString('hex');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.deps.invitationValidDays * DAY_MS);
    const inviteUrl = `${this.deps.publicBaseUrl}/admin/invitation/${token}`;
    await this.deps.partners.insertInvitation(
      {
        token_hash: invitationHash(token),
        agency_id: agency.id,
        email: input.email,
        language: input.language,
        invited_by_user_id: actor.id,
        created_at: now,
        expires_at: expiresAt,
      },
      [
        createEvent(
          Events.ReferrerInvited,
          {
            agency: { id: agency.id, name: agency.name },
            email: input.email,
            language: input.language,
            invite_url: inviteUrl,
            expires_at: expiresAt.toISOString(),
          },
          actor,
        ),
      ],
    );
    return { invite_url: inviteUrl, expires_at: expiresAt.toISOString() };
  }

  /**
   * Accepts an invitation: the invitee becomes a referrer of the agency. Unknown, expired, spent
   * (by this or another process: the use's key decides) or of an inactive agency: 404, nothing
   * else said.
   */
  async accept(token: string, input: InvitationAccept): Promise<User> {
    const hash = invitationHash(token);
    const invitation = await this.deps.partners.invitation(hash);
    if (!invitation || invitation.expires_at.getTime() <= Date.now())
      throw new AppError('INVITATION_NOT_FOUND');
    if (await this.deps.partners.used(hash)) throw new AppError('INVITATION_NOT_FOUND');
    const agency = await this.deps.partners.agency(invitation.agency_id);
    if (!agency?.active) throw new AppError('INVITATION_NOT_FOUND');
    if (this.deps.policy.isWeak(input.password, [input.name, invitation.email]))
      throw passwordTooWeak('password');
    const passwordHash = await this.deps.hasher.hash(input.password);
    if (!(await this.deps.partners.claim(hash, new Date())))
      throw new AppError('INVITATION_NOT_FOUND');
    try {
      const created = await this.deps.users.create(
        {
          name: input.name,
          email: invitation.email,
          role: 'referrer',
          agency_id: agency.id,
          language: invitation.language,
          password_hash: passwordHash,
        },
        (user) => [createEvent(Events.UserCreated, { user: snapshot(user) }, null)],
      );
      return toPublicUser(created);
    } catch (err) {
      // no account was made (its address is taken): the invitation is not spent
      await this.deps.partners.release(hash);
      throw err;
    }
  }

  private async requireAgency(id: number): Promise<AgencyRecord> {
    const agency = await this.deps.partners.agency(id);
    if (!agency) throw new AppError('AGENCY_NOT_FOUND');
    return agency;
  }
}
