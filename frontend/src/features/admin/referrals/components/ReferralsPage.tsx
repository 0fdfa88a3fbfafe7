import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CalendarClock, Link2, ListOrdered, Package, Phone, UserPlus, Users } from 'lucide-react';
import { Badge } from '../../../../components/Badge';
import { ErrorState } from '../../../../components/ErrorState';
import { Spinner } from '../../../../components/Spinner';
import { useLanguage } from '../../../../lib/language';
import { localize } from '../../../../lib/localized';
import { formatDate, formatDay } from '../../lib/dates';
import { errorText } from '../../lib/errors';
import { CopyButton } from '../../ui/CopyButton';
import { RefreshButton } from '../../ui/Filters';
import { EmptyState, PageHeader } from '../../ui/PageHeader';
import { useGetReferralsQuery, type Referral } from '../api/referrals-api';
import { STATE_TONE, absoluteLink, referralState } from '../lib/referral-state';

/** One referred family: who, what for, where it stands, the link to help it book. */
function ReferralItem({ referral }: { referral: Referral }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const state = referralState(referral);
  const link = referral.handover_url ? absoluteLink(referral.handover_url) : null;
  const headingId = `referral-${referral.id}`;
  return (
    <li className="card flex flex-col gap-2 p-4" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={headingId} className="text-lg font-bold break-words text-slate-900">
          {referral.family.name}
        </h2>
        <Badge tone={STATE_TONE[state]}>{t(`referrals.state.${state}`)}</Badge>
      </div>
      <p className="flex items-center gap-2 text-slate-800">
        <Package aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
        {referral.lot ? localize(referral.lot.name, lang).text : t('referrals.asWish')}
      </p>
      <p className="flex items-center gap-2 text-slate-700">
        <Phone aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
        <span className="sr-only">{t('referrals.fields.phone')}: </span>
        {referral.family.phone}
      </p>
      {state === 'waiting' && referral.queue_position !== null && (
        <p className="flex items-center gap-2 text-slate-900">
          <ListOrdered aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
          {t('referrals.queuePlace', { place: referral.queue_position })}
        </p>
      )}
      {state === 'waiting' && (
        <p className="text-sm text-slate-700">
          {t('referrals.validUntil', { date: formatDate(referral.expires_at, lang, false) })}
        </p>
      )}
      {state === 'approved' && referral.pickup_by && (
        <p className="flex items-center gap-2 rounded-lg bg-green-50 px-3 py-2 text-green-950">
          <CalendarClock aria-hidden="true" className="size-4 shrink-0" />
          {t('referrals.pickupBy', { date: formatDay(referral.pickup_by, lang) })}
        </p>
      )}
      {state === 'booked' && referral.booking && (
        <p className="flex items-center gap-2 rounded-lg bg-blue-50 px-3 py-2 text-blue-950">
          <CalendarClock aria-hidden="true" className="size-4 shrink-0" />
          {t('referrals.booking', {
            date: formatDate(referral.booking.starts_at, lang),
            location: referral.booking.location,
          })}
        </p>
      )}
      {link && (state === 'approved' || state === 'booked') && (
        <div className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3">
          <p className="flex items-center gap-2 font-semibold text-slate-900">
            <Link2 aria-hidden="true" className="size-4 shrink-0" />
            {t('referrals.handoverLink')}
          </p>
          <p className="text-sm text-slate-700">{t('referrals.handoverLinkHint')}</p>
          <a
            href={link}
            target="_blank"
            rel="noreferrer"
            className="font-mono text-sm break-all text-blue-800 underline"
          >
            {link}
          </a>
          <div className="flex flex-wrap items-center gap-2">
            <CopyButton
              text={link}
              label={t('referrals.copyLink', { name: referral.family.name })}
            />
          </div>
        </div>
      )}
      <p className="text-sm text-slate-600">
        {t('referrals.referredAt', { date: formatDate(referral.created_at, lang) })}
      </p>
    </li>
  );
}

/**
 * /admin/referrals (issue 44): a partner agency's referrer sees its agency's families, each with
 * where it stands and the handover link, and refers another. Phone first.
 */
export default function ReferralsPage() {
  const { t } = useTranslation('admin');
  const referrals = useGetReferralsQuery(undefined, { refetchOnMountOrArgChange: true });
  const list = referrals.data ?? [];
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t('referrals.title')}
        description={t('referrals.lead')}
        actions={
          <>
            <Link to="/admin/referrals/new" className="btn-primary">
              <UserPlus aria-hidden="true" className="size-4" />
              {t('referrals.add')}
            </Link>
            <RefreshButton onClick={() => void referrals.refetch()} busy={referrals.isFetching} />
          </>
        }
      />
      {referrals.isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : referrals.error && !referrals.data ? (
        <ErrorState
          message={errorText(referrals.error, t('referrals.loadFailed'))}
          onRetry={() => void referrals.refetch()}
        />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<Users aria-hidden="true" className="size-8" />}
          title={t('referrals.empty')}
          text={t('referrals.emptyText')}
        />
      ) : (
        <ul className="grid gap-3 lg:grid-cols-2" aria-label={t('referrals.list')}>
          {list.map((referral) => (
            <ReferralItem key={referral.id} referral={referral} />
          ))}
        </ul>
      )}
    </div>
  );
}
