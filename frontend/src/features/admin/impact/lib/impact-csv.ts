import { stringify } from 'csv-stringify/browser/esm/sync';
import { saveBlob } from '../../lib/download';

/**
 * One chart's data as a CSV file the way German spreadsheet programs open it: semicolons, a
 * byte-order mark for the umlauts, and no cell that a spreadsheet would run as a formula.
 */
export function toCsv(header: string[], rows: (string | number)[][]): string {
  const safe = (v: string | number) =>
    typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return `\uFEFF${stringify([header, ...rows.map((r) => r.map(safe))], { delimiter: ';' })}`;
}

/** Saves a CSV text as a file. */
export function saveFile(name: string, text: string): void {
  saveBlob(name, new Blob([text], { type: 'text/csv;charset=utf-8' }));
}
