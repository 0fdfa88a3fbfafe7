/** One button of a numbered pagination: a page number or a gap. */
export type PageItem = number | 'gap';

/**
 * The pages a numbered pagination shows (back-office §2 Lots list): the first and the last page,
 * `siblings` pages on each side of the current one, and a gap where pages are left out. A gap
 * that would hide a single page shows that page instead.
 */
export function pageWindow(current: number, total: number, siblings: number): PageItem[] {
  if (total <= 0) return [];
  const page = Math.min(Math.max(1, current), total);
  const from = Math.max(1, page - siblings);
  const to = Math.min(total, page + siblings);
  const items: PageItem[] = [];
  if (from > 1) {
    items.push(1);
    if (from === 3) items.push(2);
    else if (from > 3) items.push('gap');
  }
  for (let p = from; p <= to; p++) items.push(p);
  if (to < total) {
    if (to === total - 2) items.push(total - 1);
    else if (to < total - 2) items.push('gap');
    items.push(total);
  }
  return items;
}

/** 'Zeige x bis y von n': the first and last item of a page (0 and 0 when there is none). */
export function pageRange(page: number, pageSize: number, total: number) {
  if (total <= 0) return { from: 0, to: 0 };
  const from = (page - 1) * pageSize + 1;
  return { from: Math.min(from, total), to: Math.min(page * pageSize, total) };
}

export const pageCount = (total: number, pageSize: number) =>
  Math.max(1, Math.ceil(total / pageSize));
