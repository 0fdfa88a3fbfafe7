import type { DomainEvent, DonationStatus } from '@furniture/contracts';
import {
  docKey,
  escapeRegex,
  forgetPhoneWrites,
  type Connection,
  type ErasedRecord,
  type Mutated,
  type Store,
  type StoredList,
} from '@furniture/platform';
import type { QueryFilter } from 'mongoose';
import type { DonationChange, DonationData } from '../domain/donation-records';
import type { DonationDoc } from './models';

/** What the staff's donation list may be narrowed by (built by the domain). */
export interface DonationFilter {
  status?: DonationStatus;
  /** the donor's name or city (case-insensitive), a part of the phone number, or the number */
  search?: string;
}

/** A stored document as it is, for the privacy lookup (dates as ISO strings). */
export type StoredDonation = Record<string, unknown>;

/** Internal fields that are no data about the donor (the outbox, mongo's id, the list's bucket). */
const HIDDEN = new Set(['_id', '_outbox', '_outbox_pending', '_purge', 'block', 'part']);

function toData(doc: DonationData): DonationData {
  return {
    id: doc.id,
    status: doc.status,
    donor_name: doc.donor_name ?? '',
    donor_phone: doc.donor_phone,
    donor_phone_raw: doc.donor_phone_raw ?? '',
    donor_email: doc.donor_email ?? null,
    donor_name_public: doc.donor_name_public ?? false,
    language: doc.language,
    city: doc.city ?? '',
    address: doc.address ?? '',
    floor: doc.floor ?? null,
    has_elevator: doc.has_elevator ?? null,
    available_until: doc.available_until,
    items: (doc.items ?? []).map((i) => ({
      id: i.id,
      category_id: i.category_id,
      description: i.description ?? '',
      dimensions: i.dimensions ?? null,
      condition: i.condition ?? null,
      can_disassemble: i.can_disassemble ?? null,
      photos: (i.photos ?? []).map((p) => ({
        id: p.id,
        urls: { thumbnail: p.urls.thumbnail, medium: p.urls.medium, large: p.urls.large },
        width: p.width,
        height: p.height,
        bytes: p.bytes,
      })),
      lot_id: i.lot_id ?? null,
    })),
    history: (doc.history ?? []).map((h) => ({
      at: h.at,
      from: h.from ?? null,
      to: h.to,
      cause: h.cause,
      by: h.by ?? null,
      note: h.note ?? null,
      reason: h.reason ?? null,
    })),
    photo_claims: (doc.photo_claims ?? []).map((c) => ({
      id: c.id,
      item_id: c.item_id,
      claimed_at: c.claimed_at,
    })),
    upload_token_hash: doc.upload_token_hash ?? null,
    upload_token_expires_at: doc.upload_token_expires_at ?? null,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    status_changed_at: doc.status_changed_at ?? doc.created_at,
    erased_at: doc.erased_at ?? null,
    rev: doc.rev ?? 0,
  };
}

function plain(doc: object): StoredDonation {
  const out: StoredDonation = {};
  for (const [key, value] of Object.entries(doc)) {
    if (HIDDEN.has(key)) continue;
    out[key] = JSON.parse(JSON.stringify(value)) as unknown;
  }
  return out;
}

/**
 * Donations with their items, one document each: what donors offered, newest first, counted by
 * status (the store). Every change is a compare-and-set on the document's revision.
 */
export class DonationsRepository {
  readonly stored: StoredList<DonationDoc>;

  constructor(
    store: Store,
    private readonly conn: Connection,
    /** after every write: publish the events */
  ) {
    this.stored = store.list<DonationDoc>({
      name: 'donations',
      key: '_id',
      counts: 'donation_counts',
      countedBy: ['status'],
    });
  }

  /** The search as a query: name or city, a part of the number, or the donation's number. */
  private searchOf(search: string): QueryFilter<DonationDoc> {
    const re = new RegExp(escapeRegex(search), 'i');
    const or: QueryFilter<DonationDoc>[] = [{ donor_name: re }, { city: re }];
    // "0176 555" finds +49176555…: the digits without the national 0
    const digits = search.replace(/\D/g, '').replace(/^0+/, '');
    if (digits.length >= 4) or.push({ donor_phone: new RegExp(escapeRegex(digits)) });
    const asId = /^#?(\d{1,12})$/.exec(search.trim());
    if (asId) or.push({ id: Number(asId[1]) });
    return { $or: or };
  }

  nextId(): Promise<number> {
    return this.stored.nextId();
  }

  async insert(donation: DonationData, events: DomainEvent[]): Promise<void> {
    await this.stored.insert({ _id: docKey(donation.id), ...donation }, events);
  }

  /** By primary key alone (FerretDB answers only that from its index). */
  async findById(id: number): Promise<DonationData | null> {
    const doc = await this.stored.get(id);
    return doc ? toData(doc) : null;
  }

  /**
   * A page of the filter's donations, newest first, how many there are, and how many of the
   * search's donations each status has (the list's tabs).
   */
  async page(
    filter: DonationFilter,
    page: { skip: number; limit: number },
  ): Promise<{ donations: DonationData[]; total: number; counts: Map<string, number> }> {
    const search = filter.search ? this.searchOf(filter.search) : {};
    const where = { ...search, ...(filter.status ? { status: filter.status } : {}) };
    const [{ docs, total }, { by }] = await Promise.all([
      this.stored.pageWithTotal(where, page),
      this.stored.tallies(['status'], search),
    ]);
    return { donations: docs.map(toData), total, counts: by.get('status')! };
  }

  /** The donations of a phone number (E.164), newest first. */
  async ofPhone(e164: string): Promise<DonationData[]> {
    const docs = await this.stored.find({ donor_phone: e164 }, { sort: { id: -1 } });
    return docs.map(toData);
  }

  /** The same as stored, every field the service keeps (the privacy lookup), oldest first. */
  async storedOfPhone(e164: string): Promise<StoredDonation[]> {
    const docs = await this.stored.find({ donor_phone: e164 }, { sort: { id: 1 } });
    return docs.map(plain);
  }

  /** Open donations whose available-until day lies before `day` (the expiry job's batch). */
  async pastAvailability(day: string, limit: number): Promise<DonationData[]> {
    const docs = await this.stored.find(
      { status: { $in: ['submitted', 'accepted'] }, available_until: { $lt: day } },
      { sort: { available_until: 1 }, limit },
    );
    return docs.map(toData);
  }

  /** Closed donations not changed since `before` and not erased yet (the retention job's batch). */
  async closedBefore(
    statuses: readonly DonationStatus[],
    before: Date,
    limit: number,
  ): Promise<ErasedRecord[]> {
    const docs = await this.stored.find(
      { status: { $in: [...statuses] }, updated_at: { $lt: before }, erased_at: null },
      { projection: { id: 1, created_at: 1 }, sort: { updated_at: 1 }, limit },
    );
    return docs.map((d) => ({
      id: d.id as number,
      created_at: (d.created_at as Date).toISOString(),
    }));
  }

  /**
   * Of these donations (an erasure ledger's), the ids that exist with that creation time and are
   * not erased: an id the restored counter hands out again to a new donor has another time.
   */
  async notErased(records: ErasedRecord[]): Promise<number[]> {
    if (records.length === 0) return [];
    const created = new Map(records.map((r) => [r.id, new Date(r.created_at).getTime()]));
    const docs = await this.stored.find(
      { id: { $in: [...created.keys()] }, erased_at: null },
      { projection: { id: 1, created_at: 1 } },
    );
    return docs
      .filter((d) => created.get(d.id) === new Date(d.created_at).getTime())
      .map((d) => d.id);
  }

  /**
   * Forgets the number's public-write counter (a digest, kept one window): after an erasure
   * nothing in the database can be linked to the number, not even for ten minutes.
   */
  forgetPhone(e164: string): Promise<void> {
    return forgetPhoneWrites(this.conn, e164);
  }

  /**
   * Reads the donation, lets `decide` choose a change (or none) and writes it with its events in
   * one compare-and-set on `rev` (the store's mutate). null: there is no such donation. Whatever
   * `decide` throws ends the call unchanged.
   */
  async mutate(
    id: number,
    decide: (current: DonationData) => DonationChange | null | Promise<DonationChange | null>,
  ): Promise<Mutated<DonationData> | null> {
    const result = await this.stored.mutate(docKey(id), () => this.findById(id), decide);
    return result;
  }
}
