import type { TFunction } from 'i18next';
import type { ActivityLogEntry } from '@furniture/contracts/api/activity';
import { dayOf } from '../../lib/dates';

/** The filters of the panel (kept as activity-log); applied to the loaded page. */
export interface ActivityFilters {
  actionType: string;
  userId: string;
  dateFrom: string;
  dateTo: string;
}

export const NO_FILTERS: ActivityFilters = { actionType: '', userId: '', dateFrom: '', dateTo: '' };

/** Action types come in upper case from our server; the spec also knows lower case. */
export const actionOf = (entry: Pick<ActivityLogEntry, 'action_type'>) =>
  String(entry.action_type).toUpperCase();

export function matchesFilters(entry: ActivityLogEntry, filters: ActivityFilters): boolean {
  if (filters.actionType && actionOf(entry) !== filters.actionType) return false;
  if (filters.userId && String(entry.user_id ?? '') !== filters.userId) return false;
  const day = dayOf(entry.created_at);
  if (filters.dateFrom && day < filters.dateFrom) return false;
  if (filters.dateTo && day > filters.dateTo) return false;
  return true;
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() ? v : undefined;

function nameOf(details: Record<string, unknown>, lang: 'de' | 'uk'): string | undefined {
  for (const key of ['name', 'lot_name']) {
    const value = details[key];
    if (text(value)) return value as string;
    if (value && typeof value === 'object') {
      const named = value as Record<string, unknown>;
      const found = text(named[lang]) ?? text(named.de) ?? text(named.uk);
      if (found) return found;
    }
  }
  return undefined;
}

/** A changed value in a few characters; lists (photo addresses) by their length. */
function short(value: unknown, t: TFunction): string {
  if (value === null || value === undefined || value === '') return '–';
  if (Array.isArray(value)) return t('activity.describe.items', { n: value.length });
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/**
 * What happened, in words, from an entry's details (back-office §2 Activity log): the target's
 * name, the applicant or donor, a status change, the reason, changed fields, the lot made of a donated item, the
 * queue place, the photo, the note. A text detail is shown as it is.
 */
export function describeActivity(entry: ActivityLogEntry, t: TFunction, lang: 'de' | 'uk'): string {
  const details = entry.details;
  if (typeof details === 'string') return details;
  if (!details) return '';
  const d = details;
  const status = (s: unknown) =>
    typeof s === 'string' ? t(`activity.status.${s}`, { defaultValue: s }) : '';
  const parts: string[] = [];
  const name = nameOf(d, lang);
  if (name) parts.push(`„${name}“`);
  if (text(d.applicant_name))
    parts.push(t('activity.describe.applicant', { name: d.applicant_name }));
  if (text(d.donor_name)) parts.push(t('activity.describe.donor', { name: d.donor_name }));
  if (entry.target_type === 'user' && text(d.user_name))
    parts.push(
      `${d.user_name as string}${text(d.user_email) ? ` (${d.user_email as string})` : ''}`,
    );
  if (d.old_status !== undefined && d.new_status !== undefined) {
    parts.push(
      t('activity.describe.statusChange', { from: status(d.old_status), to: status(d.new_status) }),
    );
  } else if (d.new_status !== undefined) {
    parts.push(t('activity.describe.status', { status: status(d.new_status) }));
  }
  if (text(d.reason))
    parts.push(
      t('activity.describe.reason', {
        reason: t(`activity.reason.${d.reason as string}`, { defaultValue: d.reason as string }),
      }),
    );
  if (d.old_value && d.new_value && typeof d.new_value === 'object') {
    const old = d.old_value as Record<string, unknown>;
    const changes = Object.entries(d.new_value as Record<string, unknown>).map(
      ([field, value]) =>
        `${t(`activity.field.${field}`, { defaultValue: field })}: ${short(old[field], t)} → ${short(value, t)}`,
    );
    if (changes.length > 0)
      parts.push(t('activity.describe.changes', { changes: changes.join('; ') }));
  }
  if (entry.target_type === 'donation' && typeof d.lot_id === 'number')
    parts.push(t('activity.describe.lotFromItem', { lot: d.lot_id, item: d.item_id }));
  if (typeof d.queue_position === 'number')
    parts.push(t('activity.describe.queue', { n: d.queue_position }));
  if (typeof d.photo_id === 'number') parts.push(t('activity.describe.photo', { id: d.photo_id }));
  if (text(d.note)) parts.push(t('activity.describe.note', { note: d.note }));
  if (typeof d.rows === 'number') parts.push(t('activity.describe.rows', { n: d.rows }));
  // the warehouse (issue 45): a move between places, the item scanned at a handover
  if (actionOf(entry) === 'LOT_MOVE')
    parts.push(
      t('activity.describe.move', {
        from: text(d.from_place) ? d.from_place : '–',
        to: text(d.to_place) ? d.to_place : '–',
      }),
    );
  if (actionOf(entry) === 'HANDOVER_ITEM_CHECK') {
    const scanned = nameOf({ name: d.scanned_lot_name }, lang);
    parts.push(
      d.match === true
        ? t('activity.describe.itemMatch', { code: d.code })
        : t(
            d.confirmed === true
              ? 'activity.describe.itemConfirmed'
              : 'activity.describe.itemWrong',
            {
              code: d.code,
              lot:
                typeof d.scanned_lot_id === 'number'
                  ? `Lot #${d.scanned_lot_id}${scanned ? ` „${scanned}“` : ''}`
                  : t('activity.describe.noLot'),
            },
          ),
    );
  }
  return parts.join(' · ');
}
