import type { EntityOf, Store } from '@furniture/platform';
import type { DomainEvent } from '@furniture/contracts';
import { AgencyRecord, InvitationRecord, InvitationUseRecord } from '../domain/partner-records';

/** Partner agencies, referrer invitations and their uses (issue 44). */
export class PartnersRepository {
  private readonly agencies: EntityOf<typeof AgencyRecord>;
  private readonly invitations: EntityOf<typeof InvitationRecord>;
  private readonly uses: EntityOf<typeof InvitationUseRecord>;

  constructor(store: Store) {
    this.agencies = store.entity({
      name: 'agencies',
      record: AgencyRecord,
      key: 'id',
      idFromKey: true,
      // two admins creating the same agency at once, on any replica: one agency
      unique: ['name_key'],
      indexes: [{ id: 1 }],
      outbox: true,
    });
    this.invitations = store.entity({
      name: 'invitations',
      record: InvitationRecord,
      key: 'token_hash',
      idFromKey: true,
      indexes: [{ agency_id: 1 }],
      // an invitation nobody accepted is gone a day after its end
      expiry: { field: 'expires_at', afterMs: 24 * 3600 * 1000 },
      outbox: true,
    });
    this.uses = store.entity({
      name: 'invitation_uses',
      record: InvitationUseRecord,
      key: 'token_hash',
      idFromKey: true,
    });
  }

  listAgencies(): Promise<AgencyRecord[]> {
    return this.agencies.find({}, { sort: { name_key: 1 } });
  }

  agency(id: number): Promise<AgencyRecord | null> {
    return this.agencies.get(id);
  }

  nextAgencyId(): Promise<number> {
    return this.agencies.nextId();
  }

  /** false: another agency has this name (the unique key decided). */
  insertAgency(agency: AgencyRecord, events: DomainEvent[]): Promise<boolean> {
    return this.agencies.insertUnlessTaken(agency, { events });
  }

  updateAgency(
    current: AgencyRecord,
    set: Partial<AgencyRecord>,
    events: (after: AgencyRecord) => DomainEvent[],
  ) {
    return this.agencies.mutate(current.id, () => ({ set, events }));
  }

  insertInvitation(invitation: InvitationRecord, events: DomainEvent[]): Promise<void> {
    return this.invitations.insert(invitation, { events });
  }

  invitation(tokenHash: string): Promise<InvitationRecord | null> {
    return this.invitations.get(tokenHash);
  }

  /** Spends an invitation: true for exactly one caller, in whatever process (the key decides). */
  claim(tokenHash: string, now: Date): Promise<boolean> {
    return this.uses.insertUnlessTaken({ token_hash: tokenHash, used_at: now });
  }

  used(tokenHash: string): Promise<boolean> {
    return this.uses.exists({ token_hash: tokenHash });
  }

  /** Gives a claim back: the account could not be made (its e-mail is taken meanwhile). */
  async release(tokenHash: string): Promise<void> {
    await this.uses.remove({ token_hash: tokenHash });
  }
}
