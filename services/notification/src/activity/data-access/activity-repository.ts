import type {
  ActionType,
  ActivityLogEntry,
  ActivityUser,
  Actor,
  TargetType,
} from '@furniture/contracts';
import {
  KeptCounts,
  addCount,
  countsWithPrefix,
  escapeRegex,
  isDuplicateKeyError,
  nextId,
  pageOfBuckets,
  withDocLock,
  type Connection,
  type KeptCountsDoc,
} from '@furniture/platform';
import { localDay } from '@furniture/platform/domain';
import type { QueryFilter } from 'mongoose';
import { unfiltered, type ActivityQuery } from '../domain/records';
import { ExportMonthStore } from './export-month-store';
import type { ActivityDoc, LogUserDoc, Models } from './models';

export type { ActivityQuery } from '../domain/records';

export interface ActivityInsert {
  event_id: string;
  event_name: string | null;
  source: 'server' | 'client';
  user: Actor | null;
  action_type: ActionType;
  target_type: TargetType;
  target_id: number | null;
  details: Record<string, unknown> | string | null;
  search_text: string;
  created_at: Date;
}

export function toEntry(doc: ActivityDoc): ActivityLogEntry {
  let details: ActivityLogEntry['details'] = null;
  if (doc.details_json !== null) {
    try {
      details = JSON.parse(doc.details_json) as ActivityLogEntry['details'];
    } catch {
      details = doc.details_json;
    }
  }
  return {
    id: doc.id,
    user_id: doc.user_id,
    user_name: doc.user_name,
    user_email: doc.user_email,
    user_role: doc.user_role,
    action_type: doc.action_type,
    target_type: doc.target_type,
    target_id: doc.target_id,
    details,
    source: doc.source,
    created_at: doc.created_at.toISOString(),
  };
}

const PROJECTION = { search_text: 0, event_name: 0, day: 0, month: 0 } as const;
/** a month's entries keep their day: the export checks that it lies in the month */
const MONTH_PROJECTION = { search_text: 0, event_name: 0, month: 0 } as const;
const NEWEST_FIRST = { created_at: -1, id: -1 } as const;
/**
 * The log's counts, kept up to date with every entry written (KeptCounts): `total`,
 * `action:<type>`, `target:<type>`, `user:<id|none>`, `day:<YYYY-MM-DD>` and `month:<YYYY-MM>`.
 * The unfiltered list and stats read them (and one day of entries at a time), the export one
 * month at a time, instead of the whole log.
 */
const COUNTS = 'activity_counts';

const isMonthKey = (key: string) => key.startsWith('month:');

/** One month of the log by its kept counts. */
export interface LogMonth {
  /** "2026-11", in the office's time zone */
  month: string;
  /** its days with their counts, newest first */
  days: [string, number][];
  /** its `month:` count */
  count: number;
  /** the sum of its days' counts (equal to `count` while every entry carries its month) */
  entries: number;
}

/** An entry's month bucket ("2026-11") from its day ("2026-11-22"). */
const monthOf = (day: string) => day.slice(0, 7);

function countKeys(e: Pick<ActivityDoc, 'action_type' | 'target_type' | 'user_id'>, day: string) {
  return [
    'total',
    `action:${e.action_type}`,
    `target:${e.target_type}`,
    `user:${e.user_id ?? 'none'}`,
    `day:${day}`,
    `month:${monthOf(day)}`,
  ];
}

/** The buckets of the counts with a prefix (`day:`, `month:`), newest first, with their counts. */
function newestFirst(counts: Record<string, number>, prefix: string): [string, number][] {
  return [...countsWithPrefix(counts, prefix)].sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0));
}

export class ActivityRepository {
  constructor(
    private readonly conn: Connection,
    private readonly models: Models,
    /** the office's time zone: an entry's `day` is its calendar day there */
    private readonly timeZone: string,
  ) {
    this.kept = new KeptCounts(conn.collection<KeptCountsDoc>(COUNTS));
    this.stored = new ExportMonthStore(conn);
  }

  private readonly kept: KeptCounts;
  /** the CSV export's stored rows of closed months */
  readonly stored: ExportMonthStore;

  /**
   * At start: true when the counts must be rebuilt (rebuildCounts) from the entries; also when
   * they were kept by a version without month buckets (its entries have no `month` yet).
   */
  async openCounts(): Promise<boolean> {
    if (await this.kept.open(async () => Boolean(await this.models.Activity.exists({}))))
      return true;
    const counts = await this.kept.read();
    return counts !== null && (counts.total ?? 0) > 0 && !Object.keys(counts).some(isMonthKey);
  }

  /**
   * Gives every entry its `day` and `month` and counts the entries once more, in one pass (after
   * openCounts() said so, or to repair counts that drifted).
   */
  async rebuildCounts(log: (msg: string) => void = () => undefined): Promise<void> {
    await this.kept.invalidate();
    // the entries may have been changed behind the service's back: their stored rows go too
    await this.stored.clear();
    log('rebuilding the activity counts');
    // one pass over the entries, counted here: FerretDB's $group by day, action, target and user
    // had not finished after four minutes at 100 000 entries (bench:scale)
    const col = this.conn.collection<ActivityDoc>(this.models.Activity.collection.collectionName);
    const counts: Record<string, number> = {};
    const missing: { _id: string; day: string }[] = [];
    /** days whose entries (or some of them) lack their month */
    const monthless = new Set<string>();
    const cursor = col.find(
      {},
      {
        projection: {
          _id: 1,
          created_at: 1,
          day: 1,
          month: 1,
          action_type: 1,
          target_type: 1,
          user_id: 1,
        },
      },
    );
    for (const doc of await cursor.toArray()) {
      const day = doc.day ?? localDay(doc.created_at, this.timeZone);
      if (!doc.day) missing.push({ _id: doc._id, day });
      else if (doc.month !== monthOf(day)) monthless.add(day);
      for (const key of countKeys(doc, day)) addCount(counts, key);
    }
    // after the pass (FerretDB's cursor stalls on writes), one write at a time (FerretDB stopped
    // answering under an unordered bulk of 100 000 updates): the entries without a day get their
    // day and month one by one, the others their month one day at a time (a pushed-down equality)
    for (let i = 0; i < missing.length; i += 100)
      await col.bulkWrite(
        missing.slice(i, i + 100).map((m) => ({
          updateOne: {
            filter: { _id: m._id },
            update: { $set: { day: m.day, month: monthOf(m.day) } },
          },
        })),
        { ordered: true },
      );
    for (const day of [...monthless].sort().reverse())
      await col.updateMany({ day }, { $set: { month: monthOf(day) } });
    await this.kept.replace(counts);
    log(`activity counts rebuilt: ${counts.total ?? 0} entries`);
  }

  /** Writes one entry; null when this event already has its entry (a redelivery). */
  async insert(entry: ActivityInsert): Promise<ActivityLogEntry | null> {
    if (await this.models.Activity.exists({ _id: entry.event_id })) return null;
    const doc: ActivityDoc = {
      _id: entry.event_id,
      id: await nextId(this.conn, 'activity_logs'),
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
      day: localDay(entry.created_at, this.timeZone),
    };
    doc.month = monthOf(doc.day!);
    try {
      await this.conn
        .collection<ActivityDoc>(this.models.Activity.collection.collectionName)
        .insertOne({ ...doc });
    } catch (err) {
      if (isDuplicateKeyError(err)) return null;
      throw err;
    }
    await this.kept.add(Object.fromEntries(countKeys(doc, doc.day!).map((k) => [k, 1])));
    return toEntry(doc);
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

  /** One day's entries, newest first (a pushed-down equality on FerretDB, an index on MongoDB). */
  private dayEntries(day: string): Promise<ActivityDoc[]> {
    return this.models.Activity.find({ day }, PROJECTION).sort(NEWEST_FIRST).lean<ActivityDoc[]>();
  }

  async list(
    q: ActivityQuery,
    page: number,
    limit: number,
  ): Promise<{ entries: ActivityLogEntry[]; total: number }> {
    const counts = unfiltered(q) ? await this.kept.read() : null;
    if (counts) {
      // the page's entries lie in one or two days: only those are read
      const docs = await pageOfBuckets(
        newestFirst(counts, 'day:'),
        (page - 1) * limit,
        limit,
        (day) => this.dayEntries(day),
      );
      return { entries: docs.map(toEntry), total: counts.total ?? 0 };
    }
    const filter = this.filter(q);
    const [docs, total] = await Promise.all([
      this.models.Activity.find(filter, PROJECTION)
        .sort(NEWEST_FIRST)
        .skip((page - 1) * limit)
        .limit(limit)
        .lean<ActivityDoc[]>(),
      this.models.Activity.countDocuments(filter),
    ]);
    return { entries: docs.map(toEntry), total };
  }

  /**
   * The log's months, newest first, from the kept counts (each with its days and their counts);
   * null while the counts are rebuilt.
   */
  async months(): Promise<LogMonth[] | null> {
    const counts = await this.kept.read();
    if (!counts) return null;
    const months = new Map<string, LogMonth>();
    for (const [day, n] of newestFirst(counts, 'day:')) {
      const month = monthOf(day);
      let m = months.get(month);
      if (!m) {
        m = { month, days: [], count: counts[`month:${month}`] ?? 0, entries: 0 };
        months.set(month, m);
      }
      m.days.push([day, n]);
      m.entries += n;
    }
    return [...months.values()];
  }

  /**
   * A month's entries, newest first, in one query (a pushed-down equality; tens of queries for
   * three years). When its month count disagrees with its days' counts (entries written by an
   * older version without their month, after the rebuild), day by day instead, and `whole` is
   * false: what was read may lack entries a later rebuild gives their month.
   */
  async monthEntries(m: LogMonth): Promise<{ entries: ActivityLogEntry[]; whole: boolean }> {
    if (m.count !== m.entries) {
      const entries: ActivityLogEntry[] = [];
      for (const [day] of m.days)
        for (const doc of await this.dayEntries(day)) entries.push(toEntry(doc));
      return { entries, whole: false };
    }
    const docs = await this.models.Activity.find({ month: m.month }, MONTH_PROJECTION)
      .sort(NEWEST_FIRST)
      .lean<ActivityDoc[]>();
    // an entry whose month does not match its day (a bulk copy, say) is not this month's
    const entries: ActivityLogEntry[] = [];
    for (const doc of docs)
      if (doc.day !== undefined && monthOf(doc.day) === m.month) entries.push(toEntry(doc));
    return { entries, whole: true };
  }

  /** Every matching entry, newest first, read in batches (the filtered CSV export). */
  async *stream(q: ActivityQuery): AsyncGenerator<ActivityLogEntry> {
    const cursor = this.models.Activity.find(this.filter(q), PROJECTION)
      .sort(NEWEST_FIRST)
      .lean<ActivityDoc[]>()
      .cursor({ batchSize: 500 });
    try {
      for await (const doc of cursor) yield toEntry(doc as ActivityDoc);
    } finally {
      await cursor.close();
    }
  }

  /**
   * Counts per action type, target type and user in one pass over the matching entries (FerretDB
   * reads the whole collection for each aggregation, so one instead of four).
   */
  async counts(q: ActivityQuery) {
    const counts = unfiltered(q) ? await this.kept.read() : null;
    if (counts) {
      return {
        total: counts.total ?? 0,
        byAction: [...countsWithPrefix(counts, 'action:')].map(([action, count]) => ({
          action_type: action as ActionType,
          count,
        })),
        byTarget: [...countsWithPrefix(counts, 'target:')].map(([target, count]) => ({
          target_type: target as TargetType,
          count,
        })),
        byUser: [...countsWithPrefix(counts, 'user:')].map(([user, count]) => ({
          user_id: user === 'none' ? null : Number(user),
          count,
        })),
      };
    }
    const groups = await this.models.Activity.aggregate<{
      _id: { action: ActionType; target: TargetType; user: number | null };
      count: number;
    }>([
      { $match: this.filter(q) },
      {
        $group: {
          _id: { action: '$action_type', target: '$target_type', user: '$user_id' },
          count: { $sum: 1 },
        },
      },
    ]);
    const byAction = new Map<ActionType, number>();
    const byTarget = new Map<TargetType, number>();
    const byUser = new Map<number | null, number>();
    let total = 0;
    for (const { _id, count } of groups) {
      total += count;
      byAction.set(_id.action, (byAction.get(_id.action) ?? 0) + count);
      byTarget.set(_id.target, (byTarget.get(_id.target) ?? 0) + count);
      const user = _id.user ?? null;
      byUser.set(user, (byUser.get(user) ?? 0) + count);
    }
    return {
      total,
      byAction: [...byAction].map(([action_type, count]) => ({ action_type, count })),
      byTarget: [...byTarget].map(([target_type, count]) => ({ target_type, count })),
      byUser: [...byUser].map(([user_id, count]) => ({ user_id, count })),
    };
  }

  /** Remembers a staff member's newest name and e-mail; an older event never overwrites them. */
  async touchUser(user: Actor, at: Date): Promise<void> {
    const LogUser = this.models.LogUser;
    await withDocLock(LogUser.collection, user.id, async () => {
      const set = { name: user.name, email: user.email, role: user.role, last_activity_at: at };
      const res = await LogUser.collection.updateOne(
        { user_id: user.id, last_activity_at: { $lte: at } },
        { $set: set },
      );
      if (res.matchedCount === 1) return;
      if (await LogUser.exists({ user_id: user.id })) return; // a newer event was there first
      try {
        await LogUser.collection.insertOne({ user_id: user.id, ...set });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    });
  }

  async users(): Promise<ActivityUser[]> {
    const docs = await this.models.LogUser.find({}, { _id: 0 })
      .sort({ name: 1, user_id: 1 })
      .lean<LogUserDoc[]>();
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
    const docs = await this.models.LogUser.find({ user_id: { $in: ids } }, { _id: 0 }).lean<
      LogUserDoc[]
    >();
    return new Map(docs.map((d) => [d.user_id, d]));
  }
}
