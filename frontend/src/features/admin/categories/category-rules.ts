import type { TFunction } from 'i18next';
import type { AdminCategory } from './api/categories-api';

/**
 * The lot count staff see: every lot that holds the category (the number the delete refusal
 * counts), with the archived ones named when there are any.
 */
export function categoryLotCountText(
  t: TFunction,
  category: Pick<AdminCategory, 'lotCount' | 'archivedLotCount'>,
): string {
  return category.archivedLotCount > 0
    ? t('categories.lotCountWithArchived', {
        n: category.lotCount + category.archivedLotCount,
        archived: category.archivedLotCount,
      })
    : t('categories.lotCount', { n: category.lotCount });
}

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
