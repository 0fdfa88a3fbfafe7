import { saveBlob } from '../../lib/download';

/**
 * The data export's file name: the day, never the number (downloads folders are synced and
 * listed; the number stays inside the file).
 */
export function exportFileName(at: Date): string {
  return `personenbezogene-daten-${at.toISOString().slice(0, 10)}.json`;
}

/** Saves an object as a pretty-printed JSON file. */
export function saveJson(name: string, data: unknown): void {
  saveBlob(
    name,
    new Blob([JSON.stringify(data, null, 2)], { type: 'application/json;charset=utf-8' }),
  );
}
