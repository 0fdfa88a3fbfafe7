import type { ActivityLogEntry } from '@furniture/contracts';
import { ActionLabelsDe, RoleLabelsDe, TargetLabelsDe, describeDe } from './activity-describe';
import { formatLocal } from '@furniture/platform/domain';

/** Column headers of the CSV export, German like the back-office. */
export const csvColumns = [
  'ID',
  'Zeitpunkt',
  'Zeitpunkt (UTC)',
  'Aktion',
  'Aktionstyp',
  'Ziel',
  'Zieltyp',
  'Ziel-ID',
  'Benutzer-ID',
  'Benutzer',
  'E-Mail',
  'Rolle',
  'Beschreibung',
  'Details',
  'Quelle',
];

/**
 * A text that starts like a formula would be run by a spreadsheet program (CSV injection);
 * names and notes come from the public, so such cells get a leading apostrophe.
 */
export function safeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** One row of the CSV export. */
export function csvRow(e: ActivityLogEntry, timeZone: string): string[] {
  const details =
    e.details === null ? '' : typeof e.details === 'string' ? e.details : JSON.stringify(e.details);
  return [
    String(e.id),
    formatLocal(new Date(e.created_at), timeZone),
    e.created_at,
    ActionLabelsDe[e.action_type],
    e.action_type,
    TargetLabelsDe[e.target_type],
    e.target_type,
    e.target_id === null ? '' : String(e.target_id),
    e.user_id === null ? '' : String(e.user_id),
    safeCell(e.user_name ?? ''),
    safeCell(e.user_email ?? ''),
    e.user_role ? RoleLabelsDe[e.user_role] : '',
    safeCell(describeDe(e)),
    safeCell(details),
    e.source === 'client' ? 'Back-Office' : 'System',
  ];
}
