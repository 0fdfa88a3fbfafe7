import { useTranslation } from 'react-i18next';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { NARROW_SCREEN, useMediaQuery } from '../lib/media-query';
import { pageCount, pageRange, pageWindow } from '../lib/page-window';

/**
 * Numbered pages with gaps: 2 pages on each side of the current one, 1 on screens narrower than
 * 640 px (back-office §2 Lots list), and the line 'Zeige x bis y von n …'.
 */
export function Pagination({
  page,
  total,
  pageSize,
  onPage,
  rangeKey,
}: {
  page: number;
  total: number;
  pageSize: number;
  onPage: (page: number) => void;
  /** translation key of the range line, with from, to and total */
  rangeKey: string;
}) {
  const { t } = useTranslation('admin');
  const narrow = useMediaQuery(NARROW_SCREEN);
  const pages = pageCount(total, pageSize);
  const { from, to } = pageRange(page, pageSize, total);
  const items = pageWindow(page, pages, narrow ? 1 : 2);
  if (total === 0) return null;
  return (
    <div className="mt-4 flex flex-col items-center gap-3 sm:flex-row sm:justify-between">
      <p className="text-sm text-slate-700">{t(rangeKey, { from, to, total })}</p>
      {pages > 1 && (
        <nav aria-label={t('ui.pagination')}>
          <ul className="flex items-center gap-1">
            <li>
              <button
                type="button"
                className="inline-flex size-10 items-center justify-center rounded-lg border border-slate-300 bg-white disabled:opacity-40"
                onClick={() => onPage(page - 1)}
                disabled={page <= 1}
                aria-label={t('ui.previousPage')}
              >
                <ChevronLeft aria-hidden="true" className="size-5" />
              </button>
            </li>
            {items.map((item, i) =>
              item === 'gap' ? (
                <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-slate-600">
                  …
                </li>
              ) : (
                <li key={item}>
                  <button
                    type="button"
                    onClick={() => onPage(item)}
                    aria-current={item === page ? 'page' : undefined}
                    aria-label={t('ui.pageN', { page: item })}
                    className={`inline-flex h-10 min-w-10 items-center justify-center rounded-lg border px-2 font-semibold ${
                      item === page
                        ? 'border-blue-800 bg-blue-800 text-white'
                        : 'border-slate-300 bg-white text-slate-900 hover:bg-slate-100'
                    }`}
                  >
                    {item}
                  </button>
                </li>
              ),
            )}
            <li>
              <button
                type="button"
                className="inline-flex size-10 items-center justify-center rounded-lg border border-slate-300 bg-white disabled:opacity-40"
                onClick={() => onPage(page + 1)}
                disabled={page >= pages}
                aria-label={t('ui.nextPage')}
              >
                <ChevronRight aria-hidden="true" className="size-5" />
              </button>
            </li>
          </ul>
        </nav>
      )}
    </div>
  );
}

/** Previous / next with 'Seite x von y' (applications, activity log, users). */
export function PrevNextPager({
  page,
  pages,
  onPage,
  label,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  /** the line between the buttons; 'Seite x von y' when left out */
  label?: string;
}) {
  const { t } = useTranslation('admin');
  if (pages <= 1 && !label) return null;
  return (
    <nav aria-label={t('ui.pagination')} className="mt-4 flex items-center justify-between gap-3">
      <button
        type="button"
        className="btn-secondary"
        onClick={() => onPage(page - 1)}
        disabled={page <= 1}
      >
        <ChevronLeft aria-hidden="true" className="size-4" />
        {t('ui.previous')}
      </button>
      <p className="text-center text-sm text-slate-700">
        {label ?? t('ui.pageOf', { page, pages })}
      </p>
      <button
        type="button"
        className="btn-secondary"
        onClick={() => onPage(page + 1)}
        disabled={page >= pages}
      >
        {t('ui.next')}
        <ChevronRight aria-hidden="true" className="size-4" />
      </button>
    </nav>
  );
}
