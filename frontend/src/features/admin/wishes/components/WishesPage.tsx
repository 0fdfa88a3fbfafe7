import { useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HeartOff } from 'lucide-react';
import { WishStatuses } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { ErrorState } from '../../../../components/ErrorState';
import { Spinner } from '../../../../components/Spinner';
import { useLanguage } from '../../../../lib/language';
import { useDebouncedValue } from '../../../../lib/use-debounced-value';
import { useGetAdminCategoriesQuery } from '../../categories';
import { formatDate } from '../../lib/dates';
import { errorText } from '../../lib/errors';
import { pageCount, pageRange } from '../../lib/page-window';
import { FilterInput, FilterSelect, RefreshButton } from '../../ui/Filters';
import { EmptyState, PageHeader } from '../../ui/PageHeader';
import { PrevNextPager } from '../../ui/Pagination';
import { WishStatusBadge } from '../../ui/StatusBadges';
import {
  WISHES_PAGE_SIZE,
  useGetWishesQuery,
  type Wish,
  type WishFilters,
} from '../api/wishes-api';
import { truncate } from '../lib/wish-rules';

/** /admin/wishes (back-office §2 Wishes list). */
export default function WishesPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const navigate = useNavigate();
  const [filters, setFilters] = useState<WishFilters>({ status: '', category: '', search: '' });
  const [page, setPage] = useState(1);
  const search = useDebouncedValue(filters.search, Limits.searchDebounceMs);
  const wishes = useGetWishesQuery({ ...filters, search, page });
  const categories = useGetAdminCategoriesQuery();
  const total = wishes.data?.total ?? 0;
  const { from, to } = pageRange(page, WISHES_PAGE_SIZE, total);
  const categoryName = (id: number) =>
    categories.data?.find((c) => c.id === id)?.name.de ?? `#${id}`;

  const change = (patch: Partial<WishFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };
  const open = (wish: Wish) => void navigate(`/admin/wishes/${wish.id}`);
  const onKey = (e: KeyboardEvent, wish: Wish) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open(wish);
    }
  };
  const list = wishes.data?.wishes ?? [];

  return (
    <div>
      <PageHeader
        title={t('wishes.title')}
        description={t('wishes.lead')}
        actions={<RefreshButton onClick={() => void wishes.refetch()} busy={wishes.isFetching} />}
      />
      <div className="card mb-4 grid gap-3 p-4 sm:grid-cols-2 lg:grid-cols-[12rem_16rem_1fr]">
        <FilterSelect
          label={t('wishes.status')}
          value={filters.status}
          onChange={(value) => change({ status: value as WishFilters['status'] })}
          options={WishStatuses.map((s) => ({ value: s, label: t(`wishStatus.${s}`) }))}
        />
        <FilterSelect
          label={t('wishes.category')}
          value={filters.category}
          onChange={(value) => change({ category: value })}
          options={(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.name.de }))}
        />
        <FilterInput
          label={t('ui.search')}
          className="sm:col-span-2 lg:col-span-1"
          type="search"
          value={filters.search}
          placeholder={t('wishes.searchPlaceholder')}
          onChange={(e) => change({ search: e.target.value })}
        />
      </div>

      {wishes.isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : wishes.error ? (
        <ErrorState
          message={errorText(wishes.error, t('wishes.loadFailed'))}
          onRetry={() => void wishes.refetch()}
        />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<HeartOff aria-hidden="true" className="size-8" />}
          title={t('wishes.empty')}
        />
      ) : (
        <div className="card overflow-hidden">
          <table className="w-full text-left">
            <thead className="hidden bg-slate-100 text-sm text-slate-700 md:table-header-group">
              <tr>
                <th scope="col" className="px-3 py-3 font-semibold">
                  ID
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  {t('wishes.applicant')}
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  {t('wishes.category')}
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  {t('wishes.description')}
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  {t('wishes.status')}
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  {t('wishes.createdAt')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {list.map((wish) => (
                <tr
                  key={wish.id}
                  tabIndex={0}
                  onClick={() => open(wish)}
                  onKeyDown={(e) => onKey(e, wish)}
                  className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 hover:bg-slate-50 md:table-row md:p-0"
                >
                  <td className="text-sm text-slate-600 md:px-3 md:py-3">#{wish.id}</td>
                  <td className="min-w-0 flex-1 md:px-3 md:py-3">
                    <span className="font-semibold text-slate-900">
                      {wish.applicant_name || (
                        <span className="font-normal italic">{t('wishes.erased')}</span>
                      )}
                    </span>
                    <span className="block text-sm text-slate-700">
                      {truncate(wish.applicant_whatsapp_raw || wish.applicant_whatsapp, 40)}
                    </span>
                  </td>
                  <td className="order-3 text-sm text-slate-800 md:order-none md:px-3 md:py-3">
                    {categoryName(wish.furniture_category)}
                  </td>
                  <td className="order-4 w-full text-slate-800 md:order-none md:w-auto md:px-3 md:py-3">
                    {truncate(wish.furniture_description, 50)}
                    {wish.matching_lots && wish.matching_lots.length > 0 && (
                      <span className="mt-1 block text-sm font-medium text-green-800">
                        {t('wishes.matchesShort', { count: wish.matching_lots.length })}
                      </span>
                    )}
                  </td>
                  <td className="md:px-3 md:py-3">
                    <WishStatusBadge status={wish.status} />
                  </td>
                  <td className="order-5 text-sm whitespace-nowrap text-slate-700 md:order-none md:px-3 md:py-3">
                    {formatDate(wish.created_at, lang)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > WISHES_PAGE_SIZE && (
        <PrevNextPager
          page={page}
          pages={pageCount(total, WISHES_PAGE_SIZE)}
          onPage={setPage}
          label={t('wishes.range', { from, to, total })}
        />
      )}
    </div>
  );
}
