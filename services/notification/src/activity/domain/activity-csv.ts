import { createHash } from 'node:crypto';
import { ActionTypes, TargetTypes, type ActivityLogEntry } from '@furniture/contracts';
import { stringify } from 'csv-stringify/sync';
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

/** How the export writes its rows: the office's time zone and the configured delimiter. */
export interface CsvFormat {
  timeZone: string;
  delimiter: string;
}

const options = (f: CsvFormat) => ({
  delimiter: f.delimiter,
  record_delimiter: 'windows' as const,
});

/**
 * The start of every export: the BOM (spreadsheet programs read the file as UTF-8, Ukrainian
 * names, only with it) and the header line.
 */
export function csvHead(f: CsvFormat): string {
  return stringify([], { ...options(f), bom: true, header: true, columns: csvColumns });
}

/**
 * Rows of the export as text, each ending in CRLF. A row's text does not depend on its neighbours,
 * so the texts of consecutive runs of entries, concatenated, are the text of all of them (what a
 * month's stored rows rely on).
 */
export function csvText(entries: ActivityLogEntry[], f: CsvFormat): string {
  return stringify(
    entries.map((e) => csvRow(e, f.timeZone)),
    options(f),
  );
}

/**
 * Raise when csvRow or describeDe change what they write for the same entry in a way the sample
 * entries below might miss: the stored month rows (activity-export.ts) of an older format are
 * then rendered again instead of being sent.
 */
const CSV_FORMAT_VERSION = 1;

/**
 * A fingerprint of everything a stored row depends on besides the entry: the format version, the
 * time zone, the delimiter, the columns, the labels, and the rows written for sample entries of
 * every action and target type (a changed label or sentence changes it without a version bump).
 */
export function csvFingerprint(f: CsvFormat): string {
  const at = new Date(Date.UTC(2024, 2, 31, 0, 30, 5)).toISOString();
  const samples: ActivityLogEntry[] = ActionTypes.flatMap((action_type, i) =>
    TargetTypes.map((target_type, j) => ({
      id: i * 100 + j,
      user_id: 7,
      user_name: '=Anna',
      user_email: 'anna@example.org',
      user_role: 'admin' as const,
      action_type,
      target_type,
      target_id: j,
      details: {
        name: { de: 'Schrank', uk: 'Шафа' },
        applicant_name: 'Олена',
        old_status: 'pending',
        new_status: 'approved',
        reason: 'competitor_approved',
        queue_position: 2,
        note: 'a;b "c"',
        rows: 3,
        pickup_by: '2024-04-01',
        old_value: { pickup_by: '2024-03-30' },
        new_value: { pickup_by: '2024-04-01' },
      },
      source: j % 2 === 0 ? ('server' as const) : ('client' as const),
      created_at: at,
    })),
  );
  return createHash('sha256')
    .update(
      JSON.stringify([
        CSV_FORMAT_VERSION,
        f.timeZone,
        f.delimiter,
        csvColumns,
        ActionLabelsDe,
        TargetLabelsDe,
        RoleLabelsDe,
      ]),
    )
    .update(csvHead(f))
    .update(csvText(samples, f))
    .digest('hex')
    .slice(0, 32);
}
