import {
  ApplicationStatuses,
  type Actor,
  type ApplicationStatus,
  type ApprovalFailureReason,
  type DomainEvent,
  type LotStatus,
} from '@furniture/contracts';
import {
  insertedUnlessTaken,
  NOT_DELETED,
  type KeptSummaries,
  type Store,
  type StoredList,
} from '@furniture/platform';
import type { QueryFilter } from 'mongoose';
import {
  HOLDS_LOT,
  holdsLot,
  isOpen,
  OPEN_STATUSES,
  type ApplicationRecord,
  type LotQueue,
  type NewApplication,
  type TransitionExtras,
} from '../domain/records';
import { holdsOpenPlace, noPhoneSlot, phoneSlot } from './applications-keys';
import type { ApplicationDoc, ApprovalDoc } from './models';

export type { ApplicationRecord } from '../domain/records';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

function toRecord(doc: ApplicationDoc): ApplicationRecord {
  const approval = doc.approval;
  return {
    id: doc.id,
    lot_id: doc.lot_id,
    status: doc.status,
    applicant_name: doc.applicant_name,
    applicant_phone: doc.applicant_phone,
    applicant_phone_raw: doc.applicant_phone_raw,
    applicant_whatsapp: doc.applicant_whatsapp ?? null,
    applicant_email: doc.applicant_email ?? null,
    applicant_city: doc.applicant_city,
    applicant_address: doc.applicant_address,
    needs_delivery_help: doc.needs_delivery_help,
    language: doc.language,
    lot_name: { de: doc.lot_name?.de ?? '', uk: doc.lot_name?.uk ?? '' },
    notes: doc.notes ?? [],
    approval: approval
      ? {
          state: approval.state,
          requested_at: approval.requested_at.toISOString(),
          requested_by: approval.requested_by ?? null,
          pickup_by: approval.pickup_by ?? null,
          note: approval.note ?? null,
          reason: approval.reason ?? null,
          lot_status: approval.lot_status ?? null,
          ended_at: iso(approval.ended_at),
        }
      : null,
    rejected_for: doc.rejected_for ?? null,
    request_key: doc.request_key ?? null,
    pickup_by: doc.pickup_by ?? null,
    pickup_reminded_at: iso(doc.pickup_reminded_at),
    pickup_overdue_at: iso(doc.pickup_overdue_at),
    next_in_queue_after: doc.next_in_queue_after ?? null,
    handover_seed: doc.handover_seed ?? null,
    approved_at: iso(doc.approved_at),
    note_open: doc.note_open ?? null,
    referral: doc.referral
      ? {
          ...doc.referral,
          expires_at: new Date(doc.referral.expires_at).toISOString(),
          expired_at: doc.referral.expired_at
            ? new Date(doc.referral.expired_at).toISOString()
            : null,
        }
      : null,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

const HOLDER = HOLDS_LOT as QueryFilter<ApplicationDoc>;

/** A pickup date with its reminder and overdue notice still to come. */
const freshPickup = (pickupBy: string | null) => ({
  pickup_by: pickupBy,
  pickup_reminded_at: null,
  pickup_overdue_at: null,
});

/** What a page's application must agree with in its lot's summary (queuesOf). */
type QueueMember = Pick<ApplicationRecord, 'id' | 'lot_id' | 'status' | 'approval'>;

/** What a lot's summary is made of, of each of its applications. */
export interface LotMember {
  id: number;
  /** the queue's order (applications-keys.ts); absent only before the start's backfill */
  queue_ticket?: number;
  status: ApplicationStatus;
  applicant_name: string;
  approval?: { state?: string } | null;
  deleted_at?: Date | null;
}

/** What a lot's summary is made of (the store recomputes it when one of them changes). */
export const LOT_QUEUE_FIELDS = [
  'id',
  'queue_ticket',
  'status',
  'applicant_name',
  'approval.state',
  'deleted_at',
];

/** A lot's applications as the staff lists present them: its queue and who holds it. */
export function summarize(members: LotMember[]): LotQueue {
  const live = members.filter((m) => !m.deleted_at);
  const open = live
    .filter(isOpen)
    .sort((a, b) => (a.queue_ticket ?? a.id) - (b.queue_ticket ?? b.id) || a.id - b.id);
  const holder = open.find(holdsLot);
  return {
    open: open.map((m) => m.id),
    holder: holder ? { id: holder.id, applicant_name: holder.applicant_name } : null,
  };
}

export class ApplicationsRepository {
  /** the staff list is counted by status and read block by block (the store) */
  readonly stored: StoredList<ApplicationDoc>;
  /** per lot: the open applications in queue order and the holder, derived from them */
  private readonly queues: KeptSummaries<LotMember, LotQueue>;

  constructor(store: Store) {
    this.stored = store.list<ApplicationDoc>({
      name: 'applications',
      counts: 'application_counts',
      countedBy: ['status'],
      tallied: { status: 'status' },
      tombstones: true,
    });
    this.queues = this.stored.summarize({
      name: 'lot_queues',
      groupBy: 'lot_id',
      fields: LOT_QUEUE_FIELDS,
      summarize,
    });
  }

  /** An id for an answer that must look like a stored application (the honeypot). */
  drawId(): Promise<number> {
    return this.stored.nextId();
  }

  /**
   * Runs `fn` while no other submission or erasure of this phone number runs in this process, so
   * that the duplicate and limit checks see each other's results (the unique index on lot and
   * phone still decides between processes).
   */
  inTurnOfPhone<T>(phone: string, fn: () => Promise<T>): Promise<T> {
    return this.stored.inTurnOf(`phone:${phone}`, fn);
  }

  /** Runs `fn` while no other submission for this lot runs in this process (exact queue places). */
  inTurnOfLot<T>(lotId: number, fn: () => Promise<T>): Promise<T> {
    return this.stored.inTurnOf(`lot:${lotId}`, fn);
  }

  /**
   * Stores a new application with its events, as one decision across processes (issue 42,
   * applications-keys.ts): the insert claims the application's ticket in the lot's queue and one
   * of its phone's `maxOpenPerPhone` open places, or loses to the unique indexes and is decided
   * again. Answers the record and the place in the queue told to the family, `already_applied`
   * when the phone holds an application for the lot, or the phone's open applications when it
   * holds all its places.
   */
  async insert(
    data: NewApplication,
    maxOpenPerPhone: number,
    events: (app: ApplicationRecord, position: number) => DomainEvent[],
  ): Promise<
    | { record: ApplicationRecord; position: number }
    | { refused: 'already_applied' }
    | { refused: 'too_many_open_applications'; open: number }
  > {
    const { referral, ...fields } = data;
    // tombstones too: their tickets and places are taken until they are gone
    const all = { withDeleted: true };
    const phone = data.applicant_phone;
    const id = await this.drawId();
    const slots = Array.from({ length: maxOpenPerPhone }, (_, k) => phoneSlot(phone, k + 1));
    for (let attempt = 1; ; attempt++) {
      const [top, held] = await Promise.all([
        this.stored.findOne(
          { lot_id: data.lot_id },
          { ...all, projection: { _id: 0, queue_ticket: 1 }, sort: { queue_ticket: -1 } },
        ),
        // the places' holders, whatever their phone is now (an erased one's is gone); one
        // equality per place: FerretDB pushes `phone_slot` down to its index, but not `$in`
        Promise.all(
          slots.map((key) =>
            this.stored.findOne(
              { phone_slot: key },
              { ...all, projection: { _id: 0, id: 1, status: 1, deleted_at: 1, phone_slot: 1 } },
            ),
          ),
        ).then((found) => found.filter((h) => h !== null)),
      ]);
      const holders = new Map(held.map((h) => [h.phone_slot, h]));
      let slot: string | null = null;
      for (const key of slots) {
        if (slot !== null) break;
        const holder = holders.get(key);
        if (!holder) slot = key;
        else if (!holdsOpenPlace(holder)) {
          // closed since it took the place: the place is given back (by whoever comes first)
          await this.stored.update(
            { id: holder.id, phone_slot: key },
            { $set: { phone_slot: noPhoneSlot(holder.id) } },
          );
          slot = key;
        }
      }
      if (slot === null)
        return {
          refused: 'too_many_open_applications',
          open: held.filter(holdsOpenPlace).length,
        };
      const ticket = (top?.queue_ticket ?? 0) + 1;
      // every ticket below this one is stored (see applications-keys.ts): 1 + the open ones
      const position =
        1 +
        (await this.stored.countStored({
          lot_id: data.lot_id,
          status: { $in: [...OPEN_STATUSES] },
        }));
      const now = new Date();
      const doc: ApplicationDoc = {
        ...fields,
        referral: referral
          ? { ...referral, expires_at: new Date(referral.expires_at), expired_at: null }
          : null,
        id,
        approval: null,
        rejected_for: null,
        ...freshPickup(null),
        next_in_queue_after: null,
        handover_seed: null,
        handover_token_hash: null,
        approved_at: null,
        note_open: null,
        queue_ticket: ticket,
        phone_slot: slot,
        created_at: now,
        updated_at: now,
      };
      const record = toRecord(doc);
      if (
        await insertedUnlessTaken(() => this.stored.insert({ ...doc }, events(record, position)))
      ) {
        return { record, position };
      }
      if (await this.findByLotAndPhone(data.lot_id, phone)) return { refused: 'already_applied' };
      // another submission took the ticket or the place first: decided again on what is stored
      if (attempt >= 50)
        throw new Error(`application for lot ${data.lot_id}: no ticket after ${attempt} tries`);
    }
  }

  findById(id: number): Promise<ApplicationRecord | null> {
    return this.one({ id });
  }

  /** The application a referral made (issue 44). */
  findByReferral(referralId: number): Promise<ApplicationRecord | null> {
    return this.one({ 'referral.id': referralId } as QueryFilter<ApplicationDoc>);
  }

  /**
   * Referrals still pending at their end (issue 44), oldest first; an application whose approval
   * is under way is left to it.
   */
  referralsExpiredBy(now: Date, limit = 200): Promise<ApplicationRecord[]> {
    const filter = {
      status: 'pending',
      'referral.expires_at': { $lte: now },
      'approval.state': { $ne: 'requested' },
    };
    return this.all(filter as QueryFilter<ApplicationDoc>, { id: 1 }, limit);
  }

  /** Marks an expired referral as such (after its rejection, for the referrer's view). */
  async markReferralExpired(id: number, at: Date): Promise<void> {
    await this.write(id, { status: 'rejected' }, { $set: { 'referral.expired_at': at } }, []);
  }

  /** The referred families: of one agency, or of every agency; newest first (issue 44). */
  async referred(agencyId: number | undefined, limit = 500): Promise<ApplicationRecord[]> {
    const where =
      agencyId === undefined ? { referral: { $ne: null } } : { 'referral.agency_id': agencyId };
    return this.all(where as QueryFilter<ApplicationDoc>, { id: -1 }, limit);
  }

  /** The application of a booking link's token (issue 29), whatever its status. */
  findByHandoverTokenHash(hash: string): Promise<ApplicationRecord | null> {
    return this.one({
      handover_token_hash: hash,
      erased_at: null,
    } as QueryFilter<ApplicationDoc>);
  }

  /**
   * Booking links stored in clear before issue 43: each becomes its digest (the family's link
   * keeps working; it has no seed, so it cannot be shown or sent again). Once, at start.
   */
  async hashClearHandoverTokens(digest: (token: string) => string): Promise<number> {
    let n = 0;
    const clear = await this.stored.find(
      { handover_token: { $type: 'string' } },
      { projection: { id: 1, handover_token: 1 }, withDeleted: true },
    );
    for (const doc of clear) {
      const token = (doc as { handover_token?: string }).handover_token!;
      await this.stored.update({ id: doc.id, handover_token: token } as never, {
        $set: { handover_token_hash: digest(token) },
        $unset: { handover_token: '' },
      });
      n += 1;
    }
    return n;
  }

  /** Several applications by id (the day plan), in no particular order. */
  async findMany(ids: number[]): Promise<ApplicationRecord[]> {
    // one equality per id: FerretDB pushes `id` down to an index, but not `$in`
    const found = await Promise.all([...new Set(ids)].map((id) => this.findById(id)));
    return found.filter((a): a is ApplicationRecord => a !== null);
  }

  findByLotAndPhone(lotId: number, phone: string): Promise<ApplicationRecord | null> {
    return this.one({ lot_id: lotId, applicant_phone: phone });
  }

  /** What one phone holds: lot and status of each of its applications (one query for both checks). */
  async ofPhone(phone: string): Promise<Pick<ApplicationRecord, 'id' | 'lot_id' | 'status'>[]> {
    return this.stored.find(
      { applicant_phone: phone },
      { projection: { _id: 0, id: 1, lot_id: 1, status: 1 } },
    );
  }

  /** The lot's open applications: from its summary (a primary-key read) while complete. */
  async countOpenOfLot(lotId: number): Promise<number> {
    const kept = await this.queues.get([lotId]);
    return (kept ? kept.get(lotId) : await this.queues.fresh(lotId))?.open.length ?? 0;
  }

  /** 1-based place among the lot's open applications, in queue order; null if closed. */
  async placeOf(app: QueueMember): Promise<number | null> {
    const index = (await this.queuesOf([app])).get(app.lot_id)?.open.indexOf(app.id) ?? -1;
    return index >= 0 ? index + 1 : null;
  }

  /**
   * For the lots of a page of applications: the open applications' ids, oldest first (queue
   * positions), and the one that holds the lot (approved or with its approval under way, also
   * when it is on another page). From the lots' summaries (one primary-key read per lot); a lot
   * is read from its applications instead while the summaries are incomplete (after a bulk load,
   * until the rebuild), and when its summary disagrees with an application of the page: the
   * summary follows a write by a few milliseconds, and a page never contradicts itself.
   */
  async queuesOf(page: QueueMember[]): Promise<Map<number, LotQueue>> {
    const lotIds = [...new Set(page.map((a) => a.lot_id))];
    const kept = (await this.queues.get(lotIds)) ?? new Map<number, LotQueue>();
    const agrees = (a: QueueMember) => {
      const queue = kept.get(a.lot_id);
      return (
        isOpen(a) === (queue?.open.includes(a.id) ?? false) &&
        holdsLot(a) === (queue?.holder?.id === a.id)
      );
    };
    const stale = new Set(page.filter((a) => !agrees(a)).map((a) => a.lot_id));
    await Promise.all(
      [...stale].map(async (lotId) => kept.set(lotId, await this.queues.fresh(lotId))),
    );
    return kept;
  }

  /** Applications of a lot in some statuses, in queue order (oldest first). */
  ofLot(lotId: number, statuses: readonly ApplicationStatus[]): Promise<ApplicationRecord[]> {
    return this.all({ lot_id: lotId, status: { $in: [...statuses] } }, { queue_ticket: 1, id: 1 });
  }

  /** Newest first; by status alone from the counts and the blocks a page lies in. */
  async list(q: {
    status?: ApplicationStatus;
    lot_id?: number;
    phone?: string;
    /** issue 44: the families one partner agency referred */
    agency_id?: number;
    limit: number;
    skip: number;
  }): Promise<{ applications: ApplicationRecord[]; total: number }> {
    const where: Record<string, unknown> = {};
    if (q.status) where.status = q.status;
    if (q.agency_id !== undefined) where['referral.agency_id'] = q.agency_id;
    if (q.lot_id !== undefined) where.lot_id = q.lot_id;
    if (q.phone) where.applicant_phone = q.phone;
    const { docs, total } = await this.stored.pageWithTotal(where, q);
    return { applications: docs.map(toRecord), total };
  }

  async countsByStatus(): Promise<Record<ApplicationStatus, number>> {
    const counts = (await this.stored.tallies(['status'])).by.get('status')!;
    const count = (status: ApplicationStatus) => [status, counts.get(status) ?? 0];
    return Object.fromEntries(ApplicationStatuses.map(count)) as Record<ApplicationStatus, number>;
  }

  /** Per lot and status: how many applications (lots without any are absent). */
  async countsByLot(
    lotIds: number[],
  ): Promise<Map<number, Partial<Record<ApplicationStatus, number>>>> {
    const out = new Map<number, Partial<Record<ApplicationStatus, number>>>();
    // one equality per lot: FerretDB pushes `lot_id` down to an index, but not `$in`
    await Promise.all(
      lotIds.map(async (lotId) => {
        const { total, by } = await this.stored.tallies(['status'], { lot_id: lotId });
        if (total > 0) out.set(lotId, Object.fromEntries(by.get('status')!));
      }),
    );
    return out;
  }

  /** Has the phone another completed application (a family served before)? */
  async hasCompleted(phone: string, exceptId: number): Promise<boolean> {
    const filter = { applicant_phone: phone, status: 'completed', id: { $ne: exceptId } } as const;
    return (await this.one(filter)) !== null;
  }

  /** Does another application of the lot hold or await its reservation? */
  async reservationHolder(lotId: number, exceptId: number): Promise<number | null> {
    return (await this.one({ lot_id: lotId, id: { $ne: exceptId }, ...HOLDER }))?.id ?? null;
  }

  /** Approved applications whose pickup date is on or before `day`, oldest date first. */
  approvedDueBy(day: string, limit = 500): Promise<ApplicationRecord[]> {
    const filter = { status: 'approved', pickup_by: { $ne: null, $lte: day } } as const;
    return this.all(filter, { pickup_by: 1, id: 1 }, limit);
  }

  /**
   * Applications of a lot rejected because it was reserved for `holderId`, oldest first; not
   * those whose family's data was erased meanwhile (a nameless family cannot be served).
   */
  rejectedFor(lotId: number, holderId: number): Promise<ApplicationRecord[]> {
    const filter = { lot_id: lotId, status: 'rejected', rejected_for: holderId, erased_at: null };
    return this.all(filter as QueryFilter<ApplicationDoc>, { id: 1 });
  }

  private async one(filter: QueryFilter<ApplicationDoc>): Promise<ApplicationRecord | null> {
    const doc = await this.stored.findOne(filter);
    return doc ? toRecord(doc) : null;
  }

  /** The live applications a filter matches, in the given order. */
  private async all(
    filter: QueryFilter<ApplicationDoc>,
    sort: Record<string, 1 | -1>,
    limit = 0,
  ): Promise<ApplicationRecord[]> {
    const docs = await this.stored.find(filter, { sort, limit });
    return docs.map(toRecord);
  }

  // ---- writes: each guarded by what it was decided on, with its events (the outbox) ----

  /**
   * Moves an application from `from` to `to` with a note line and its events. Any approval
   * request or failure ends with the change. null when the application was no longer in `from`
   * (someone else changed it first) or no longer awaited its approval when that was required.
   */
  transition(
    id: number,
    from: ApplicationStatus,
    to: ApplicationStatus,
    noteLine: string,
    events: DomainEvent[],
    extras: TransitionExtras = {},
  ): Promise<ApplicationRecord | null> {
    const guard = {
      status: from,
      ...(extras.requireApprovalRequested ? { 'approval.state': 'requested' } : {}),
    };
    const set = {
      status: to,
      approval: null,
      rejected_for: to === 'rejected' ? (extras.rejectedFor ?? null) : null,
      next_in_queue_after: null,
      note_open: extras.noteOpen ?? null,
      // an approval carries its pickup date; leaving it keeps the date for the record
      ...(to === 'approved'
        ? {
            ...freshPickup(extras.pickupBy ?? null),
            handover_seed: extras.handover?.seed ?? null,
            handover_token_hash: extras.handover?.tokenHash ?? null,
            approved_at: new Date(),
          }
        : {}),
    };
    return this.updated(id, guard, set, events, noteLine);
  }

  /**
   * Records a staff approval request on a pending application that has none under way; null when
   * the application is no longer pending or already awaits an approval.
   */
  requestApproval(
    id: number,
    approval: { requested_by: Actor | null; note: string | null; pickup_by: string },
    events: DomainEvent[],
  ): Promise<ApplicationRecord | null> {
    const doc: ApprovalDoc = {
      ...approval,
      state: 'requested',
      requested_at: new Date(),
      reason: null,
      lot_status: null,
      ended_at: null,
    };
    const guard = { status: 'pending', 'approval.state': { $ne: 'requested' } };
    return this.updated(id, guard, { approval: doc }, events);
  }

  /**
   * Ends a requested approval that the catalog could not confirm: the application stays pending
   * and shows why. null when no approval of it was under way any more.
   */
  failApproval(
    id: number,
    failure: { reason: ApprovalFailureReason; lot_status: LotStatus | null },
    noteLine: string,
    events: DomainEvent[],
  ): Promise<ApplicationRecord | null> {
    const set = {
      'approval.state': 'failed',
      'approval.reason': failure.reason,
      'approval.lot_status': failure.lot_status,
      'approval.ended_at': new Date(),
    };
    const guard = { status: 'pending', 'approval.state': 'requested' };
    return this.updated(id, guard, set, events, noteLine);
  }

  /** A new pickup date for an approved application (reminder and overdue notice start over). */
  setPickup(
    id: number,
    pickupBy: string,
    noteLine: string,
    events: DomainEvent[],
  ): Promise<ApplicationRecord | null> {
    return this.updated(id, { status: 'approved' }, freshPickup(pickupBy), events, noteLine);
  }

  /** Appends one note line with its event; null when the application does not exist. */
  addNote(id: number, noteLine: string, events: DomainEvent[]): Promise<ApplicationRecord | null> {
    return this.updated(id, {}, {}, events, noteLine);
  }

  /**
   * Puts `line` in the place of the open status change's line (NoteOpen), with its events: only
   * while nothing changed the application since `seen` (its updated_at) and that line is still
   * the last. false when something came between (the note is then added as a line of its own).
   */
  async attachNote(app: ApplicationRecord, line: string, events: DomainEvent[]): Promise<boolean> {
    const open = app.note_open;
    if (!open || app.notes[app.notes.length - 1] !== open.line) return false;
    const notes = [...app.notes.slice(0, -1), line];
    const guard = {
      updated_at: new Date(app.updated_at),
      status: app.status,
      'note_open.line': open.line,
    };
    const update = { $set: { notes, note_open: null, updated_at: new Date() } };
    return this.write(app.id, guard, update, events);
  }

  /** Adds events to an application without changing it (they go out through its outbox). */
  addEvents(id: number, events: DomainEvent[]): Promise<boolean> {
    return this.write(id, {}, {}, events);
  }

  /** Marks a pending application as next in the queue after a lapse, with its event. */
  markNextInQueue(id: number, afterId: number, events: DomainEvent[]): Promise<boolean> {
    const set = { next_in_queue_after: afterId, updated_at: new Date() };
    // once per lapse: a second copy of the lapse's event (another pod, a redelivery) changes nothing
    const guard = { status: 'pending', next_in_queue_after: { $ne: afterId } };
    return this.write(id, guard, { $set: set }, events);
  }

  /**
   * Marks a pickup reminder or overdue notice as given, once (the field still empty and the
   * application still approved for the same date), with its event.
   */
  markPickup(
    id: number,
    field: 'pickup_reminded_at' | 'pickup_overdue_at',
    pickupBy: string | null,
    events: DomainEvent[],
  ): Promise<boolean> {
    const guard = { status: 'approved', pickup_by: pickupBy, [field]: null };
    return this.write(id, guard, { $set: { [field]: new Date() } }, events);
  }

  /**
   * One guarded update (`updated_at` set, the note line appended): the new state, or null when
   * the guard no longer holds.
   */
  private async updated(
    id: number,
    guard: Record<string, unknown>,
    set: Record<string, unknown>,
    events: DomainEvent[],
    noteLine?: string,
  ): Promise<ApplicationRecord | null> {
    const update = {
      // any other change comes between a status change and its note (a transition sets its own)
      $set: { note_open: null, ...set, updated_at: new Date() },
      ...(noteLine === undefined ? {} : { $push: { notes: noteLine } }),
    };
    return (await this.write(id, guard, update, events)) ? this.findById(id) : null;
  }

  /**
   * One write of a live application under its lock, while `guard` still holds, with its events;
   * the relay is asked to publish them at once. Answers whether the application matched.
   */
  private async write(
    id: number,
    guard: Record<string, unknown>,
    update: Record<string, unknown>,
    events: DomainEvent[],
  ): Promise<boolean> {
    const done = await this.stored.update({ ...NOT_DELETED, id, ...guard }, update, events);
    return done;
  }
}
