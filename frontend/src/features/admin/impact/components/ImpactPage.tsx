import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Download } from 'lucide-react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { ErrorState } from '../../../../components/ErrorState';
import { Spinner } from '../../../../components/Spinner';
import { localeOf, useLanguage } from '../../../../lib/language';
import { useGetAdminCategoriesQuery } from '../../categories';
import { formatDate } from '../../lib/dates';
import { errorText } from '../../lib/errors';
import { FilterSelect, RefreshButton } from '../../ui/Filters';
import { PageHeader } from '../../ui/PageHeader';
import { useGetImpactQuery } from '../api/impact-api';
import { saveFile, toCsv } from '../lib/impact-csv';

const MONTH_CHOICES = [6, 12, 24, 36];
const COLORS = {
  received: '#1e40af',
  given: '#15803d',
  applications: '#9a3412',
  wishes: '#7e22ce',
};

function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <div className="card p-4">
      <p className="text-sm font-medium text-slate-700">{label}</p>
      {/* a figure, not a heading (axe p-as-heading) */}
      <span className="mt-1 block text-3xl font-bold text-slate-900">{value}</span>
      {hint && <p className="mt-1 text-sm text-slate-600">{hint}</p>}
    </div>
  );
}

/** A chart with its title, its CSV download and its figures as a table for screen readers. */
function ChartCard({
  id,
  title,
  text,
  onCsv,
  table,
  children,
}: {
  id: string;
  title: string;
  text?: string;
  onCsv: () => void;
  table: { header: string[]; rows: (string | number)[][] };
  children: ReactNode;
}) {
  const { t } = useTranslation('admin');
  return (
    <section className="card p-4 sm:p-5" aria-labelledby={id} data-testid={id}>
      <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id={id} className="text-lg font-bold text-slate-900">
            {title}
          </h2>
          {text && <p className="text-sm text-slate-700">{text}</p>}
        </div>
        <button
          type="button"
          className="btn-secondary min-h-10 text-sm"
          onClick={onCsv}
          aria-label={t('impact.csvOf', { chart: title })}
        >
          <Download aria-hidden="true" className="size-4" />
          {t('impact.csv')}
        </button>
      </div>
      {table.rows.length === 0 ? (
        <p className="text-slate-700">{t('impact.empty')}</p>
      ) : (
        <>
          {/* the table below says the same to screen readers; inert keeps the chart's own
              focusable parts out of the tab order too (axe aria-hidden-focus) */}
          <div aria-hidden="true" inert className="h-64 w-full">
            {children}
          </div>
          <table className="sr-only">
            <caption>{t('impact.tableOf', { chart: title })}</caption>
            <thead>
              <tr>
                {table.header.map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row) => (
                <tr key={String(row[0])}>
                  {row.map((cell, i) => (
                    <td key={i}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

/**
 * The families per partner agency (issue 44): a funder asks how many a partner brought and how
 * many were served. A plain table (a few agencies, read row by row), with its CSV download.
 */
function AgenciesCard({
  table,
  onCsv,
  format,
}: {
  table: { header: string[]; rows: (string | number)[][] };
  onCsv: () => void;
  /** a figure in the page's language (the CSV keeps plain numbers) */
  format: (n: number) => string;
}) {
  const { t } = useTranslation('admin');
  const id = 'impact-agencies';
  return (
    <section className="card mt-5 p-4 sm:p-5" aria-labelledby={id} data-testid={id}>
      <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id={id} className="text-lg font-bold text-slate-900">
            {t('impact.perAgency')}
          </h2>
          <p className="text-sm text-slate-700">{t('impact.perAgencyText')}</p>
        </div>
        <button
          type="button"
          className="btn-secondary min-h-10 text-sm"
          onClick={onCsv}
          aria-label={t('impact.csvOf', { chart: t('impact.perAgency') })}
        >
          <Download aria-hidden="true" className="size-4" />
          {t('impact.csv')}
        </button>
      </div>
      {table.rows.length === 0 ? (
        <p className="text-slate-700">{t('impact.noAgencies')}</p>
      ) : (
        // scrolls sideways on a phone instead of squeezing the figures (a focusable region)
        <div
          className="overflow-x-auto"
          tabIndex={0}
          role="region"
          aria-label={t('impact.tableOf', { chart: t('impact.perAgency') })}
        >
          <table className="w-full min-w-[32rem] text-left text-sm">
            <caption className="sr-only">
              {t('impact.tableOf', { chart: t('impact.perAgency') })}
            </caption>
            <thead>
              <tr className="border-b border-slate-300 text-slate-700">
                {table.header.map((h, i) => (
                  <th key={h} scope="col" className={`py-2 pr-3 ${i > 0 ? 'text-right' : ''}`}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row) => (
                <tr key={String(row[0])} className="border-b border-slate-200 last:border-0">
                  {row.map((cell, i) =>
                    i === 0 ? (
                      <th key={i} scope="row" className="py-2 pr-3 font-medium text-slate-900">
                        {cell}
                      </th>
                    ) : (
                      <td key={i} className="py-2 pr-3 text-right tabular-nums text-slate-900">
                        {typeof cell === 'number' ? format(cell) : cell}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** /admin/impact (administrators, issue 19): figures for donors' and funders' reports. */
export default function ImpactPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [months, setMonths] = useState(12);
  const impact = useGetImpactQuery(months, { refetchOnMountOrArgChange: true });
  const categories = useGetAdminCategoriesQuery();
  const categoryName = (id: number) => {
    const c = categories.data?.find((x) => x.id === id);
    return c ? c.name[lang] || c.name.de : `#${id}`;
  };
  const monthLabel = (month: string) => {
    const [y, m] = month.split('-').map(Number) as [number, number];
    return new Intl.DateTimeFormat(localeOf(lang), {
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(Date.UTC(y, m - 1, 1)));
  };
  const number = (n: number) => new Intl.NumberFormat(localeOf(lang)).format(n);

  const header = (
    <PageHeader
      title={t('impact.title')}
      description={
        impact.data?.counting_since
          ? t('impact.lead', { since: formatDate(impact.data.counting_since, lang, false) })
          : t('impact.leadEmpty')
      }
      actions={<RefreshButton onClick={() => void impact.refetch()} busy={impact.isFetching} />}
    />
  );
  if (impact.isLoading) return <Spinner label={t('ui.loading')} />;
  if (impact.error || !impact.data) {
    return (
      <div>
        {header}
        <ErrorState
          message={errorText(impact.error, t('impact.loadFailed'))}
          onRetry={() => void impact.refetch()}
        />
      </div>
    );
  }
  const r = impact.data;
  const monthRows = r.months.map((m) => ({ ...m, label: monthLabel(m.month) }));
  const busiest = r.categories
    .filter((c) => c.applications + c.wishes > 0)
    .slice(0, 10)
    .map((c) => ({ ...c, name: categoryName(c.category_id) }));
  const open = r.categories
    .filter((c) => c.open_wishes > 0)
    .sort((a, b) => b.open_wishes - a.open_wishes)
    .map((c) => ({ ...c, name: categoryName(c.category_id) }));
  const day = new Date().toISOString().slice(0, 10);

  const monthsTable = {
    header: [t('impact.month'), t('impact.lotsReceived'), t('impact.lotsGiven')],
    rows: r.months.map((m) => [m.month, m.lots_received, m.lots_given]),
  };
  const busiestTable = {
    header: [
      t('impact.category'),
      t('impact.applications'),
      t('impact.wishes'),
      t('impact.lotsGiven'),
    ],
    rows: busiest.map((c) => [c.name, c.applications, c.wishes, c.lots_given]),
  };
  const openTable = {
    header: [t('impact.category'), t('impact.openWishes')],
    rows: open.map((c) => [c.name, c.open_wishes]),
  };
  const agenciesTable = {
    header: [
      t('impact.agency'),
      t('impact.referredApplications'),
      t('impact.referredWishes'),
      t('impact.lotsGiven'),
      t('impact.familiesServed'),
    ],
    rows: r.agencies.map((a) => [
      a.name || `#${a.agency_id}`,
      a.applications,
      a.wishes,
      a.lots_given,
      a.families_served,
    ]),
  };
  const download = (name: string, table: { header: string[]; rows: (string | number)[][] }) =>
    saveFile(`${name}-${day}.csv`, toCsv(table.header, table.rows));

  return (
    <div>
      {header}
      <div className="mb-4 max-w-xs">
        <FilterSelect
          label={t('impact.months')}
          value={String(months)}
          onChange={(value) => setMonths(Number(value) || 12)}
          options={MONTH_CHOICES.map((n) => ({
            value: String(n),
            label: t('impact.monthsOption', { count: n }),
          }))}
        />
      </div>
      <div className="mb-5 grid gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
        <Figure label={t('impact.lotsReceived')} value={number(r.totals.lots_received)} />
        <Figure label={t('impact.lotsGiven')} value={number(r.totals.lots_given)} />
        <Figure label={t('impact.familiesServed')} value={number(r.totals.families_served)} />
        <Figure
          label={t('impact.medianWait')}
          value={
            r.median_days_to_pickup === null
              ? t('impact.noValue')
              : t('impact.days', {
                  count: r.median_days_to_pickup,
                  value: number(r.median_days_to_pickup),
                })
          }
          hint={t('impact.handoversMeasured', { count: r.handovers_measured })}
        />
        <Figure
          label={t('impact.medianFromApproval')}
          value={
            r.median_days_approval_to_handover === null
              ? t('impact.noValue')
              : t('impact.days', {
                  count: r.median_days_approval_to_handover,
                  value: number(r.median_days_approval_to_handover),
                })
          }
          hint={t('impact.handoversMeasured', { count: r.handovers_measured_since_approval })}
        />
      </div>
      <div className="mb-5 grid gap-3 sm:grid-cols-3">
        <Figure label={t('impact.donationsReceived')} value={number(r.totals.donations_received)} />
        <Figure label={t('impact.donationsAccepted')} value={number(r.totals.donations_accepted)} />
        <Figure
          label={t('impact.lotsFromDonations')}
          value={number(r.totals.lots_from_donations)}
        />
      </div>
      <div className="grid gap-5 xl:grid-cols-2">
        <ChartCard
          id="impact-months"
          title={t('impact.perMonth')}
          text={t('impact.perMonthText')}
          table={monthsTable}
          onCsv={() => download('lots-pro-monat', monthsTable)}
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={monthRows}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" fontSize={12} />
              <YAxis allowDecimals={false} fontSize={12} width={32} />
              <Tooltip />
              <Legend />
              <Bar dataKey="lots_received" name={t('impact.lotsReceived')} fill={COLORS.received} />
              <Bar dataKey="lots_given" name={t('impact.lotsGiven')} fill={COLORS.given} />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>
        <ChartCard
          id="impact-categories"
          title={t('impact.busiest')}
          text={t('impact.busiestText')}
          table={busiestTable}
          onCsv={() => download('kategorien', busiestTable)}
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={busiest} layout="vertical" margin={{ left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" allowDecimals={false} fontSize={12} />
              <YAxis type="category" dataKey="name" width={110} fontSize={12} />
              <Tooltip />
              <Legend />
              <Bar
                dataKey="applications"
                name={t('impact.applications')}
                fill={COLORS.applications}
              />
              <Bar dataKey="wishes" name={t('impact.wishes')} fill={COLORS.wishes} />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>
        <ChartCard
          id="impact-open-wishes"
          title={t('impact.openWishes')}
          table={openTable}
          onCsv={() => download('offene-wuensche', openTable)}
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={open} layout="vertical" margin={{ left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" allowDecimals={false} fontSize={12} />
              <YAxis type="category" dataKey="name" width={110} fontSize={12} />
              <Tooltip />
              <Bar dataKey="open_wishes" name={t('impact.openWishes')} fill={COLORS.wishes} />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>
      </div>
      <AgenciesCard
        table={agenciesTable}
        format={number}
        onCsv={() => download('partnerorganisationen', agenciesTable)}
      />
    </div>
  );
}
