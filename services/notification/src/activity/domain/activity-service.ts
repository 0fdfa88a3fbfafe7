import { randomUUID } from 'node:crypto';
import {
  ACTIVITY_DETAILS_MAX_CHARS,
  TargetTypes,
  type ActionType,
  type ActivityFilter,
  type ActivityLogCreate,
  type ActivityLogEntry,
  type ActivityLogPage,
  type ActivityLogQuery,
  type ActivityStats,
  type ActivityUsers,
  type Actor,
  type DomainEvent,
  type TargetType,
} from '@furniture/contracts';
import { AppError, rangeEnd, rangeStart } from '@furniture/platform/domain';
import type { ActivityRepository } from '../data-access/activity-repository';
import {
  activityFromEvent,
  detailTexts,
  searchText,
  textsOf,
  type NewActivity,
} from './activity-mapping';
import { ActivityCsvExport, type CsvPiece } from './activity-export';
import type { ActivityQuery } from './records';

/**
 * The activity log: one entry per domain event (written by the event handlers) and per staff
 * client's POST; reads are for administrators (the router enforces the role).
 */
export class ActivityService {
  constructor(
    private readonly deps: {
      activity: ActivityRepository;
      /** calendar-day filters are days of this zone, and the export's times */
      timeZone: string;
      /** the CSV export's delimiter (`;` for German spreadsheets) */
      csvDelimiter: string;
      /** takes one of a staff member's posts: 0, or the seconds until the next is allowed */
      postLimit?: (userId: number) => Promise<number>;
    },
  ) {
    this.csv = new ActivityCsvExport(deps.activity, {
      timeZone: deps.timeZone,
      delimiter: deps.csvDelimiter,
    });
  }

  private readonly csv: ActivityCsvExport;

  /** Writes the event's entry once; a redelivered event finds its entry and writes nothing. */
  async recordEvent(event: DomainEvent): Promise<ActivityLogEntry | null> {
    const entry = activityFromEvent(event);
    return entry ? this.write(entry) : null;
  }

  /**
   * An entry the service writes of its own accord (the messages module: an opt-out, the budget
   * warning, a message that failed for good); once per `eventId`.
   */
  async recordEntry(e: {
    eventId: string;
    action: ActionType;
    target: TargetType;
    targetId: number | null;
    details: Record<string, unknown>;
    user: Actor | null;
  }): Promise<void> {
    await this.write({
      event_id: e.eventId,
      event_name: null,
      source: 'server',
      user: e.user
        ? { id: e.user.id, name: e.user.name, email: e.user.email, role: e.user.role }
        : null,
      action_type: e.action,
      target_type: e.target,
      target_id: e.targetId,
      details: e.details,
      search_terms: [...(e.user ? [e.user.name, e.user.email] : []), ...detailTexts(e.details)],
      created_at: new Date(),
    });
  }

  private async write(entry: NewActivity): Promise<ActivityLogEntry | null> {
    const written = await this.deps.activity.insert({
      ...entry,
      search_text: searchText(entry.search_terms),
    });
    if (written && entry.user) await this.deps.activity.touchUser(entry.user, entry.created_at);
    return written;
  }

  /**
   * POST /activity-logs: an entry a staff client writes for an action of its user: under the
   * token's user, whatever the body names; `source: 'client'`; its details as text (an object as
   * its JSON), which the log shows as the client's words and never reads as the platform's facts
   * (old and new values, statuses); at most ACTIVITY_POSTS_PER_USER per window and user.
   */
  async create(actor: Actor, input: ActivityLogCreate): Promise<ActivityLogEntry> {
    const given = input.details ?? null;
    const details = given === null || typeof given === 'string' ? given : JSON.stringify(given);
    if (details !== null && details.length > ACTIVITY_DETAILS_MAX_CHARS)
      throw new AppError('ACTIVITY_DETAILS_TOO_LARGE', {
        params: { max: ACTIVITY_DETAILS_MAX_CHARS },
      });
    const wait = (await this.deps.postLimit?.(actor.id)) ?? 0;
    if (wait > 0) throw new AppError('RATE_LIMITED', { extra: { retry_after: wait } });
    const fromDetails =
      given && typeof given === 'object' && typeof given.target_type === 'string'
        ? given.target_type.toLowerCase()
        : undefined;
    const targetType: TargetType =
      input.target_type ??
      (TargetTypes.find((t) => t === fromDetails) as TargetType | undefined) ??
      'system';
    const written = await this.write({
      event_id: `client:${randomUUID()}`,
      event_name: null,
      source: 'client',
      user: { id: actor.id, name: actor.name, email: actor.email, role: actor.role },
      action_type: input.action_type,
      target_type: targetType,
      target_id: input.target_id ?? null,
      details,
      search_terms: [actor.name, actor.email, ...textsOf(given)],
      created_at: new Date(),
    });
    if (!written) throw new Error('a fresh client entry id collided'); // a uuid: cannot happen
    return written;
  }

  /** Turns the API's filters into database terms; refuses a range that ends before it starts. */
  toQuery(f: ActivityFilter): ActivityQuery {
    const from = f.date_from ? rangeStart(f.date_from, this.deps.timeZone) : undefined;
    const until = f.date_to ? rangeEnd(f.date_to, this.deps.timeZone) : undefined;
    if (from && until && from.getTime() >= until.getTime())
      throw new AppError('ACTIVITY_DATE_RANGE_INVALID');
    return {
      user_id: f.user_id,
      action_type: f.action_type,
      target_type: f.target_type,
      target_id: f.target_id,
      from,
      until,
      search: f.search,
    };
  }

  async list(q: ActivityLogQuery): Promise<ActivityLogPage> {
    const { entries, total } = await this.deps.activity.list(this.toQuery(q), q.page, q.limit);
    const totalPages = Math.ceil(total / q.limit);
    return {
      data: entries,
      page: q.page,
      per_page: q.limit,
      total,
      total_pages: totalPages,
      has_next: q.page < totalPages,
    };
  }

  async stats(f: ActivityFilter): Promise<ActivityStats> {
    const { total, byAction, byTarget, byUser } = await this.deps.activity.counts(this.toQuery(f));
    const users = await this.deps.activity.usersById(
      byUser.map((u) => u.user_id).filter((id): id is number => id !== null),
    );
    const byCount = <T extends { count: number }>(a: T, b: T) => b.count - a.count;
    return {
      date_from: f.date_from ?? null,
      date_to: f.date_to ?? null,
      total,
      by_action_type: byAction.sort(
        (a, b) => byCount(a, b) || a.action_type.localeCompare(b.action_type),
      ),
      by_target_type: byTarget.sort(
        (a, b) => byCount(a, b) || a.target_type.localeCompare(b.target_type),
      ),
      by_user: byUser
        .map((r) => {
          const u = r.user_id === null ? undefined : users.get(r.user_id);
          return {
            user_id: r.user_id,
            user_name: u?.name ?? null,
            user_email: u?.email ?? null,
            count: r.count,
          };
        })
        .sort((a, b) => byCount(a, b) || (a.user_id ?? 0) - (b.user_id ?? 0)),
    };
  }

  async users(): Promise<ActivityUsers> {
    return { data: await this.deps.activity.users() };
  }

  /**
   * The CSV export as text pieces (BOM and header first), newest entry first; refuses a bad
   * date range at once, before any byte.
   */
  exportCsv(f: ActivityFilter): AsyncGenerator<CsvPiece> {
    return this.csv.pieces(this.toQuery(f));
  }

  /** Stores the export's rows of closed months not stored yet or stale; answers how many. */
  storeClosedMonths(): Promise<number> {
    return this.csv.storeClosedMonths();
  }

  /** Exports hold personal data: each one is itself logged, with its filters and row count. */
  async recordExport(
    actor: Actor,
    f: ActivityFilter,
    rows: number,
    completed: boolean,
  ): Promise<void> {
    const filters = Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined));
    await this.write({
      event_id: `export:${randomUUID()}`,
      event_name: null,
      source: 'server',
      user: { id: actor.id, name: actor.name, email: actor.email, role: actor.role },
      action_type: 'EXPORT',
      target_type: 'system',
      target_id: null,
      details: { format: 'csv', filters, rows, completed },
      search_terms: [actor.name, actor.email, 'export', 'csv'],
      created_at: new Date(),
    });
  }
}
