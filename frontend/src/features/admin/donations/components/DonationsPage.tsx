import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PackageOpen } from 'lucide-react';
import { DonationStatuses } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { ErrorState } from '../../../../components/ErrorState';
import { Spinner } from '../../../../components/Spinner';
import { useLanguage } from '../../../../lib/language';
import { useDebouncedValue } from '../../../../lib/use-debounced-value';
import { formatDate, formatDay } from '../../lib/dates';
import { errorText } from '../../lib/errors';
import { pageCount, pageRange } from '../../lib/page-window';
import { FilterInput, FilterSelect, RefreshButton } from '../../ui/Filters';
import { EmptyState, PageHeader } from '../../ui/PageHeader';
import { PrevNextPager } from '../../ui/Pagination';
import { DonationStatusBadge } from '../../ui/StatusBadges';
import {
  DONATIONS_PAGE_SIZE,
  useGetDonationsQuery,
  type DonationFilters,
} from '../api/donations-api';
import { shortened } from '../lib/donation-rules';

/** /admin/donations: the donors' offers, newest first, by status (with counts) and search. */
export default function DonationsPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [filters, setFilters] = useState<DonationFilters>({ status: '', search: '' });
  const [page, setPage] = useState(1);
  const search = useDebouncedValue(filters.search, Limits.searchDebounceMs);
  const donations = useGetDonationsQuery({ ...filters, search, page });
  const total = donations.data?.total ?? 0;
  const counts = donations.data?.counts;
  const { from, to } = pageRange(page, DONATIONS_PAGE_SIZE, total);
  const list = donations.data?.donations ?? [];

  const change = (patch: Partial<DonationFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };

  return (
    <div>
      <PageHeader
        title={t('donations.title')}
        description={t('donations.lead')}
        actions={
          <RefreshButton onClick={() => void donations.refetch()} busy={donations.isFetching} />
        }
      />
      <div className="card mb-4 grid gap-3 p-4 sm:grid-cols-[16rem_1fr]">
        <FilterSelect
          label={t('donations.status')}
          value={filters.status}
          onChange={(value) => change({ status: value as DonationFilters['status'] })}
          options={DonationStatuses.map((s) => ({
            value: s,
            label:
              counts?.[s] !== undefined
                ? t('donations.statusWithCount', {
                    status: t(`donationStatus.${s}`),
                    n: counts[s],
                  })
                : t(`donationStatus.${s}`),
          }))}
        />
        <FilterInput
          label={t('ui.search')}
          type="search"
          value={filters.search}
          placeholder={t('donations.searchPlaceholder')}
          onChange={(e) => change({ search: e.target.value })}
        />
      </div>

      {donations.isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : donations.error ? (
        <ErrorState
          message={errorText(donations.error, t('donations.loadFailed'))}
          onRetry={() => void donations.refetch()}
        />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<PackageOpen aria-hidden="true" className="size-8" />}
          title={t('donations.empty')}
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
                  {t('donations.donor')}
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  {t('donations.items')}
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  {t('donations.availableUntil')}
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  {t('donations.status')}
                </th>
                <th scope="col" className="px-3 py-3 font-semibold">
                  {t('donations.createdAt')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {list.map((donation) => (
                <tr
                  key={donation.id}
                  className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 hover:bg-slate-50 md:table-row md:p-0"
                >
                  <td className="text-sm text-slate-600 md:px-3 md:py-3">#{donation.id}</td>
                  <td className="min-w-0 flex-1 md:px-3 md:py-3">
                    <Link
                      to={`/admin/donations/${donation.id}`}
                      className="font-semibold text-blue-800 hover:underline"
                    >
                      {donation.donor_name || t('donations.erased')}
                    </Link>
                    <span className="block text-sm text-slate-700">{donation.city}</span>
                  </td>
                  <td className="order-4 w-full text-slate-800 md:order-none md:w-auto md:px-3 md:py-3">
                    <span className="text-sm font-medium">
                      {t('donations.itemCount', { n: donation.items.length })}
                    </span>
                    {donation.items[0] && (
                      <span className="block text-sm text-slate-700" lang={donation.language}>
                        {shortened(donation.items[0].description, 60)}
                      </span>
                    )}
                  </td>
                  <td className="order-5 text-sm whitespace-nowrap text-slate-700 md:order-none md:px-3 md:py-3">
                    <span className="md:sr-only">{t('donations.availableUntil')}: </span>
                    {formatDay(donation.available_until, lang)}
                  </td>
                  <td className="md:px-3 md:py-3">
                    <DonationStatusBadge status={donation.status} />
                  </td>
                  <td className="order-6 text-sm whitespace-nowrap text-slate-700 md:order-none md:px-3 md:py-3">
                    {formatDate(donation.created_at, lang)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > 0 && (
        <PrevNextPager
          page={page}
          pages={pageCount(total, DONATIONS_PAGE_SIZE)}
          onPage={setPage}
          label={t('donations.range', { from, to, total })}
        />
      )}
    </div>
  );
}
