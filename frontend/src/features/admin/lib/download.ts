/**
 * Hands a file to the browser's downloads through a temporary link (the activity export, the
 * impact charts' CSV, a family's data as JSON). The address is released a moment later: some
 * browsers read it only after the click's task.
 */
export function saveBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
