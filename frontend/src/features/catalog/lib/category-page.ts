/*
 * The pages of a category's lots (docs/decisions.md "Paging a category"). No imports: the boot
 * script (src/boot) asks for the first page with these same words, before the app arrives.
 */

/** Lots per page: the grid's 1, 2, 3, 4 and 6 columns all divide it into full rows. */
export const CATEGORY_PAGE_SIZE = 24;

/**
 * GET path of a page of the category's lots: the first page, or the page after the lot with id
 * `beforeId` (the last lot shown). The boot script's early call and the page's own call must be
 * the same address, or the early answer is wasted.
 */
export function categoryLotsPath(ref: string, beforeId?: number | null): string {
  const after = beforeId ? `&before_id=${beforeId}` : '';
  return `/lots/category/${encodeURIComponent(ref)}?limit=${CATEGORY_PAGE_SIZE}${after}`;
}
