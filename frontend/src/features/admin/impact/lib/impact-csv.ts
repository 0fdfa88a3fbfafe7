import { stringify } from 'csv-stringify/browser/esm/sync';

/**
 * One chart's data as a CSV file the way German spreadsheet programs open it: semicolons, a
 * byte-order mark for the umlauts, and no cell that a spreadsheet would run as a formula.
 */
export function toCsv(header: string[], rows: (string | number)[][]): string {
  const safe = (v: string | number) =>
    typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return `\uFEFF${stringify([header, ...rows.map((r) => r.map(safe))], { delimiter: ';' })}`;
}

/** Saves a text as a file through a temporary download link. */
export function saveFile(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
