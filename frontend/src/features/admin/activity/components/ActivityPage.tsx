import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Download, History } from 'lucide-react';
import { ActionTypes } from '@furniture/contracts/enums';
import { useAppStore } from '../../../../app/hooks';
import { DateInput } from '../../../../components/DateInput';
import { ErrorState } from '../../../../components/ErrorState';
import { Spinner } from '../../../../components/Spinner';
import { useLanguage } from '../../../../lib/language';
import { formatDate } from '../../lib/dates';
import { errorText } from '../../lib/errors';
import { usePersistedState } from '../../lib/persisted-state';
import { FilterSelect, RefreshButton } from '../../ui/Filters';
import { EmptyState, PageHeader } from '../../ui/PageHeader';
import { PrevNextPager } from '../../ui/Pagination';
import { useToast } from '../../ui/Toasts';
import { useGetActivityLogsQuery, useGetActivityUsersQuery } from '../api/activity-api';
import {
  actionOf,
  describeActivity,
  matchesFilters,
  NO_FILTERS,
  type ActivityFilters,
} from '../lib/activity';
import { actionStyle } from '../lib/action-style';
import { downloadActivityCsv } from '../lib/export-csv';

/** /admin/activity (administrators only, back-office §2 Activity log). */
export default function ActivityPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const toast = useToast();
  const store = useAppStore();
  const [filters, setFilters, resetFilters] = usePersistedState<ActivityFilters>(
    'activity-log',
    NO_FILTERS,
  );
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const logs = useGetActivityLogsQuery(page);
  const users = useGetActivityUsersQuery();
  const entries = logs.data?.data ?? [];
  const shown = entries.filter((entry) => matchesFilters(entry, filters));
  const filtered = Object.values(filters).some(Boolean);

  const onExport = async () => {
    setExporting(true);
    try {
      await downloadActivityCsv(store, filters);
    } catch (error) {
      toast('error', errorText(error, t('activity.exportFailed')));
    } finally {
      setExporting(false);
    }
  };

  return (
    <div>
      <PageHeader
        title={t('activity.title')}
        actions={
          <>
            <RefreshButton onClick={() => void logs.refetch()} busy={logs.isFetching} />
            <button
              type="button"
              className="btn-primary"
              onClick={() => void onExport()}
              disabled={exporting}
            >
              <Download aria-hidden="true" className="size-4" />
              {t('activity.export')}
            </button>
          </>
        }
      />
      <div className="card mb-4 grid gap-3 p-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_11rem_11rem_auto] lg:items-end">
        <FilterSelect
          label={t('activity.actionType')}
          value={filters.actionType}
          onChange={(value) => setFilters({ actionType: value })}
          options={ActionTypes.map((a) => ({ value: a, label: t(`activity.actions.${a}`) }))}
        />
        <FilterSelect
          label={t('activity.user')}
          value={filters.userId}
          onChange={(value) => setFilters({ userId: value })}
          options={(users.data?.data ?? []).map((u) => ({
            value: String(u.id),
            label: `${u.name} (${u.email})`,
          }))}
        />
        <DateInput
          label={t('activity.dateFrom')}
          value={filters.dateFrom}
          max={filters.dateTo || undefined}
          onChange={(value) => setFilters({ dateFrom: value })}
        />
        <DateInput
          label={t('activity.dateTo')}
          value={filters.dateTo}
          min={filters.dateFrom || undefined}
          onChange={(value) => setFilters({ dateTo: value })}
        />
        <button
          type="button"
          className="btn-secondary justify-center"
          onClick={resetFilters}
          disabled={!filtered}
        >
          {t('ui.reset')}
        </button>
        <p className="text-sm text-slate-600 sm:col-span-2 lg:col-span-5">
          {t('activity.filterHint')}
        </p>
      </div>

      {logs.isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : logs.error ? (
        <ErrorState
          message={`${t('activity.loadFailed')}: ${errorText(logs.error, t('ui.unexpected'))}`}
          onRetry={() => void logs.refetch()}
        />
      ) : shown.length === 0 ? (
        <EmptyState
          icon={<History aria-hidden="true" className="size-8" />}
          title={entries.length === 0 ? t('activity.empty') : t('activity.noMatch')}
        />
      ) : (
        <ol className="card divide-y divide-slate-200">
          {shown.map((entry) => {
            const action = actionOf(entry);
            const { icon: Icon, tone } = actionStyle(action);
            const actor = typeof entry.details === 'object' ? entry.details?.actor : undefined;
            const who =
              entry.user_name ??
              (actor === 'applicant' || actor === 'donor'
                ? t(`activity.${actor}`)
                : t('activity.system'));
            return (
              <li key={entry.id} className="flex gap-3 p-3 sm:p-4">
                <span
                  className={`flex size-10 shrink-0 items-center justify-center rounded-full ${tone}`}
                  aria-hidden="true"
                >
                  <Icon className="size-5" />
                </span>
                <div className="min-w-0 flex-1">
                  <p className="font-semibold text-slate-900">
                    {t(`activity.actions.${action}`, { defaultValue: action })} ·{' '}
                    {t(`activity.targets.${entry.target_type}`, {
                      defaultValue: entry.target_type,
                    })}
                    {entry.target_id !== null && (
                      <span className="font-normal text-slate-600"> #{entry.target_id}</span>
                    )}
                  </p>
                  {describeActivity(entry, t, lang) && (
                    <p className="break-words text-slate-800">{describeActivity(entry, t, lang)}</p>
                  )}
                  <p className="mt-0.5 text-sm text-slate-600">
                    {who}
                    {entry.user_email && ` (${entry.user_email})`} ·{' '}
                    {formatDate(entry.created_at, lang)}
                  </p>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <PrevNextPager page={page} pages={logs.data?.total_pages ?? 1} onPage={setPage} />
    </div>
  );
}
