import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ChevronDown, Heart, LayoutGrid, Loader2, SearchX } from 'lucide-react';
import { isApiError } from '../../../app/api';
import { Breadcrumb } from '../../../components/Breadcrumb';
import { ErrorState } from '../../../components/ErrorState';
import { Spinner } from '../../../components/Spinner';
import { useLanguage } from '../../../lib/language';
import { localize } from '../../../lib/localized';
import { useOpenWishDialog } from '../../../lib/wish-dialog';
import {
  useCategories,
  useGetLotsByCategoryInfiniteQuery,
  type PublicLot,
} from '../api/catalog-api';
import { CATEGORY_PAGE_SIZE } from '../lib/category-page';
import { GRID_COLUMNS } from './CategoryGrid';
import { LotCard } from './LotCard';

/**
 * /categories/{categoryId}: the lots of one category (the id may also be a known slug), the
 * first CATEGORY_PAGE_SIZE of them, then the next ones by "Show more" (docs/decisions.md
 * "Paging a category").
 */
export default function CategoryLotsPage() {
  const { t } = useTranslation('public');
  const lang = useLanguage();
  const { categoryId = '' } = useParams();
  const { data: categories, isError: categoriesFailed } = useCategories();
  // the list waits for the category too: its title and description, arriving later, would push
  // the cards down (Lighthouse: a layout shift of the list)
  const categoriesSettled = categories !== undefined || categoriesFailed;
  const lots = useGetLotsByCategoryInfiniteQuery(categoryId);
  const pages = lots.data?.pages;
  const shown = pages?.flatMap((page) => page.lots);
  // the newest page's count (lots added or archived meanwhile change it)
  const total = pages?.[pages.length - 1]?.total ?? null;

  const ref = categoryId.trim().toLowerCase();
  const category = categories?.find((c) => String(c.id) === ref || c.slug === ref);
  const name = category ? localize(category.name, lang) : null;
  const description = category ? localize(category.description, lang) : null;
  const title = name?.text || t('categoryLots.fallbackTitle');
  const unknown =
    isApiError(lots.error) &&
    (lots.error.status === 404 ||
      lots.error.code === 'CATEGORY_INVALID_ID' ||
      lots.error.code === 'CATEGORY_NOT_FOUND');

  return (
    <div className="container-page py-6 sm:py-8">
      <title>{`${title} – ${t('common:app.name')}`}</title>
      <Breadcrumb
        items={[
          { label: t('common:nav.home'), to: '/' },
          { label: t('categories.title'), to: '/categories' },
          { label: title, lang: name?.lang },
        ]}
      />
      <h1 lang={name?.lang} className="mt-4 text-2xl font-bold sm:text-3xl">
        {title}
      </h1>
      {description?.text && (
        <p lang={description.lang} className="mt-2 max-w-2xl text-slate-700">
          {description.text}
        </p>
      )}

      <div className="mt-6">
        {lots.isLoading || !categoriesSettled ? (
          <Spinner label={t('categoryLots.loading')} />
        ) : unknown ? (
          <CategoryNotFound />
        ) : lots.isError && !lots.data ? (
          <ErrorState
            message={t('categoryLots.loadError')}
            onRetry={() => void lots.refetch()}
            retrying={lots.isFetching}
          />
        ) : shown && shown.length > 0 ? (
          <LotList
            lots={shown}
            total={total}
            hasMore={lots.hasNextPage}
            loadingMore={lots.isFetchingNextPage}
            failed={lots.isFetchNextPageError}
            onMore={() => void lots.fetchNextPage()}
          />
        ) : (
          <EmptyLots />
        )}
      </div>
    </div>
  );
}

/**
 * The cards shown so far, how many of how many, and "Show more" while there are more. A new page
 * moves the focus to its first card (the keyboard goes on where the reader stopped); the count,
 * a polite live region, says how many are shown now. While the page loads the button says so and
 * keeps the focus; when it fails, an alert says so and the button tries again.
 */
function LotList({
  lots,
  total,
  hasMore,
  loadingMore,
  failed,
  onMore,
}: {
  lots: PublicLot[];
  total: number | null;
  hasMore: boolean;
  loadingMore: boolean;
  failed: boolean;
  onMore: () => void;
}) {
  const { t } = useTranslation('public');
  const list = useRef<HTMLUListElement>(null);
  // the index of the first card of the page asked for, until it is shown
  const focusFrom = useRef<number | null>(null);

  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || lots.length <= from) return;
    focusFrom.current = null;
    list.current?.children[from]?.querySelector<HTMLElement>('a')?.focus();
  }, [lots.length]);

  const more = () => {
    if (loadingMore) return;
    focusFrom.current = lots.length;
    onMore();
  };
  // counted only where there are more lots than one page: "24 von 625 Lots"
  const counted = total !== null && (hasMore || lots.length > CATEGORY_PAGE_SIZE);

  return (
    <>
      <ul ref={list} className={GRID_COLUMNS}>
        {lots.map((lot, i) => (
          <li key={lot.id}>
            <LotCard lot={lot} priority={i < 2} />
          </li>
        ))}
      </ul>
      {/* the live region stays in place (an empty one takes no room) so that it is announced */}
      <div className={counted || hasMore ? 'mt-8 flex flex-col items-center gap-3' : ''}>
        <p role="status" className="text-slate-700">
          {counted
            ? t('categoryLots.shownOfTotal', {
                count: lots.length,
                total: Math.max(total, lots.length),
              })
            : ''}
        </p>
        {failed && (
          <p role="alert" className="font-medium text-red-800">
            {t('categoryLots.moreError')}
          </p>
        )}
        {hasMore && (
          <button
            type="button"
            className="btn-secondary"
            onClick={more}
            aria-disabled={loadingMore || undefined}
          >
            {loadingMore ? (
              <Loader2
                aria-hidden="true"
                className="size-4 animate-spin motion-reduce:animate-none"
              />
            ) : (
              <ChevronDown aria-hidden="true" className="size-4" />
            )}
            {loadingMore
              ? t('categoryLots.loadingMore')
              : failed
                ? t('common:actions.retry')
                : t('categoryLots.showMore')}
          </button>
        )}
      </div>
    </>
  );
}

/** No lots: the message, a hint to check back later and two tips (public-site §2). */
function EmptyLots() {
  const { t } = useTranslation('public');
  const openWish = useOpenWishDialog();
  return (
    <div className="card px-4 py-8 text-center sm:px-8">
      <SearchX aria-hidden="true" className="mx-auto size-10 text-slate-500" />
      <h2 className="mt-3 text-xl font-semibold">{t('categoryLots.emptyTitle')}</h2>
      <p className="mt-2 text-slate-700">{t('categoryLots.emptyHint')}</p>
      <ul className="mx-auto mt-6 grid max-w-2xl gap-3 text-left sm:grid-cols-2">
        <li className="rounded-lg bg-slate-50 p-4">
          <p className="font-medium">{t('categoryLots.tipWish')}</p>
          <button type="button" className="btn-accent mt-3" onClick={openWish}>
            <Heart aria-hidden="true" className="size-4" />
            {t('common:wish.button')}
          </button>
        </li>
        <li className="rounded-lg bg-slate-50 p-4">
          <p className="font-medium">{t('categoryLots.tipOtherCategories')}</p>
          <Link to="/categories" className="btn-secondary mt-3">
            <LayoutGrid aria-hidden="true" className="size-4" />
            {t('categoryLots.allCategories')}
          </Link>
        </li>
      </ul>
    </div>
  );
}

function CategoryNotFound() {
  const { t } = useTranslation('public');
  return (
    <div className="card px-4 py-8 text-center">
      <h2 className="text-xl font-semibold">{t('categoryLots.notFoundTitle')}</h2>
      <p className="mt-2 text-slate-700">{t('categoryLots.notFoundText')}</p>
      <Link to="/categories" className="btn-primary mt-4">
        {t('categoryLots.allCategories')}
      </Link>
    </div>
  );
}
