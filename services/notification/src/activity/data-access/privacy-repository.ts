import type { StoredCollection } from '@furniture/platform';
import type { StoredRecord, TargetType } from '@furniture/contracts';
import { isoDates, type PersonIds } from '../../privacy/domain/privacy-service';
import { detailTexts, searchText } from '../domain/activity-mapping';
import type { ExportMonthStore } from './export-month-store';
import { parseDetails, type ActivityDoc } from './models';

/**
 * The details an activity entry about an erased application, wish or donation keeps: what
 * happened to which lot or donation, when, and why; never who the family or the donor was or what
 * anyone wrote about it.
 */
const KEPT_DETAILS = new Set([
  'lot_id',
  'lot_name',
  'name',
  'status',
  'old_status',
  'new_status',
  'reason',
  'lot_status',
  'queue_position',
  'pickup_by',
  'channel',
  'actor',
  'furniture_category',
  'category_id',
  'application_id',
  'after_application_id',
  'auto_approved',
  'application_ids',
  'wish_ids',
  'donation_ids',
  // donations
  'cause',
  'item_count',
  'category_ids',
  'available_until',
  'item_id',
  // handovers (issue 29): the slot and its outcome, never the staff's note
  'handover_id',
  'kind',
  'slot_id',
  'starts_at',
  'location',
  'by',
  'outcome',
  'moved_from_slot_id',
  // who referred the family (issue 44): the agency and its referrer, not the family's data
  'referral_id',
  'agency_id',
  'agency',
  'referrer_id',
  'referrer',
]);

/**
 * A kept detail that is free text in some entries: a donation's reason is the staff's own words
 * (an application's, and an erasure's, is one of the contracts' reasons).
 */
const isFreeText = (key: string, entry?: Pick<ActivityDoc, 'target_type' | 'action_type'>) =>
  key === 'reason' && entry?.target_type === 'donation' && entry.action_type !== 'ERASE';

/** Only what is in KEPT_DETAILS (old/new values: only the pickup date). */
export function scrubDetails(
  details: unknown,
  entry?: Pick<ActivityDoc, 'target_type' | 'action_type'>,
): Record<string, unknown> | null {
  if (!details || typeof details !== 'object' || Array.isArray(details)) return null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details as Record<string, unknown>)) {
    if (KEPT_DETAILS.has(key) && !isFreeText(key, entry)) out[key] = value;
    else if ((key === 'old_value' || key === 'new_value') && value && typeof value === 'object') {
      const kept = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).filter(([k]) => k === 'pickup_by'),
      );
      if (Object.keys(kept).length > 0) out[key] = kept;
    }
  }
  return out;
}

/**
 * The months an entry's export rows may be stored under: its day's; an entry of an older version
 * has none, and its month in the office's zone is one of those of the UTC
 * days 14 hours around it.
 */
function monthsOf(e: Pick<ActivityDoc, 'created_at' | 'day'>): string[] {
  if (e.day) return [e.day.slice(0, 7)];
  const t = e.created_at.getTime();
  const HOURS14 = 14 * 3600 * 1000;
  return [t - HOURS14, t + HOURS14].map((x) => new Date(x).toISOString().slice(0, 7));
}

/**
 * The activity entries about a family's applications and wishes and a donor's donations (the log
 * never stores the phone number), found by their ids.
 */
export class ActivityPrivacyRepository {
  private readonly stored: StoredCollection<ActivityDoc>;

  constructor(
    /** the log as activity-repository.ts declared it (one declaration: its counts follow updates) */
    entries: StoredCollection<ActivityDoc>,
    /** the CSV export's stored months (activity-repository.ts) */
    private readonly exportMonths: ExportMonthStore,
  ) {
    this.stored = entries;
  }

  private get activity() {
    return this.stored.collection;
  }

  private activityFilter(ids: PersonIds) {
    const or: { target_type: TargetType; target_id: { $in: number[] } }[] = [];
    const by = (target_type: TargetType, list: number[]) => {
      if (list.length > 0) or.push({ target_type, target_id: { $in: list } });
    };
    by('application', ids.applicationIds);
    by('wish', ids.wishIds);
    by('donation', ids.donationIds);
    return or.length > 0 ? { $or: or } : null;
  }

  /** The activity entries of these applications, wishes and donations, oldest first. */
  async find(ids: PersonIds): Promise<StoredRecord[]> {
    const filter = this.activityFilter(ids);
    if (!filter) return [];
    const activity = await this.activity.find(filter).sort({ id: 1 }).toArray();
    return activity.map(({ _id, details_json, ...rest }) =>
      isoDates({ ...rest, details: parseDetails(details_json) }, ['search_text', 'day']),
    );
  }

  /**
   * Strips the family's or donor's details from the activity entries of these applications, wishes
   * and donations. The entries stay (who did what when, the counts); answers how many were changed.
   */
  async erase(ids: PersonIds): Promise<number> {
    const filter = this.activityFilter(ids);
    if (!filter) return 0;
    let activity = 0;
    const entries = await this.activity
      .find(filter, {
        projection: {
          _id: 1,
          target_type: 1,
          action_type: 1,
          details_json: 1,
          user_name: 1,
          user_email: 1,
          source: 1,
          created_at: 1,
          day: 1,
        },
      })
      .toArray();
    for (const entry of entries) {
      // plain text from a staff client is dropped
      const details = scrubDetails(parseDetails(entry.details_json), entry);
      const detailsJson = details === null ? null : JSON.stringify(details);
      if (detailsJson === entry.details_json) continue;
      const words = [entry.user_name ?? '', entry.user_email ?? '', ...detailTexts(details)];
      await this.stored.update(
        { _id: entry._id },
        { $set: { details_json: detailsJson, search_text: searchText(words) } },
      );
      activity++;
    }
    // the CSV export's stored rows of these entries' months are rendered again; every month
    // found, stripped now or before (a redelivery after a crash between the two finds nothing
    // left to strip, but the stamps may not have been written)
    await this.exportMonths.markErased(entries.flatMap(monthsOf));
    return activity;
  }
}
