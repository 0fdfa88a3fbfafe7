/**
 * An address on OpenStreetMap (a search: no coordinates are kept). A link the person follows;
 * the page loads nothing from there.
 */
export function osmSearchLink(...parts: (string | null | undefined)[]): string {
  const query = parts
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(', ');
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(query)}`;
}
