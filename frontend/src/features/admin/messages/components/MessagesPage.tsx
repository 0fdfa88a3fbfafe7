import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MailCheck, RotateCcw, Search } from 'lucide-react';
import { MessageChannels, type Language, type MessageChannel } from '@furniture/contracts/enums';
import { Badge } from '../../../../components/Badge';
import { ErrorState } from '../../../../components/ErrorState';
import { Spinner } from '../../../../components/Spinner';
import { TextField } from '../../../../components/TextField';
import { localeOf, useLanguage } from '../../../../lib/language';
import { errorText, serverFieldErrors } from '../../lib/errors';
import { RefreshButton } from '../../ui/Filters';
import { EmptyState, PageHeader } from '../../ui/PageHeader';
import { Pagination } from '../../ui/Pagination';
import { useToast } from '../../ui/Toasts';
import {
  FAILED_PAGE_SIZE,
  useGetFailedMessagesQuery,
  useGetMessageStatusQuery,
  useLazyGetOptOutQuery,
  useResendMessageMutation,
  type Message,
  type MessageChannelState,
} from '../api/messages-api';
import { MessageItem } from './MessageItem';
import { OptOutSwitches } from './OptOutSwitches';

/** The month the figures count (YYYY-MM) as 'März 2026' / 'березень 2026 р.'. */
function monthName(month: string, lang: Language): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return month;
  return new Intl.DateTimeFormat(localeOf(lang), {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)));
}

/** One channel: on or off, this month's use against its budget, the warnings, the provider. */
function ChannelCard({ channel, state }: { channel: MessageChannel; state: MessageChannelState }) {
  const { t } = useTranslation('admin');
  const name = t(`messages.channel.${channel}`);
  const share = state.budget ? Math.min(100, Math.round((state.used / state.budget) * 100)) : null;
  return (
    <section className="card flex flex-col gap-2 p-4" aria-label={name}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-lg font-bold text-slate-900">{name}</h3>
        <Badge tone={state.enabled ? 'green' : 'slate'}>
          {t(state.enabled ? 'messages.page.on' : 'messages.page.off')}
        </Badge>
      </div>
      {!state.enabled && <p className="text-sm text-slate-700">{t('messages.page.offText')}</p>}
      <p className="text-slate-900">
        {state.budget
          ? t('messages.page.used', { used: state.used, budget: state.budget })
          : t('messages.page.usedNoBudget', { used: state.used })}
      </p>
      {share !== null && (
        <div
          role="progressbar"
          aria-label={t('messages.page.budgetLabel', { channel: name })}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={share}
          className="h-2 overflow-hidden rounded-full bg-slate-200"
        >
          <div
            className={`h-full ${state.spent ? 'bg-red-700' : state.warning ? 'bg-amber-600' : 'bg-green-700'}`}
            style={{ width: `${share}%` }}
          />
        </div>
      )}
      {state.spent ? (
        <p className="text-sm font-semibold text-red-900">{t('messages.page.spent')}</p>
      ) : state.warning ? (
        <p className="text-sm font-semibold text-amber-900">{t('messages.page.warning')}</p>
      ) : null}
      {state.enabled && (
        <p
          className={`text-sm ${state.reachable ? 'text-slate-700' : 'font-semibold text-red-900'}`}
        >
          {t(state.reachable ? 'messages.page.reachable' : 'messages.page.unreachable')}
        </p>
      )}
    </section>
  );
}

/** Where a message belongs: its application (the lot's applications), wish or donation. */
function ThreadLink({ message }: { message: Message }) {
  const { t } = useTranslation('admin');
  if (message.application_id !== null) {
    const label = t('messages.page.application', { id: message.application_id });
    return message.lot_id !== null ? (
      <Link
        to={`/admin/applications?lot=${message.lot_id}`}
        className="font-medium text-blue-800 underline"
      >
        {label}
      </Link>
    ) : (
      <span>{label}</span>
    );
  }
  if (message.wish_id !== null)
    return (
      <Link to={`/admin/wishes/${message.wish_id}`} className="font-medium text-blue-800 underline">
        {t('messages.page.wish', { id: message.wish_id })}
      </Link>
    );
  if (message.donation_id !== null)
    return (
      <Link
        to={`/admin/donations/${message.donation_id}`}
        className="font-medium text-blue-800 underline"
      >
        {t('messages.page.donation', { id: message.donation_id })}
      </Link>
    );
  return null;
}

function FailedMessage({ message }: { message: Message }) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const [resend, { isLoading }] = useResendMessageMutation();
  const onResend = async () => {
    try {
      await resend(message.id).unwrap();
      toast('success', t('messages.page.resent'));
    } catch (error) {
      // 409 MESSAGE_NOT_FAILED / MESSAGES_OFF: the server's words
      toast('error', errorText(error, t('messages.page.resendFailed')));
    }
  };
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
      <ul className="min-w-0 flex-1">
        <MessageItem message={message} />
      </ul>
      <div className="flex flex-wrap items-center gap-3 pb-3 sm:flex-col sm:items-end sm:pt-3">
        <ThreadLink message={message} />
        <button
          type="button"
          className="btn-primary min-h-10"
          onClick={() => void onResend()}
          disabled={isLoading}
        >
          <RotateCcw aria-hidden="true" className="size-4" />
          {t('messages.page.resend')}
        </button>
      </div>
    </div>
  );
}

function FailedMessages() {
  const { t } = useTranslation('admin');
  const [page, setPage] = useState(1);
  const failed = useGetFailedMessagesQuery(page, { refetchOnMountOrArgChange: true });
  return (
    <section aria-labelledby="failed-messages" className="mb-6">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="failed-messages" className="text-xl font-bold text-slate-900">
          {t('messages.page.failedTitle')}
        </h2>
        <RefreshButton onClick={() => void failed.refetch()} busy={failed.isFetching} />
      </div>
      {failed.isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : failed.error ? (
        <ErrorState
          message={errorText(failed.error, t('messages.loadFailed'))}
          onRetry={() => void failed.refetch()}
        />
      ) : (failed.data?.messages.length ?? 0) === 0 ? (
        <EmptyState
          icon={<MailCheck aria-hidden="true" className="size-8" />}
          title={t('messages.page.failedEmpty')}
        />
      ) : (
        <>
          <ul className="card divide-y divide-slate-200 px-4">
            {failed.data?.messages.map((message) => (
              <li key={message.id}>
                <FailedMessage message={message} />
              </li>
            ))}
          </ul>
          <Pagination
            page={page}
            total={failed.data?.total ?? 0}
            pageSize={FAILED_PAGE_SIZE}
            onPage={setPage}
            rangeKey="messages.page.failedRange"
          />
        </>
      )}
    </section>
  );
}

/** A number's opt-outs: typed, sent in the body, answered per channel with switches. */
function OptOutLookup() {
  const { t } = useTranslation('admin');
  const [phone, setPhone] = useState('');
  const [searched, setSearched] = useState('');
  const [lookup, result] = useLazyGetOptOutQuery();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const number = phone.trim();
    if (!number) return;
    setSearched(number);
    void lookup(number);
  };
  const fieldError = result.error ? serverFieldErrors(result.error).phone : undefined;
  return (
    <section aria-labelledby="opt-out-lookup" className="card p-4">
      <h2 id="opt-out-lookup" className="text-xl font-bold text-slate-900">
        {t('messages.optOut.lookupTitle')}
      </h2>
      <p className="mt-1 mb-3 text-slate-700">{t('messages.optOut.hint')}</p>
      <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField
          className="flex-1"
          label={t('messages.optOut.phone')}
          required
          type="tel"
          autoComplete="off"
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          hint={t('messages.optOut.phoneHint')}
          error={fieldError}
        />
        <button
          type="submit"
          className="btn-primary min-h-11"
          disabled={result.isFetching || !phone.trim()}
        >
          <Search aria-hidden="true" className="size-4" />
          {t('messages.optOut.search')}
        </button>
      </form>
      {result.error && !fieldError && (
        <p role="alert" className="mt-3 text-red-900">
          {errorText(result.error, t('messages.optOut.loadFailed'))}
        </p>
      )}
      {result.data && !result.error && (
        <div className="mt-4 rounded-lg border border-slate-200 p-3" data-testid="opt-out-result">
          <p className="mb-2 font-medium text-slate-900">
            {t('messages.optOut.number', { phone: result.data.phone })}
          </p>
          {/* the number as typed: the same cached lookup, not a second one */}
          <OptOutSwitches phone={searched} label={result.data.phone} />
        </div>
      )}
    </section>
  );
}

/**
 * /admin/messages (issue 30): the channels' state and budgets, the messages that failed for good
 * (with their thread and a resend), and the opt-out lookup.
 */
export default function MessagesPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const status = useGetMessageStatusQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <div>
      <PageHeader
        title={t('messages.title')}
        description={t('messages.page.intro')}
        actions={<RefreshButton onClick={() => void status.refetch()} busy={status.isFetching} />}
      />
      <section aria-labelledby="message-channels" className="mb-6">
        <h2 id="message-channels" className="mb-3 text-xl font-bold text-slate-900">
          {t('messages.page.channels')}
          {status.data && (
            <span className="ml-2 text-base font-normal text-slate-700">
              ({monthName(status.data.month, lang)})
            </span>
          )}
        </h2>
        {status.isLoading ? (
          <Spinner label={t('ui.loading')} />
        ) : status.error || !status.data ? (
          <ErrorState
            message={errorText(status.error, t('messages.page.statusFailed'))}
            onRetry={() => void status.refetch()}
          />
        ) : (
          <div className="grid gap-4 md:grid-cols-2">
            {MessageChannels.map((channel) => (
              <ChannelCard key={channel} channel={channel} state={status.data[channel]} />
            ))}
          </div>
        )}
      </section>
      <FailedMessages />
      <OptOutLookup />
    </div>
  );
}
