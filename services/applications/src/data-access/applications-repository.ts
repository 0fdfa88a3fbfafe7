import type {
  Actor,
  ApplicationStatus,
  ApprovalFailureReason,
  DomainEvent,
  LotStatus,
} from '@furniture/contracts';
import {
  KeptCounts,
  docWithEvents,
  isDuplicateKeyError,
  nextId,
  type KeptCountsDoc,
  withDocLock,
  withEvents,
  NOT_DELETED,
  type Connection,
} from '@furniture/platform';
import type { QueryFilter } from 'mongoose';
import {
  DuplicateApplicationError,
  OPEN_STATUSES,
  type ApplicationRecord,
  type ApprovalRecord,
  type NewApplication,
  type TransitionExtras,
} from '../domain/records';
import {
  BLOCK_LAYOUT,
  countMove,
  pageOfBlocks,
  placeNewest,
  placeOf,
  rebuildBlockCounts,
} from './blocks';
import { LotQueues, MEMBER_FIELDS, summarize, type LotMember, type LotQueue } from './lot-queues';
import type { ApplicationDoc, ApprovalDoc, Models } from './models';

export type { ApplicationRecord } from '../domain/records';
export type { LotHolder, LotQueue } from './lot-queues';

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
const OPEN = { $in: [...OPEN_STATUSES] };

/**
 * The counts kept with every write (KeptCounts, keys in blocks.ts). The staff list without lot or
 * phone filter and the stats read them instead of counting.
 */
const COUNTS = 'application_counts';

/** A pickup date with its reminder and overdue notice still to come. */
const freshPickup = (pickupBy: string | null) => ({
  pickup_by: pickupBy,
  pickup_reminded_at: null,
  pickup_overdue_at: null,
});

export class ApplicationsRepository {
  private readonly kept: KeptCounts;
  /** per lot: the open applications in queue order, the holder, the counts (lot-queues.ts) */
  private readonly queues: LotQueues;

  constructor(
    private readonly conn: Connection,
    private readonly models: Models,
  ) {
    this.kept = new KeptCounts(conn.collection<KeptCountsDoc>(COUNTS), 'all', BLOCK_LAYOUT);
    this.queues = new LotQueues(
      conn,
      (lotId) =>
        this.models.Application.find({ lot_id: lotId }, MEMBER_FIELDS).lean<LotMember[]>().exec(),
      () =>
        this.collection.find({}, { projection: MEMBER_FIELDS }).toArray() as unknown as Promise<
          (LotMember & { lot_id: number })[]
        >,
    );
  }

  /**
   * At start: true when the counts must be rebuilt (rebuildCounts) from the applications; then
   * the lots' summaries are rebuilt with them (the applications were bulk-loaded or written
   * before the counts existed).
   */
  async openCounts(): Promise<boolean> {
    const rebuild = await this.kept.open(() => this.hasApplications());
    // an upgrade of the layout alone leaves the applications' lots and statuses as they were
    if (rebuild && !this.kept.relayoutOnly) await this.queues.invalidate();
    return rebuild;
  }

  /** At start, when the counts are fine: true when the lots' summaries must be rebuilt. */
  openQueues(): Promise<boolean> {
    return this.queues.open(() => this.hasApplications());
  }

  private async hasApplications(): Promise<boolean> {
    return Boolean(await this.models.Application.exists({}));
  }

  /**
   * Gives every application its block and part and counts the applications once more (after
   * openCounts() said so, or to repair counts that drifted); the lots' summaries first, so that
   * counts marked ready mean summaries ready, too (not for an upgrade of the layout alone).
   */
  async rebuildCounts(log: (msg: string) => void = () => undefined): Promise<void> {
    if (!this.kept.relayoutOnly) await this.rebuildQueues(log);
    log('rebuilding the application counts');
    const total = await rebuildBlockCounts(this.collection as never, this.kept);
    log(`application counts rebuilt: ${total} applications`);
  }

  /**
   * Checks the lots' summaries against the applications in one pass, rewrites those that differ
   * and marks them complete (after openQueues() said so, or to repair them).
   */
  async rebuildQueues(log: (msg: string) => void = () => undefined): Promise<void> {
    const started = Date.now();
    const written = await this.queues.rebuild();
    log(`lot queues rebuilt in ${Date.now() - started} ms: ${written} written`);
  }

  private get collection() {
    return this.models.Application.collection;
  }

  /** An id for an answer that must look like a stored application (the honeypot). */
  drawId(): Promise<number> {
    return nextId(this.conn, 'applications');
  }

  /** Every minute: the part of records an older replica wrote without one (placeNewestParts). */
  placeNewest(): Promise<number> {
    return placeNewest(this.conn, this.collection as never, 'applications');
  }

  /** Stores a new application with its events; one per phone and lot (unique index). */
  async insert(
    data: NewApplication,
    events: (app: ApplicationRecord) => DomainEvent[],
  ): Promise<ApplicationRecord> {
    const now = new Date();
    const id = await this.drawId();
    const doc: ApplicationDoc = {
      ...data,
      id,
      ...placeOf(id),
      approval: null,
      rejected_for: null,
      pickup_by: null,
      pickup_reminded_at: null,
      pickup_overdue_at: null,
      next_in_queue_after: null,
      created_at: now,
      updated_at: now,
    };
    const record = toRecord(doc);
    try {
      await this.collection.insertOne(docWithEvents({ ...doc }, events(record)));
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new DuplicateApplicationError();
      throw err;
    }
    await this.kept.add(countMove(id, null, 'pending'));
    await this.queues.refresh(data.lot_id);
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

  countOpenOfLot(lotId: number): Promise<number> {
    return this.models.Application.countDocuments({ ...LIVE, lot_id: lotId, status: OPEN });
  }

  countByLotAndStatus(lotId: number, status: ApplicationStatus): Promise<number> {
    return this.models.Application.countDocuments({ ...LIVE, lot_id: lotId, status });
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

  /** The applications of some lots (one equality per lot: FerretDB pushes `lot_id` down to an
   * index, but not `$in`, which would read every application), deleted ones left out. */
  private async membersOf(lotIds: number[]): Promise<Map<number, LotMember[]>> {
    const rows = await Promise.all(
      lotIds.map(async (lotId) => {
        const members = await this.models.Application.find({ lot_id: lotId }, MEMBER_FIELDS)
          .lean<LotMember[]>()
          .exec();
        return [lotId, members.filter((m) => !m.deleted_at)] as const;
      }),
    );
    return new Map(rows);
  }

  /**
   * For the lots of a page of applications: the open applications' ids, oldest first (queue
   * positions), and the one that holds the lot (approved or with its approval under way, also
   * when it is on another page). From the lots' summaries (one primary-key read per lot). A lot
   * is read from its applications instead while the summaries are incomplete (after a bulk load,
   * until the rebuild), and when its summary disagrees with an application of the page: the
   * summary follows a write by a few milliseconds (lot-queues.ts), and a page never contradicts
   * itself.
   */
  async queuesOf(
    page: Pick<ApplicationRecord, 'id' | 'lot_id' | 'status' | 'approval'>[],
  ): Promise<Map<number, LotQueue>> {
    const lotIds = [...new Set(page.map((a) => a.lot_id))];
    const kept = (await this.queues.get(lotIds)) ?? new Map<number, LotQueue>();
    const agrees = (a: (typeof page)[number]) => {
      const queue = kept.get(a.lot_id);
      const open = OPEN_STATUSES.includes(a.status);
      const holds = open && (a.status === 'approved' || a.approval?.state === 'requested');
      return (
        open === (queue?.open.includes(a.id) ?? false) && holds === (queue?.holder?.id === a.id)
      );
    };
    const stale = new Set(page.filter((a) => !agrees(a)).map((a) => a.lot_id));
    for (const [lotId, members] of await this.membersOf([...stale]))
      kept.set(lotId, summarize(members));
    return kept;
  }

  /** Applications of a lot in some statuses, oldest first. */
  async ofLot(lotId: number, statuses: readonly ApplicationStatus[]): Promise<ApplicationRecord[]> {
    const docs = await this.models.Application.find({
      ...LIVE,
      lot_id: lotId,
      status: { $in: [...statuses] },
    })
      .sort({ id: 1 })
      .lean<ApplicationDoc[]>();
    return docs.map(toRecord);
  }

  async list(q: {
    status?: ApplicationStatus;
    lot_id?: number;
    phone?: string;
    limit: number;
    skip: number;
  }): Promise<{ applications: ApplicationRecord[]; total: number }> {
    const counts = q.lot_id === undefined && !q.phone ? await this.kept.readWithLayout() : null;
    if (counts) {
      const { docs, total } = await pageOfBlocks(counts, q, (where, take) =>
        this.models.Application.find({
          ...LIVE,
          ...where,
          ...(q.status ? { status: q.status } : {}),
        })
          .sort({ id: -1 })
          .limit(take)
          .lean<ApplicationDoc[]>(),
      );
      return { applications: docs.map(toRecord), total };
    }
    const filter: QueryFilter<ApplicationDoc> = { ...LIVE };
    if (q.status) filter.status = q.status;
    if (q.lot_id !== undefined) filter.lot_id = q.lot_id;
    if (q.phone) filter.applicant_phone = q.phone;
    const [docs, total] = await Promise.all([
      this.models.Application.find(filter)
        .sort({ id: -1 })
        .skip(q.skip)
        .limit(q.limit)
        .lean<ApplicationDoc[]>(),
      this.models.Application.countDocuments(filter),
    ]);
    return { applications: docs.map(toRecord), total };
  }

  async countsByStatus(): Promise<Record<ApplicationStatus, number>> {
    const counts = await this.kept.read();
    if (counts)
      return {
        pending: counts['status:pending'] ?? 0,
        approved: counts['status:approved'] ?? 0,
        rejected: counts['status:rejected'] ?? 0,
        completed: counts['status:completed'] ?? 0,
      };
    const [pending, approved, rejected, completed] = await Promise.all(
      (['pending', 'approved', 'rejected', 'completed'] as const).map((status) =>
        this.models.Application.countDocuments({ ...LIVE, status }),
      ),
    );
    return { pending: pending!, approved: approved!, rejected: rejected!, completed: completed! };
  }

  /** Per lot and status: how many applications (lots without any are absent). */
  async countsByLot(
    lotIds: number[],
  ): Promise<Map<number, Partial<Record<ApplicationStatus, number>>>> {
    const out = new Map<number, Partial<Record<ApplicationStatus, number>>>();
    for (const [lotId, docs] of await this.membersOf(lotIds)) {
      if (docs.length === 0) continue;
      const counts: Partial<Record<ApplicationStatus, number>> = {};
      for (const d of docs) counts[d.status] = (counts[d.status] ?? 0) + 1;
      out.set(lotId, counts);
    }
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
    const changed = await this.updateWithNote(
      id,
      filter,
      {
        status: to,
        approval: null,
        rejected_for: to === 'rejected' ? (extras.rejectedFor ?? null) : null,
        next_in_queue_after: null,
        // an approval carries its pickup date; leaving it keeps the date for the record
        ...(to === 'approved' ? freshPickup(extras.pickupBy ?? null) : {}),
      },
      noteLine,
      events,
    );
    if (changed && from !== to) await this.kept.add(countMove(id, from, to));
    if (changed) await this.queues.refresh(changed.lot_id);
    return changed;
  }

  /** One guarded update with its note line and events; null when the filter no longer matches. */
  private async updateWithNote(
    id: number,
    filter: Record<string, unknown>,
    set: Record<string, unknown>,
    noteLine: string,
    events: DomainEvent[],
  ): Promise<ApplicationRecord | null> {
    const res = await withDocLock(this.collection, id, () =>
      this.collection.updateOne(
        filter,
        withEvents(
          { $set: { ...set, updated_at: new Date() }, $push: { notes: noteLine } },
          events,
        ),
      ),
    );
    if (res.matchedCount !== 1) return null;
    return this.findById(id);
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
    const now = new Date();
    const doc: ApprovalDoc = {
      state: 'requested',
      requested_at: now,
      requested_by: approval.requested_by,
      pickup_by: approval.pickup_by,
      note: approval.note,
      reason: null,
      lot_status: null,
      ended_at: null,
    };
    const res = await withDocLock(this.collection, id, () =>
      this.collection.updateOne(
        { ...NOT_DELETED, id, status: 'pending', 'approval.state': { $ne: 'requested' } },
        withEvents({ $set: { approval: doc, updated_at: now } }, events),
      ),
    );
    if (res.matchedCount !== 1) return null;
    return this.refreshed(await this.findById(id));
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
    const now = new Date();
    const res = await withDocLock(this.collection, id, () =>
      this.collection.updateOne(
        { ...NOT_DELETED, id, status: 'pending', 'approval.state': 'requested' },
        withEvents(
          {
            $set: {
              'approval.state': 'failed',
              'approval.reason': failure.reason,
              'approval.lot_status': failure.lot_status,
              'approval.ended_at': now,
              updated_at: now,
            },
            $push: { notes: noteLine },
          },
          events,
        ),
      ),
    );
    if (res.matchedCount !== 1) return null;
    return this.refreshed(await this.findById(id));
  }

  /** Recomputes the summary of the application's lot (its holder changed) and answers it. */
  private async refreshed(app: ApplicationRecord | null): Promise<ApplicationRecord | null> {
    if (app) await this.queues.refresh(app.lot_id);
    return app;
  }

  /** Adds events to an application without changing it (they go out through its outbox). */
  async addEvents(id: number, events: DomainEvent[]): Promise<boolean> {
    const res = await withDocLock(this.collection, id, () =>
      this.collection.updateOne({ ...NOT_DELETED, id }, withEvents({}, events)),
    );
    return res.matchedCount === 1;
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
    const res = await withDocLock(this.collection, id, () =>
      this.collection.updateOne(
        { ...NOT_DELETED, id, status: 'pending' },
        withEvents({ $set: { next_in_queue_after: afterId, updated_at: new Date() } }, events),
      ),
    );
    return res.matchedCount === 1;
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
    return this.updateWithNote(
      id,
      { ...NOT_DELETED, id, status: 'approved' },
      freshPickup(pickupBy),
      noteLine,
      events,
    );
  }

  /** Approved applications whose pickup date is on or before `day`, oldest date first. */
  async approvedDueBy(day: string, limit = 500): Promise<ApplicationRecord[]> {
    const docs = await this.models.Application.find({
      ...LIVE,
      status: 'approved',
      pickup_by: { $ne: null, $lte: day },
    })
      .sort({ pickup_by: 1, id: 1 })
      .limit(limit)
      .lean<ApplicationDoc[]>();
    return docs.map(toRecord);
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
    const res = await withDocLock(this.collection, id, () =>
      this.collection.updateOne(
        { ...NOT_DELETED, id, status: 'approved', pickup_by: pickupBy, [field]: null },
        withEvents({ $set: { [field]: new Date() } }, events),
      ),
    );
    return res.matchedCount === 1;
  }

  /** Does another application of the lot hold or await its reservation? */
  async reservationHolder(lotId: number, exceptId: number): Promise<number | null> {
    const doc = await this.models.Application.findOne(
      {
        ...LIVE,
        lot_id: lotId,
        id: { $ne: exceptId },
        $or: [{ status: 'approved' }, { status: 'pending', 'approval.state': 'requested' }],
      },
      { _id: 0, id: 1 },
    ).lean<Pick<ApplicationDoc, 'id'>>();
    return doc?.id ?? null;
  }

  /**
   * Applications of a lot rejected because it was reserved for `holderId`, oldest first; not
   * those whose family's data was erased meanwhile (a nameless family cannot be served).
   */
  async rejectedFor(lotId: number, holderId: number): Promise<ApplicationRecord[]> {
    const docs = await this.models.Application.find({
      ...LIVE,
      lot_id: lotId,
      status: 'rejected',
      rejected_for: holderId,
      erased_at: null,
    })
      .sort({ id: 1 })
      .lean<ApplicationDoc[]>();
    return docs.map(toRecord);
  }

  /** Appends one note line with its event; null when the application does not exist. */
  async addNote(
    id: number,
    noteLine: string,
    events: DomainEvent[],
  ): Promise<ApplicationRecord | null> {
    return this.updateWithNote(id, { ...NOT_DELETED, id }, {}, noteLine, events);
  }
}
