import type {
  ActionType,
  ActivityLogEntry,
  ActivityUser,
  Actor,
  TargetType,
} from '@furniture/contracts';
import {
  escapeRegex,
  insertedUnlessTaken,
  retryingDuplicates,
  type Store,
  type StoredCollection,
  type StoredList,
} from '@furniture/platform';
import { localDay } from '@furniture/platform/domain';
import type { QueryFilter } from 'mongoose';
import type { NewActivity } from '../domain/activity-mapping';
import type { ActivityQuery } from '../domain/records';
import { ExportMonthStore } from './export-month-store';
import { parseDetails, type ActivityDoc, type LogUserDoc, type Models } from './models';

export type { ActivityQuery } from '../domain/records';

/** An entry to write (the mapping's, with its search words joined into one text). */
export type ActivityInsert = Omit<NewActivity, 'search_terms'> & { search_text: string };

export function toEntry(doc: ActivityDoc): ActivityLogEntry {
  return {
    id: doc.id,
    user_id: doc.user_id,
    user_name: doc.user_name,
    user_email: doc.user_email,
    user_role: doc.user_role,
    action_type: doc.action_type,
    target_type: doc.target_type,
    target_id: doc.target_id,
    details: parseDetails(doc.details_json),
    source: doc.source,
    created_at: doc.created_at.toISOString(),
  };
}

const PROJECTION = { search_text: 0, event_name: 0, day: 0 } as const;
/** a month's entries keep their day: the export checks that it lies in the month */
const MONTH_PROJECTION = { search_text: 0, event_name: 0 } as const;

/** One month of the log by its kept counts. */
export interface LogMonth {
  /** "2026-11", in the office's time zone */
  month: string;
  /** its days with their counts, newest first */
  days: [string, number][];
  /** its entries */
  count: number;
}

/** An entry's month ("2026-11") from its day ("2026-11-22"). */
const monthOf = (day: string) => day.slice(0, 7);

export class ActivityRepository {
  /** the log: a list of days, counted by action, target and user (the store) */
  readonly entries: StoredList<ActivityDoc>;
  private readonly logUsers: StoredCollection<LogUserDoc>;
  /** the CSV export's stored rows of closed months */
  readonly stored: ExportMonthStore;

  constructor(
    store: Store,
    private readonly models: Models,
    /** the office's time zone: an entry's `day` is its calendar day there */
    timeZone: string,
  ) {
    this.entries = store.list<ActivityDoc>({
      name: 'activity_logs',
      key: '_id',
      counts: 'activity_counts',
      tallied: { action: 'action_type', target: 'target_type', user: 'user_id' },
      day: {
        from: 'created_at',
        of: (at) => localDay(at, timeZone),
        order: { created_at: -1, id: -1 },
      },
    });
    this.logUsers = store.collection<LogUserDoc>({ name: 'log_users', key: 'user_id' });
    this.stored = new ExportMonthStore(models.Activity.db);
  }

  /** Writes one entry; null when this event already has its entry (a redelivery). */
  async insert(entry: ActivityInsert): Promise<ActivityLogEntry | null> {
    if (await this.entries.exists({ _id: entry.event_id })) return null;
    const doc: ActivityDoc = {
      _id: entry.event_id,
      id: await this.entries.nextId(),
      event_name: entry.event_name,
      source: entry.source,
      user_id: entry.user?.id ?? null,
      user_name: entry.user?.name ?? null,
      user_email: entry.user?.email ?? null,
      user_role: entry.user?.role ?? null,
      action_type: entry.action_type,
      target_type: entry.target_type,
      target_id: entry.target_id,
      details_json: entry.details === null ? null : JSON.stringify(entry.details),
      search_text: entry.search_text,
      created_at: entry.created_at,
    };
    return (await insertedUnlessTaken(() => this.entries.insert({ ...doc }))) ? toEntry(doc) : null;
  }

  private filter(q: ActivityQuery): QueryFilter<ActivityDoc> {
    const f: QueryFilter<ActivityDoc> = {};
    if (q.user_id !== undefined) f.user_id = q.user_id;
    if (q.action_type) f.action_type = q.action_type;
    if (q.target_type) f.target_type = q.target_type;
    if (q.target_id !== undefined) f.target_id = q.target_id;
    if (q.from || q.until) {
      f.created_at = {
        ...(q.from ? { $gte: q.from } : {}),
        ...(q.until ? { $lt: q.until } : {}),
      };
    }
    if (q.search) {
      const text = { search_text: new RegExp(escapeRegex(q.search.toLowerCase())) };
      f.$or = /^\d+$/.test(q.search) ? [text, { target_id: Number(q.search) }] : [text];
    }
    return f;
  }

  /** Newest first; the whole log a day at a time by its counts (the store). */
  async list(
    q: ActivityQuery,
    page: number,
    limit: number,
  ): Promise<{ entries: ActivityLogEntry[]; total: number }> {
    const { docs, total } = await this.entries.pageWithTotal(this.filter(q), {
      skip: (page - 1) * limit,
      limit,
      projection: PROJECTION,
    });
    return { entries: docs.map(toEntry), total };
  }

  /** The log's months, newest first, with their days and counts; null while rebuilt. */
  async months(): Promise<LogMonth[] | null> {
    const days = await this.entries.buckets();
    if (!days) return null;
    const months = new Map<string, LogMonth>();
    for (const [day, n] of days as [string, number][]) {
      const month = monthOf(day);
      let m = months.get(month);
      if (!m) months.set(month, (m = { month, days: [], count: 0 }));
      m.days.push([day, n]);
      m.count += n;
    }
    return [...months.values()];
  }

  /** A month's entries, newest first, a day at a time (an equality FerretDB pushes down). */
  async monthEntries(m: LogMonth): Promise<ActivityLogEntry[]> {
    const entries: ActivityLogEntry[] = [];
    for (const [day] of m.days)
      for (const doc of await this.entries.bucket(day, MONTH_PROJECTION))
        entries.push(toEntry(doc));
    return entries;
  }

  /** Every matching entry, newest first, read in batches (the filtered CSV export). */
  async *stream(q: ActivityQuery): AsyncGenerator<ActivityLogEntry> {
    const cursor = this.models.Activity.find(this.filter(q), PROJECTION)
      .sort({ created_at: -1, id: -1 })
      .lean<ActivityDoc[]>()
      .cursor({ batchSize: 500 });
    try {
      for await (const doc of cursor) yield toEntry(doc as ActivityDoc);
    } finally {
      await cursor.close();
    }
  }

  /**
   * Counts per action type, target type and user (from the kept counts for the whole log, else in
   * one pass over the matching entries: FerretDB reads the whole collection per aggregation).
   */
  async counts(q: ActivityQuery) {
    const { total, by } = await this.entries.tallies(
      ['action_type', 'target_type', 'user_id'],
      this.filter(q),
    );
    const of = (field: string) => [...by.get(field)!];
    return {
      total,
      byAction: of('action_type').map(([k, count]) => ({ action_type: k as ActionType, count })),
      byTarget: of('target_type').map(([k, count]) => ({ target_type: k as TargetType, count })),
      byUser: of('user_id').map(([k, count]) => ({
        user_id: k === 'none' ? null : Number(k),
        count,
      })),
    };
  }

  /** Remembers a staff member's newest name and e-mail; an older event never overwrites them. */
  async touchUser(user: Actor, at: Date): Promise<void> {
    const set = { name: user.name, email: user.email, role: user.role, last_activity_at: at };
    // an insert that loses to one stored meanwhile tries again
    await retryingDuplicates(async () => {
      const newer = { user_id: user.id, last_activity_at: { $lte: at } };
      if (await this.logUsers.update(newer, { $set: set })) return;
      if (await this.logUsers.exists({ user_id: user.id })) return; // a newer event was first
      await this.logUsers.insert({ user_id: user.id, ...set });
    }, 3);
  }

  async users(): Promise<ActivityUser[]> {
    const docs = await this.logUsers.find(
      {},
      { sort: { name: 1, user_id: 1 }, projection: { _id: 0 } },
    );
    return docs.map((d) => ({
      id: d.user_id,
      name: d.name,
      email: d.email,
      role: d.role,
      last_activity_at: d.last_activity_at.toISOString(),
    }));
  }

  async usersById(ids: number[]): Promise<Map<number, LogUserDoc>> {
    if (ids.length === 0) return new Map();
    const docs = await this.logUsers.find({ user_id: { $in: ids } }, { projection: { _id: 0 } });
    return new Map(docs.map((d) => [d.user_id, d]));
  }
}
