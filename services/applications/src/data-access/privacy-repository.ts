import type { DomainEvent } from '@furniture/contracts';
import { forgetPhoneWrites, type Connection, type StoredList } from '@furniture/platform';
import type { ApplicationDoc, WishDoc } from './models';

/** A stored document as it is, for the lookup and the export (dates as ISO strings). */
export type StoredDoc = Record<string, unknown>;

/** Internal fields that are no data about the family (the outbox, mongo's id). */
const HIDDEN = new Set(['_id', '_outbox', '_outbox_pending', '_purge', 'block']);

function plain(doc: object): StoredDoc {
  const out: StoredDoc = {};
  for (const [key, value] of Object.entries(doc)) {
    if (HIDDEN.has(key)) continue;
    out[key] = value instanceof Date ? value.toISOString() : value;
  }
  return out;
}

/** Closed records whose retention period ended (the retention job's batch). */
export interface ExpiredRecord {
  id: number;
}

/**
 * What data protection reads and writes (issue 15): every record of a phone number, and the
 * erasure of a family's fields. Erasing keeps the record (status, dates, lot, the counts) and
 * replaces what identifies the family; the event that tells the other services travels with the
 * same update (outbox), so an erasure is never half-announced.
 */
export class PrivacyRepository {
  constructor(
    private readonly conn: Connection,
    private readonly stored: {
      applications: StoredList<ApplicationDoc>;
      wishes: StoredList<WishDoc>;
    },
  ) {}

  private storedOf(kind: 'application' | 'wish'): StoredList<ApplicationDoc | WishDoc> {
    return (kind === 'application' ? this.stored.applications : this.stored.wishes) as never;
  }

  /** The phone's turn of the submissions (ApplicationsRepository.inTurnOfPhone). */
  inTurnOfPhone<T>(e164: string, fn: () => Promise<T>): Promise<T> {
    return this.stored.applications.inTurnOf(`phone:${e164}`, fn);
  }

  /** Every application (its phone or WhatsApp number) and wish (WhatsApp) of a number, oldest first. */
  async ofPhone(e164: string): Promise<{ applications: StoredDoc[]; wishes: StoredDoc[] }> {
    // every record as stored, tombstones too (the lookup shows what is kept)
    const all = { withDeleted: true };
    const [byPhone, byWhatsapp, wishes] = await Promise.all([
      this.stored.applications.find({ applicant_phone: e164 }, all),
      this.stored.applications.find({ applicant_whatsapp: e164 }, all),
      this.stored.wishes.find({ applicant_whatsapp: e164 }, all),
    ]);
    const apps = new Map<number, StoredDoc>();
    for (const doc of [...byPhone, ...byWhatsapp]) apps.set(doc.id as number, plain(doc));
    const byId = (a: StoredDoc, b: StoredDoc) => (a.id as number) - (b.id as number);
    return {
      applications: [...apps.values()].sort(byId),
      wishes: wishes.map(plain).sort(byId),
    };
  }

  /**
   * Replaces the family's fields of one application. The phone key becomes `erased:<id>` (the
   * unique index on lot and phone needs a value). False when it was erased already.
   */
  async eraseApplication(id: number, now: Date, events: DomainEvent[]): Promise<boolean> {
    const set: Partial<ApplicationDoc> = {
      applicant_name: '',
      applicant_phone: `erased:${id}`,
      applicant_phone_raw: '',
      applicant_whatsapp: null,
      applicant_email: null,
      applicant_city: '',
      applicant_address: '',
      notes: [],
      request_key: null,
      // a closed application's approval is history; its note was free text
      approval: null,
      // the booking link dies with the family's data (issue 29)
      handover_seed: null,
      handover_token_hash: null,
      // its phone's open place goes with the phone (issue 42: its key is the phone's digest)
      phone_slot: `a:${id}`,
      erased_at: now,
    };
    // a referral's note and household (issue 44) are the family's too; who referred it stays
    // (the agency's counts). First, so that a crash in between leaves the erasure to be done
    // again, never a family's erasure done with its note kept.
    await this.stored.applications.update(
      { id, erased_at: null, referral: { $ne: null } } as never,
      { $set: { 'referral.note': null, 'referral.household_size': 0 } },
    );
    return this.erase(this.stored.applications, id, set, events);
  }

  /** Replaces the wisher's fields of one wish, free texts included. False when erased already. */
  async eraseWish(id: number, now: Date, events: DomainEvent[]): Promise<boolean> {
    const set: Partial<WishDoc> = {
      applicant_name: '',
      applicant_whatsapp: '',
      applicant_whatsapp_raw: '',
      applicant_email: null,
      admin_notes: null,
      furniture_description: '',
      erased_at: now,
    };
    // a referred wish's note and household (issue 44), first as for an application
    await this.stored.wishes.update({ id, erased_at: null, referral: { $ne: null } } as never, {
      $set: { 'referral.note': null, 'referral.household_size': 0 },
    });
    return this.erase(this.stored.wishes, id, set, events);
  }

  /** One record's erasure with its event, unless it was erased already. */
  private async erase<D extends object>(
    list: StoredList<D>,
    id: number,
    set: Partial<D>,
    events: DomainEvent[],
  ): Promise<boolean> {
    const done = await list.update({ id, erased_at: null } as never, { $set: set }, events);
    return done;
  }

  /**
   * Of these records (an erasure ledger's), the ids that exist with that creation time and are
   * not erased: what a restored backup brought back.
   */
  async notErased(
    kind: 'application' | 'wish',
    records: { id: number; created_at: string }[],
  ): Promise<number[]> {
    if (records.length === 0) return [];
    const created = new Map(records.map((r) => [r.id, new Date(r.created_at).getTime()]));
    const docs = await this.storedOf(kind).find(
      { id: { $in: [...created.keys()] }, erased_at: null },
      { projection: { id: 1, created_at: 1 }, withDeleted: true },
    );
    return docs
      .filter((d) => created.get(d.id) === new Date(d.created_at).getTime())
      .map((d) => d.id);
  }

  /**
   * Closed applications (rejected, completed) or wishes (fulfilled, cancelled) not changed since
   * `before` and not erased yet.
   */
  async expired(
    kind: 'application' | 'wish',
    before: Date,
    limit: number,
  ): Promise<ExpiredRecord[]> {
    const closed = kind === 'application' ? ['rejected', 'completed'] : ['fulfilled', 'cancelled'];
    const docs = await this.storedOf(kind).find(
      { status: { $in: closed }, updated_at: { $lt: before }, erased_at: null },
      { projection: { id: 1 }, sort: { updated_at: 1 }, limit, withDeleted: true },
    );
    return docs.map((d) => ({ id: d.id }));
  }

  /**
   * Forgets the number's public-write counter (a digest of the number, kept one window): after an
   * erasure nothing in the database can be linked to the number, not even for ten minutes.
   */
  async forgetWriteCounter(e164: string): Promise<void> {
    await forgetPhoneWrites(this.conn, e164);
  }
}
