import {
  ApplicationStatuses,
  type Actor,
  type ApplicationStatus,
  type ApprovalFailureReason,
  type DomainEvent,
  type LotStatus,
} from '@furniture/contracts';
import {
  isDuplicateKeyError,
  NOT_DELETED,
  type KeptSummaries,
  type Store,
  type StoredList,
} from '@furniture/platform';
import type { QueryFilter } from 'mongoose';
import {
  DuplicateApplicationError,
  HOLDS_LOT,
  holdsLot,
  OPEN_STATUSES,
  type ApplicationRecord,
  type ApprovalRecord,
  type LotQueue,
  type NewApplication,
  type TransitionExtras,
} from '../domain/records';
import type { ApplicationDoc, ApprovalDoc, Models } from './models';

export type { ApplicationRecord } from '../domain/records';

function toApproval(doc: ApprovalDoc | null | undefined): ApprovalRecord | null {
  if (!doc) return null;
  return {
    state: doc.state,
    requested_at: doc.requested_at.toISOString(),
    requested_by: doc.requested_by ?? null,
    pickup_by: doc.pickup_by ?? null,
    note: doc.note ?? null,
    reason: doc.reason ?? null,
    lot_status: doc.lot_status ?? null,
    ended_at: doc.ended_at ? doc.ended_at.toISOString() : null,
  };
}

function toRecord(doc: ApplicationDoc): ApplicationRecord {
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
    approval: toApproval(doc.approval),
    rejected_for: doc.rejected_for ?? null,
    request_key: doc.request_key ?? null,
    pickup_by: doc.pickup_by ?? null,
    pickup_reminded_at: doc.pickup_reminded_at ? doc.pickup_reminded_at.toISOString() : null,
    pickup_overdue_at: doc.pickup_overdue_at ? doc.pickup_overdue_at.toISOString() : null,
    next_in_queue_after: doc.next_in_queue_after ?? null,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

const LIVE = NOT_DELETED as QueryFilter<ApplicationDoc>;
const HOLDER = HOLDS_LOT as QueryFilter<ApplicationDoc>;
const OPEN = { $in: [...OPEN_STATUSES] };

/** A pickup date with its reminder and overdue notice still to come. */
const freshPickup = (pickupBy: string | null) => ({
  pickup_by: pickupBy,
  pickup_reminded_at: null,
  pickup_overdue_at: null,
});

/** What a lot's summary is made of, of each of its applications. */
export interface LotMember {
  id: number;
  status: ApplicationStatus;
  applicant_name: string;
  approval?: { state?: string } | null;
  deleted_at?: Date | null;
}

/** What a lot's summary is made of (the store recomputes it when one of them changes). */
export const LOT_QUEUE_FIELDS = ['id', 'status', 'applicant_name', 'approval.state', 'deleted_at'];

/** A lot's applications as the staff lists present them: its queue and who holds it. */
export function summarize(members: LotMember[]): LotQueue {
  const live = members.filter((m) => !m.deleted_at);
  const open = live.filter((m) => OPEN_STATUSES.includes(m.status)).sort((a, b) => a.id - b.id);
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

  constructor(
    store: Store,
    private readonly models: Models,
  ) {
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

  /** Stores a new application with its events; one per phone and lot (unique index). */
  async insert(
    data: NewApplication,
    events: (app: ApplicationRecord) => DomainEvent[],
  ): Promise<ApplicationRecord> {
    const now = new Date();
    const doc: ApplicationDoc = {
      ...data,
      id: await this.drawId(),
      approval: null,
      rejected_for: null,
      ...freshPickup(null),
      next_in_queue_after: null,
      created_at: now,
      updated_at: now,
    };
    const record = toRecord(doc);
    try {
      await this.stored.insert({ ...doc }, events(record));
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new DuplicateApplicationError();
      throw err;
    }
    return record;
  }

  async findById(id: number): Promise<ApplicationRecord | null> {
    const doc = await this.models.Application.findOne({ ...LIVE, id }).lean<ApplicationDoc>();
    return doc ? toRecord(doc) : null;
  }

  async findByLotAndPhone(lotId: number, phone: string): Promise<ApplicationRecord | null> {
    const doc = await this.models.Application.findOne({
      ...LIVE,
      lot_id: lotId,
      applicant_phone: phone,
    }).lean<ApplicationDoc>();
    return doc ? toRecord(doc) : null;
  }

  /** What one phone holds: lot and status of each of its applications (one query for both checks). */
  async ofPhone(phone: string): Promise<Pick<ApplicationRecord, 'id' | 'lot_id' | 'status'>[]> {
    return this.models.Application.find(
      { ...LIVE, applicant_phone: phone },
      { _id: 0, id: 1, lot_id: 1, status: 1 },
    ).lean<Pick<ApplicationDoc, 'id' | 'lot_id' | 'status'>[]>();
  }

  /** The lot's open applications: from its summary (a primary-key read) while complete. */
  async countOpenOfLot(lotId: number): Promise<number> {
    const kept = await this.queues.get([lotId]);
    if (kept) return kept.get(lotId)?.open.length ?? 0;
    return this.models.Application.countDocuments({ ...LIVE, lot_id: lotId, status: OPEN });
  }

  /** 1-based place among the lot's open applications, oldest (smallest id) first. */
  queuePosition(lotId: number, id: number): Promise<number> {
    return this.models.Application.countDocuments({
      ...LIVE,
      lot_id: lotId,
      status: OPEN,
      id: { $lte: id },
    });
  }

  /**
   * For the lots of a page of applications: the open applications' ids, oldest first (queue
   * positions), and the one that holds the lot (approved or with its approval under way, also
   * when it is on another page). From the lots' summaries (one primary-key read per lot); a lot
   * is read from its applications instead while the summaries are incomplete (after a bulk load,
   * until the rebuild), and when its summary disagrees with an application of the page: the
   * summary follows a write by a few milliseconds, and a page never contradicts itself.
   */
  async queuesOf(
    page: Pick<ApplicationRecord, 'id' | 'lot_id' | 'status' | 'approval'>[],
  ): Promise<Map<number, LotQueue>> {
    const lotIds = [...new Set(page.map((a) => a.lot_id))];
    const kept = (await this.queues.get(lotIds)) ?? new Map<number, LotQueue>();
    const agrees = (a: (typeof page)[number]) => {
      const queue = kept.get(a.lot_id);
      const open = OPEN_STATUSES.includes(a.status);
      return (
        open === (queue?.open.includes(a.id) ?? false) &&
        holdsLot(a) === (queue?.holder?.id === a.id)
      );
    };
    const stale = new Set(page.filter((a) => !agrees(a)).map((a) => a.lot_id));
    await Promise.all(
      [...stale].map(async (lotId) => kept.set(lotId, await this.queues.fresh(lotId))),
    );
    return kept;
  }

  /** Applications of a lot in some statuses, oldest first. */
  async ofLot(lotId: number, statuses: readonly ApplicationStatus[]): Promise<ApplicationRecord[]> {
    return this.findAll({ lot_id: lotId, status: { $in: [...statuses] } }, { id: 1 });
  }

  /** Newest first; by status alone from the counts and the blocks a page lies in. */
  async list(q: {
    status?: ApplicationStatus;
    lot_id?: number;
    phone?: string;
    limit: number;
    skip: number;
  }): Promise<{ applications: ApplicationRecord[]; total: number }> {
    const where: Record<string, unknown> = {};
    if (q.status) where.status = q.status;
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

  /**
   * Moves an application from `from` to `to` with a note line and its events, in one guarded
   * write under the document's lock. Any approval request or failure ends with the change.
   * Returns the new state, or null when the application was no longer in `from` (someone else
   * changed it first) or no longer awaited its approval when that was required.
   */
  async transition(
    id: number,
    from: ApplicationStatus,
    to: ApplicationStatus,
    noteLine: string,
    events: DomainEvent[],
    extras: TransitionExtras = {},
  ): Promise<ApplicationRecord | null> {
    const filter: Record<string, unknown> = { ...NOT_DELETED, id, status: from };
    if (extras.requireApprovalRequested) filter['approval.state'] = 'requested';
    const set = {
      status: to,
      approval: null,
      rejected_for: to === 'rejected' ? (extras.rejectedFor ?? null) : null,
      next_in_queue_after: null,
      // an approval carries its pickup date; leaving it keeps the date for the record
      ...(to === 'approved' ? freshPickup(extras.pickupBy ?? null) : {}),
    };
    return this.updated(id, filter, set, events, noteLine);
  }

  /**
   * One guarded update (`updated_at` set, the note line appended) with its events: the new state,
   * or null when the filter no longer matches.
   */
  private async updated(
    id: number,
    filter: Record<string, unknown>,
    set: Record<string, unknown>,
    events: DomainEvent[],
    noteLine?: string,
  ): Promise<ApplicationRecord | null> {
    const update = {
      $set: { ...set, updated_at: new Date() },
      ...(noteLine === undefined ? {} : { $push: { notes: noteLine } }),
    };
    return (await this.stored.update(filter, update, events)) ? this.findById(id) : null;
  }

  /** The live applications a filter matches, in the given order. */
  private async findAll(
    filter: QueryFilter<ApplicationDoc>,
    sort: Record<string, 1>,
    limit = 0,
  ): Promise<ApplicationRecord[]> {
    const docs = await this.models.Application.find({ ...LIVE, ...filter })
      .sort(sort)
      .limit(limit)
      .lean<ApplicationDoc[]>();
    return docs.map(toRecord);
  }

  /**
   * Records a staff approval request on a pending application that has none under way, with its
   * event; null when the application is no longer pending or already awaits an approval.
   */
  async requestApproval(
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
    const filter = {
      ...NOT_DELETED,
      id,
      status: 'pending',
      'approval.state': { $ne: 'requested' },
    };
    return this.updated(id, filter, { approval: doc }, events);
  }

  /**
   * Ends a requested approval that the catalog could not confirm: the application stays pending
   * and shows why. null when no approval of it was under way any more.
   */
  async failApproval(
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
    const filter = { ...NOT_DELETED, id, status: 'pending', 'approval.state': 'requested' };
    return this.updated(id, filter, set, events, noteLine);
  }

  /** Adds events to an application without changing it (they go out through its outbox). */
  async addEvents(id: number, events: DomainEvent[]): Promise<boolean> {
    return this.stored.update({ ...NOT_DELETED, id }, {}, events);
  }

  /** Has the phone another completed application (a family served before)? */
  async hasCompleted(phone: string, exceptId: number): Promise<boolean> {
    const doc = await this.models.Application.findOne(
      { ...LIVE, applicant_phone: phone, status: 'completed', id: { $ne: exceptId } },
      { id: 1 },
    ).lean();
    return doc !== null;
  }

  /** Marks a pending application as next in the queue after a lapse, with its event. */
  async markNextInQueue(id: number, afterId: number, events: DomainEvent[]): Promise<boolean> {
    return this.stored.update(
      { ...NOT_DELETED, id, status: 'pending' },
      { $set: { next_in_queue_after: afterId, updated_at: new Date() } },
      events,
    );
  }

  /**
   * A new pickup date for an approved application, with its note line and event; the reminder
   * and the overdue notice start over. null when it is no longer approved.
   */
  async setPickup(
    id: number,
    pickupBy: string,
    noteLine: string,
    events: DomainEvent[],
  ): Promise<ApplicationRecord | null> {
    const filter = { ...NOT_DELETED, id, status: 'approved' };
    return this.updated(id, filter, freshPickup(pickupBy), events, noteLine);
  }

  /** Approved applications whose pickup date is on or before `day`, oldest date first. */
  async approvedDueBy(day: string, limit = 500): Promise<ApplicationRecord[]> {
    const filter = { status: 'approved', pickup_by: { $ne: null, $lte: day } } as const;
    return this.findAll(filter, { pickup_by: 1, id: 1 }, limit);
  }

  /**
   * Marks a pickup reminder or overdue notice as given, once (the field still empty and the
   * application still approved for the same date), with its event.
   */
  async markPickup(
    id: number,
    field: 'pickup_reminded_at' | 'pickup_overdue_at',
    pickupBy: string,
    events: DomainEvent[],
  ): Promise<boolean> {
    return this.stored.update(
      { ...NOT_DELETED, id, status: 'approved', pickup_by: pickupBy, [field]: null },
      { $set: { [field]: new Date() } },
      events,
    );
  }

  /** Does another application of the lot hold or await its reservation? */
  async reservationHolder(lotId: number, exceptId: number): Promise<number | null> {
    const doc = await this.models.Application.findOne(
      { ...LIVE, lot_id: lotId, id: { $ne: exceptId }, ...HOLDER },
      { _id: 0, id: 1 },
    ).lean<Pick<ApplicationDoc, 'id'>>();
    return doc?.id ?? null;
  }

  /**
   * Applications of a lot rejected because it was reserved for `holderId`, oldest first; not
   * those whose family's data was erased meanwhile (a nameless family cannot be served).
   */
  async rejectedFor(lotId: number, holderId: number): Promise<ApplicationRecord[]> {
    const filter = { lot_id: lotId, status: 'rejected', rejected_for: holderId, erased_at: null };
    return this.findAll(filter as QueryFilter<ApplicationDoc>, { id: 1 });
  }

  /** Appends one note line with its event; null when the application does not exist. */
  async addNote(
    id: number,
    noteLine: string,
    events: DomainEvent[],
  ): Promise<ApplicationRecord | null> {
    return this.updated(id, { ...NOT_DELETED, id }, {}, events, noteLine);
  }
}
