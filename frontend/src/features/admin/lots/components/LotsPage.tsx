import { useState, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  ChevronDown,
  ImageOff,
  PackageSearch,
  Pencil,
  Plus,
  SlidersHorizontal,
  Trash2,
} from 'lucide-react';
import { LotStatuses } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import type { ApplicationStats } from '@furniture/contracts/api/applications';
import { DateInput } from '../../../../components/DateInput';
import { ErrorState } from '../../../../components/ErrorState';
import { Spinner } from '../../../../components/Spinner';
import { useLanguage } from '../../../../lib/language';
import { conditionText } from '../../../../lib/lot-condition';
import { useDebouncedValue } from '../../../../lib/use-debounced-value';
import { useGetAdminCategoriesQuery } from '../../categories';
import { CategoryIconView } from '../../../catalog';
import { formatDate } from '../../lib/dates';
import { errorText } from '../../lib/errors';
import { usePersistedState } from '../../lib/persisted-state';
import { FilterInput, FilterSelect, RefreshButton } from '../../ui/Filters';
import { EmptyState, PageHeader } from '../../ui/PageHeader';
import { Pagination } from '../../ui/Pagination';
import { LotStatusBadge } from '../../ui/StatusBadges';
import {
  LOTS_PAGE_SIZE,
  useGetAdminLotsQuery,
  useGetLotApplicationStatsQuery,
  useGetLotCountQuery,
  type AdminLot,
  type LotFilters,
} from '../api/lots-api';
import { thumbnailOf } from '../lib/photo-list';
import { DeleteLotDialog } from './DeleteLotDialog';

const FILTERS: LotFilters = { search: '', status: '', categoryId: '', dateFrom: '', dateTo: '' };

function ApplicationCounts({ stats }: { stats: ApplicationStats['lots'][number] | undefined }) {
  const { t } = useTranslation('admin');
  if (!stats || stats.total === 0)
    return <span className="text-slate-600">{t('lots.noApplications')}</span>;
  return (
    <span>
      <span className="font-semibold text-slate-900">
        {t('lots.applicationsTotal', { n: stats.total })}
      </span>
      {stats.pending > 0 && (
        <span className="block text-sm text-amber-800">
          {t('lots.applicationsPending', { n: stats.pending })}
        </span>
      )}
    </span>
  );
}

function LotThumb({ lot }: { lot: AdminLot }) {
  const photo = lot.photos[0];
  return photo ? (
    <img
      src={thumbnailOf(photo)}
      alt=""
      className="size-14 shrink-0 rounded-lg object-cover"
      loading="lazy"
    />
  ) : (
    <span className="flex size-14 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-500">
      <ImageOff aria-hidden="true" className="size-6" />
    </span>
  );
}

/** /admin/lots (back-office §2 Lots list). */
export default function LotsPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const navigate = useNavigate();
  const [filters, setFilters, resetFilters] = usePersistedState('lot-management', FILTERS);
  const [page, setPage] = useState(1);
  const search = useDebouncedValue(filters.search, Limits.searchDebounceMs);
  const applied = { ...filters, search };
  const lots = useGetAdminLotsQuery({ filters: applied, page });
  const count = useGetLotCountQuery(applied);
  const categories = useGetAdminCategoriesQuery();
  const ids = (lots.data ?? []).map((l) => l.id);
  const stats = useGetLotApplicationStatsQuery(ids, { skip: ids.length === 0 });
  const [deleting, setDeleting] = useState<AdminLot | null>(null);
  // on phones the five filters fold away behind one button
  const [filtersOpen, setFiltersOpen] = useState(false);
  const activeFilters = Object.values(filters).filter(Boolean).length;

  // back-office §7: without a count the length of the loaded list is used
  const total = count.data ?? (count.error ? (page - 1) * LOTS_PAGE_SIZE + ids.length : 0);
  const categoryName = (id: number) => {
    const category = categories.data?.find((c) => c.id === id);
    if (!category) return `#${id}`;
    return (
      <span className="inline-flex items-center gap-1">
        <CategoryIconView category={category} className="size-4" />
        {category.name.de}
      </span>
    );
  };
  const statsOf = (id: number) => stats.data?.lots.find((s) => s.lot_id === id);

  const change = (patch: Partial<LotFilters>) => {
    setFilters(patch);
    setPage(1);
  };

  const open = (lot: AdminLot) => void navigate(`/admin/lots/${lot.id}`);
  const onRowKey = (e: KeyboardEvent, lot: AdminLot) => {
    if (e.target === e.currentTarget && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      open(lot);
    }
  };

  const rowActions = (lot: AdminLot) => (
    <div className="flex justify-end gap-1" onClick={(e) => e.stopPropagation()}>
      <Link
        to={`/admin/lots/${lot.id}/edit`}
        className="inline-flex size-10 items-center justify-center rounded-lg text-blue-800 hover:bg-blue-50"
        aria-label={t('lots.editOne', { id: lot.id })}
      >
        <Pencil aria-hidden="true" className="size-5" />
      </Link>
      <button
        type="button"
        className="inline-flex size-10 items-center justify-center rounded-lg text-red-700 hover:bg-red-50"
        onClick={() => setDeleting(lot)}
        aria-label={t('lots.deleteOne', { id: lot.id })}
      >
        <Trash2 aria-hidden="true" className="size-5" />
      </button>
    </div>
  );

  const list = lots.data ?? [];

  return (
    <div>
      <PageHeader
        title={t('lots.title')}
        actions={
          <>
            <RefreshButton
              onClick={() => {
                void lots.refetch();
                void count.refetch();
              }}
              busy={lots.isFetching}
            />
            <Link to="/admin/lots/new" className="btn-primary">
              <Plus aria-hidden="true" className="size-4" />
              {t('lots.create')}
            </Link>
          </>
        }
      />
      <button
        type="button"
        className="btn-secondary mb-3 w-full justify-between sm:hidden"
        aria-expanded={filtersOpen}
        aria-controls="lot-filters"
        onClick={() => setFiltersOpen((open) => !open)}
      >
        <span className="inline-flex items-center gap-2">
          <SlidersHorizontal aria-hidden="true" className="size-4" />
          {t('lots.showFilters')}
          {activeFilters > 0 && (
            <span className="text-sm font-normal text-slate-700">
              ({t('lots.activeFilters', { n: activeFilters })})
            </span>
          )}
        </span>
        <ChevronDown
          aria-hidden="true"
          className={`size-4 transition-transform ${filtersOpen ? 'rotate-180' : ''}`}
        />
      </button>
      <div
        id="lot-filters"
        className={`card mb-4 gap-3 p-4 sm:grid sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_1fr_auto] lg:items-end ${filtersOpen ? 'grid' : 'hidden'}`}
      >
        <FilterInput
          label={t('ui.search')}
          className="sm:col-span-2 lg:col-span-1"
          type="search"
          value={filters.search}
          placeholder={t('lots.searchPlaceholder')}
          onChange={(e) => change({ search: e.target.value })}
        />
        <FilterSelect
          label={t('lots.fields.status')}
          value={filters.status}
          onChange={(value) => change({ status: value as LotFilters['status'] })}
          options={LotStatuses.filter((s) => s !== 'transferred').map((s) => ({
            value: s,
            label: t(`lotStatus.${s}`),
          }))}
        />
        <FilterSelect
          label={t('lots.fields.categoryId')}
          value={filters.categoryId}
          onChange={(value) => change({ categoryId: value })}
          options={(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.name.de }))}
        />
        <DateInput
          label={t('lots.dateFrom')}
          value={filters.dateFrom}
          max={filters.dateTo || undefined}
          onChange={(value) => change({ dateFrom: value })}
        />
        <DateInput
          label={t('lots.dateTo')}
          value={filters.dateTo}
          min={filters.dateFrom || undefined}
          onChange={(value) => change({ dateTo: value })}
        />
        <button
          type="button"
          className="btn-secondary justify-center"
          onClick={() => {
            resetFilters();
            setPage(1);
          }}
        >
          {t('ui.reset')}
        </button>
      </div>

      {lots.isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : lots.error ? (
        <ErrorState
          message={errorText(lots.error, t('lots.loadFailed'))}
          onRetry={() => void lots.refetch()}
        />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<PackageSearch aria-hidden="true" className="size-8" />}
          title={t('lots.empty')}
        />
      ) : (
        <>
          {/* phones: one card per lot */}
          <ul className="flex flex-col gap-3 md:hidden">
            {list.map((lot) => (
              <li
                key={lot.id}
                tabIndex={0}
                onClick={() => open(lot)}
                onKeyDown={(e) => onRowKey(e, lot)}
                className="card flex cursor-pointer gap-3 p-3"
              >
                <LotThumb lot={lot} />
                <div className="min-w-0 flex-1">
                  <div className="flex items-start justify-between gap-2">
                    <p className="font-semibold text-slate-900">
                      {lot.name.de}{' '}
                      <span className="font-normal whitespace-nowrap text-slate-600">
                        #{lot.id}
                      </span>
                    </p>
                    <LotStatusBadge status={lot.status} />
                  </div>
                  <p className="text-sm text-slate-700">
                    {categoryName(lot.category_id)} · {formatDate(lot.created_at, lang, false)}
                  </p>
                  <div className="mt-1 flex items-end justify-between gap-2 text-sm">
                    <ApplicationCounts stats={statsOf(lot.id)} />
                    {rowActions(lot)}
                  </div>
                </div>
              </li>
            ))}
          </ul>
          <div className="card hidden overflow-x-auto md:block">
            <table className="w-full text-left">
              <thead className="bg-slate-100 text-sm text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-3 font-semibold">
                    {t('lots.columns.photo')}
                  </th>
                  <th scope="col" className="px-3 py-3 font-semibold">
                    {t('lots.columns.name')}
                  </th>
                  <th scope="col" className="px-3 py-3 font-semibold">
                    {t('lots.columns.category')}
                  </th>
                  <th scope="col" className="px-3 py-3 font-semibold">
                    {t('lots.columns.status')}
                  </th>
                  <th scope="col" className="px-3 py-3 font-semibold">
                    {t('lots.columns.applications')}
                  </th>
                  <th scope="col" className="px-3 py-3 font-semibold">
                    {t('lots.columns.donor')}
                  </th>
                  <th scope="col" className="px-3 py-3 font-semibold">
                    {t('lots.columns.created')}
                  </th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">
                    {t('lots.columns.actions')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {list.map((lot) => (
                  <tr
                    key={lot.id}
                    tabIndex={0}
                    onClick={() => open(lot)}
                    onKeyDown={(e) => onRowKey(e, lot)}
                    className="cursor-pointer hover:bg-slate-50"
                  >
                    <td className="px-3 py-2">
                      <LotThumb lot={lot} />
                    </td>
                    <td className="px-3 py-2">
                      <span className="font-semibold text-slate-900">{lot.name.de}</span>
                      <span className="block text-sm whitespace-nowrap text-slate-600">
                        ID {lot.id}
                      </span>
                    </td>
                    <td className="px-3 py-2 text-slate-800">{categoryName(lot.category_id)}</td>
                    <td className="px-3 py-2">
                      <LotStatusBadge status={lot.status} />
                    </td>
                    <td className="px-3 py-2">
                      <ApplicationCounts stats={statsOf(lot.id)} />
                    </td>
                    <td className="px-3 py-2 text-slate-800">
                      {lot.donor || '–'}
                      {lot.condition && (
                        <span className="block text-sm text-slate-600">
                          {conditionText(lot.condition, t)}
                        </span>
                      )}
                    </td>
                    <td className="px-3 py-2 text-sm whitespace-nowrap text-slate-800">
                      {formatDate(lot.created_at, lang, false)}
                    </td>
                    <td className="px-3 py-2">{rowActions(lot)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <Pagination
        page={page}
        total={total}
        pageSize={LOTS_PAGE_SIZE}
        onPage={setPage}
        rangeKey="lots.range"
      />
      <DeleteLotDialog lot={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
