/**
 * The data export's file name: the day, never the number (downloads folders are synced and
 * listed; the number stays inside the file).
 */
export function exportFileName(at: Date): string {
  return `personenbezogene-daten-${at.toISOString().slice(0, 10)}.json`;
}

/** Saves an object as a pretty-printed JSON file through a temporary download link. */
export function saveJson(name: string, data: unknown): void {
  const url = URL.createObjectURL(
    new Blob([JSON.stringify(data, null, 2)], { type: 'application/json;charset=utf-8' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
