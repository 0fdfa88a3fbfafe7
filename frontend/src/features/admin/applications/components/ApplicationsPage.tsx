import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ChevronDown, ClipboardX, ImageOff, X } from 'lucide-react';
import { ApplicationStatuses, type ApplicationStatus } from '@furniture/contracts/enums';
import { ErrorState } from '../../../../components/ErrorState';
import { Spinner } from '../../../../components/Spinner';
import { useLanguage } from '../../../../lib/language';
import { localize } from '../../../../lib/localized';
import { errorText } from '../../lib/errors';
import { pageCount } from '../../lib/page-window';
import { FilterInput, FilterSelect, RefreshButton } from '../../ui/Filters';
import { EmptyState, PageHeader } from '../../ui/PageHeader';
import { PrevNextPager } from '../../ui/Pagination';
import { LotStatusBadge } from '../../ui/StatusBadges';
import { thumbnailOf } from '../../lots';
import { useGetAgenciesQuery } from '../../partners';
import { useSession } from '../../session';
import {
  APPLICATIONS_PAGE_SIZE,
  useGetApplicationTotalsQuery,
  useApplicationsFollowingApprovals,
} from '../api/applications-api';
import { groupByLot, matchesSearch, queuePositions, type ApplicationGroup } from '../lib/grouping';
import { ApplicationCard } from './ApplicationCard';

function StatCard({
  label,
  value,
  tone,
}: {
  label: string;
  value: number | undefined;
  tone: string;
}) {
  return (
    <div className={`card border-l-4 p-3 sm:p-4 ${tone}`}>
      <p className="text-sm font-medium text-slate-700">{label}</p>
      <p className="text-2xl font-bold text-slate-900">{value ?? '–'}</p>
    </div>
  );
}

function GroupSection({ group }: { group: ApplicationGroup }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [open, setOpen] = useState(true);
  const places = queuePositions(group);
  const name = localize(group.lot?.name, lang);
  const lotName = group.lot?.name.de || name.text || t('applications.unknownLot');
  const panelId = `lot-group-${group.lotId}`;
  return (
    <section className="card overflow-hidden" aria-labelledby={`${panelId}-title`}>
      <header className="flex items-center gap-3 bg-slate-50 p-3 sm:p-4">
        {group.lot?.photo ? (
          <img
            src={thumbnailOf(group.lot.photo)}
            alt=""
            className="size-14 shrink-0 rounded-lg object-cover"
          />
        ) : (
          <span className="flex size-14 shrink-0 items-center justify-center rounded-lg bg-slate-200 text-slate-500">
            <ImageOff aria-hidden="true" className="size-6" />
          </span>
        )}
        <div className="min-w-0 flex-1">
          <h2 id={`${panelId}-title`} className="font-bold text-slate-900">
            <Link
              to={`/admin/lots/${group.lotId}`}
              className="hover:underline"
              lang={name.text ? name.lang : undefined}
            >
              {name.text || t('applications.unknownLot')}
            </Link>{' '}
            <span className="font-normal whitespace-nowrap text-slate-600">ID {group.lotId}</span>
          </h2>
          <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700">
            {group.lot && <LotStatusBadge status={group.lot.status} />}
            {t('applications.groupCounts', {
              total: group.counts.total,
              pending: group.counts.pending,
              approved: group.counts.approved,
            })}
          </p>
        </div>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
          className="inline-flex size-10 items-center justify-center rounded-lg hover:bg-slate-200"
          aria-label={
            open
              ? t('applications.collapse', { name: lotName })
              : t('applications.expand', { name: lotName })
          }
        >
          <ChevronDown
            aria-hidden="true"
            className={`size-5 transition-transform ${open ? 'rotate-180' : ''}`}
          />
        </button>
      </header>
      {open && (
        <ol id={panelId} className="flex flex-col gap-3 p-3 sm:p-4">
          {group.applications.map((application) => (
            <ApplicationCard
              key={application.id}
              application={application}
              place={places.get(application.id)}
              lotName={lotName}
              reservedFor={group.approved}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

/** /admin/applications: moderation grouped by lot (back-office §2 Applications screen). */
export default function ApplicationsPage() {
  const { t } = useTranslation('admin');
  const [status, setStatus] = useState<ApplicationStatus | ''>('');
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  // ?lot=5: one lot's applications (the messages page links a message's application so)
  const [params, setParams] = useSearchParams();
  const lotParam = Number(params.get('lot'));
  const lotId = Number.isInteger(lotParam) && lotParam > 0 ? lotParam : null;
  // ?agency=3: one partner agency's families (issue 44); the agencies are listed for admins
  const agencyParam = Number(params.get('agency'));
  const agencyId = Number.isInteger(agencyParam) && agencyParam > 0 ? agencyParam : null;
  const isAdmin = useSession().user?.role === 'admin';
  const agencies = useGetAgenciesQuery(undefined, { skip: !isAdmin });
  const list = useApplicationsFollowingApprovals({ status, page, lotId, agencyId });
  const totals = useGetApplicationTotalsQuery();
  const shown = (list.data?.applications ?? []).filter((a) => matchesSearch(a, search));
  const groups = groupByLot(shown);
  const pages = pageCount(list.data?.total ?? 0, APPLICATIONS_PAGE_SIZE);

  return (
    <div>
      <PageHeader
        title={t('applications.title')}
        actions={
          <RefreshButton
            onClick={() => {
              void list.refetch();
              void totals.refetch();
            }}
            busy={list.isFetching}
          />
        }
      />
      <div className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard
          label={t('applications.stats.total')}
          value={totals.data?.total}
          tone="border-l-slate-500"
        />
        <StatCard
          label={t('applications.stats.pending')}
          value={totals.data?.pending}
          tone="border-l-amber-500"
        />
        <StatCard
          label={t('applications.stats.approved')}
          value={totals.data?.approved}
          tone="border-l-green-600"
        />
        <StatCard
          label={t('applications.stats.rejected')}
          value={totals.data?.rejected}
          tone="border-l-red-600"
        />
      </div>
      <div
        className={`card mb-4 grid gap-3 p-4 ${isAdmin ? 'sm:grid-cols-[14rem_14rem_1fr]' : 'sm:grid-cols-[14rem_1fr]'}`}
      >
        <FilterSelect
          label={t('applications.statusFilter')}
          value={status}
          onChange={(value) => {
            setStatus(value as ApplicationStatus | '');
            setPage(1);
          }}
          options={ApplicationStatuses.map((s) => ({
            value: s,
            label: t(`applicationStatus.${s}`),
          }))}
        />
        {isAdmin && (
          <FilterSelect
            label={t('applications.agencyFilter')}
            value={agencyId ? String(agencyId) : ''}
            onChange={(value) => {
              setParams(
                (prev) => {
                  const next = new URLSearchParams(prev);
                  if (value) next.set('agency', value);
                  else next.delete('agency');
                  return next;
                },
                { replace: true },
              );
              setPage(1);
            }}
            options={(agencies.data ?? []).map((a) => ({ value: String(a.id), label: a.name }))}
          />
        )}
        <FilterInput
          label={t('ui.search')}
          type="search"
          value={search}
          placeholder={t('applications.searchPlaceholder')}
          hint={t('applications.searchHint')}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>

      {lotId !== null && (
        <p className="mb-4 flex flex-wrap items-center gap-2 text-slate-900">
          {t('applications.lotFilter', { id: lotId })}
          <button
            type="button"
            className="btn-secondary min-h-9 px-2 text-sm"
            onClick={() => {
              setParams((prev) => {
                const next = new URLSearchParams(prev);
                next.delete('lot');
                return next;
              });
              setPage(1);
            }}
          >
            <X aria-hidden="true" className="size-4" />
            {t('applications.allLots')}
          </button>
        </p>
      )}
      {list.isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : list.error ? (
        <ErrorState
          message={errorText(list.error, t('applications.loadFailed'))}
          onRetry={() => void list.refetch()}
        />
      ) : groups.length === 0 ? (
        <EmptyState
          icon={<ClipboardX aria-hidden="true" className="size-8" />}
          title={search.trim() ? t('applications.noMatch') : t('applications.empty')}
        />
      ) : (
        <div className="flex flex-col gap-4">
          {groups.map((group) => (
            <GroupSection key={group.lotId} group={group} />
          ))}
        </div>
      )}
      <PrevNextPager page={page} pages={pages} onPage={setPage} />
    </div>
  );
}
