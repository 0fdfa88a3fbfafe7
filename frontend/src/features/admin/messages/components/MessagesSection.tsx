import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronDown, Info, RefreshCw, Send } from 'lucide-react';
import { Spinner } from '../../../../components/Spinner';
import { errorText } from '../../lib/errors';
import {
  useGetMessageStatusQuery,
  useGetMessagesQuery,
  type MessageThread,
} from '../api/messages-api';
import { AWAIT_NEW_MS, channelsOff, IN_FLIGHT, MESSAGES_POLL_MS } from '../lib/message-style';
import { MessageItem } from './MessageItem';
import { OptOutSwitches } from './OptOutSwitches';
import { SendMessageDialog, type SendTarget } from './SendMessageDialog';

/** A number of the family, for the opt-out switches. */
export interface FamilyNumber {
  /** as stored (E.164) */
  phone: string;
  /** what staff read: 'WhatsApp +49 176 …' */
  label: string;
}

/**
 * The messages of one thread (an application, a wish or a donation), newest first; a list that
 * polls while a message is on its way. Where `sendTo` is given, staff can send a prepared
 * message; where `numbers` are, they see and change the family's opt-outs.
 */
function MessagesBody({
  thread,
  sendTo,
  numbers,
}: {
  thread: MessageThread;
  sendTo?: SendTarget;
  numbers: FamilyNumber[];
}) {
  const { t } = useTranslation('admin');
  const hintId = useId();
  const [sending, setSending] = useState(false);
  // after a send: the number of messages before it, until a new one shows (or time is up)
  const [awaiting, setAwaiting] = useState<number | null>(null);
  const status = useGetMessageStatusQuery();
  const [polling, setPolling] = useState(false);
  const list = useGetMessagesQuery(thread, {
    refetchOnMountOrArgChange: true,
    pollingInterval: polling ? MESSAGES_POLL_MS : 0,
  });
  const messages = list.data ?? [];
  const inFlight = messages.some((m) => IN_FLIGHT.includes(m.status));
  const arrived = awaiting !== null && messages.length > awaiting;
  useEffect(() => {
    if (arrived) setAwaiting(null);
  }, [arrived]);
  useEffect(
    () => setPolling(inFlight || (awaiting !== null && !arrived)),
    [inFlight, awaiting, arrived],
  );
  useEffect(() => {
    if (awaiting === null) return;
    const timer = setTimeout(() => setAwaiting(null), AWAIT_NEW_MS);
    return () => clearTimeout(timer);
  }, [awaiting]);
  const off = status.data ? channelsOff(status.data) : false;

  return (
    <div className="flex flex-col gap-3">
      {off && (
        <p
          id={hintId}
          className="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950"
        >
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {t('messages.channelsOff')}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        {sendTo && (
          <button
            type="button"
            className="btn-primary min-h-10"
            onClick={() => setSending(true)}
            disabled={off || !status.data}
            aria-describedby={off ? hintId : undefined}
          >
            <Send aria-hidden="true" className="size-4" />
            {t('messages.send')}
          </button>
        )}
        <button
          type="button"
          className="btn-secondary min-h-10"
          onClick={() => void list.refetch()}
          disabled={list.isFetching}
        >
          <RefreshCw
            aria-hidden="true"
            className={`size-4 ${list.isFetching ? 'animate-spin' : ''}`}
          />
          {t('ui.refresh')}
        </button>
      </div>
      {list.isLoading ? (
        <Spinner label={t('ui.loading')} />
      ) : list.error ? (
        <p role="alert" className="text-sm text-red-900">
          {errorText(list.error, t('messages.loadFailed'))}
        </p>
      ) : messages.length === 0 ? (
        <p className="text-sm text-slate-700">{t('messages.empty')}</p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-label={t('messages.listLabel')}>
          {messages.map((message) => (
            <MessageItem key={message.id} message={message} />
          ))}
        </ul>
      )}
      {awaiting !== null && !arrived && (
        <p role="status" className="text-sm text-slate-700">
          {t('messages.awaiting')}
        </p>
      )}
      {numbers.length > 0 && (
        <div className="rounded-lg border border-slate-200 p-3">
          <p className="font-semibold text-slate-900">{t('messages.optOut.title')}</p>
          <p className="mb-2 text-sm text-slate-700">{t('messages.optOut.hint')}</p>
          <ul className="flex flex-col gap-3">
            {numbers.map((number) => (
              <li key={number.phone}>
                <p className="mb-1 text-sm font-medium text-slate-800">{number.label}</p>
                <OptOutSwitches phone={number.phone} label={number.label} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {sending && sendTo && (
        <SendMessageDialog
          target={sendTo}
          onClose={() => setSending(false)}
          onSent={() => setAwaiting(messages.length)}
        />
      )}
    </div>
  );
}

/**
 * "Nachrichten" on an application card, a wish or a donation. On the applications screen (many
 * cards) it opens on request, so a page of cards does not ask for every thread.
 */
export function MessagesSection({
  thread,
  sendTo,
  numbers = [],
  collapsible = false,
}: {
  thread: MessageThread;
  sendTo?: SendTarget;
  numbers?: FamilyNumber[];
  collapsible?: boolean;
}) {
  const { t } = useTranslation('admin');
  const [open, setOpen] = useState(!collapsible);
  const panelId = useId();
  const title = t('messages.section');
  if (!collapsible) {
    return (
      <section className="card p-4 sm:p-5" aria-label={title}>
        <h2 className="mb-2 text-lg font-bold text-slate-900">{title}</h2>
        <MessagesBody thread={thread} sendTo={sendTo} numbers={numbers} />
      </section>
    );
  }
  return (
    <section className="rounded-lg border border-slate-200" aria-label={title}>
      <h3>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
          className="flex min-h-11 w-full items-center justify-between gap-2 px-3 text-left font-semibold text-slate-900 hover:bg-slate-50"
        >
          {title}
          <ChevronDown
            aria-hidden="true"
            className={`size-5 transition-transform ${open ? 'rotate-180' : ''}`}
          />
        </button>
      </h3>
      {open && (
        <div id={panelId} className="border-t border-slate-200 p-3">
          <MessagesBody thread={thread} sendTo={sendTo} numbers={numbers} />
        </div>
      )}
    </section>
  );
}
