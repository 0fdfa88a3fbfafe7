import type { AdminCategory } from './api/categories-api';

/**
 * The number in a refusal like "Cannot delete category: 3 lots are associated with it"
 * (back-office §8), or null for any other message.
 */
export function associatedLotCount(message: string | undefined): number | null {
  const match = /(\d+)\s+lots?\s+(?:are|is)\s+associated/i.exec(message ?? '');
  return match ? Number(match[1]) : null;
}

/** Search over both names and the German description (back-office §2 Categories list). */
export function matchesCategory(category: AdminCategory, search: string): boolean {
  const needle = search.trim().toLocaleLowerCase('de');
  if (!needle) return true;
  return [category.name.de, category.name.uk, category.description.de].some((text) =>
    text.toLocaleLowerCase('de').includes(needle),
  );
}
