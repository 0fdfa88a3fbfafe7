import { useTranslation } from 'react-i18next';
import { Mail, MessageCircle, MessageSquareText } from 'lucide-react';
import { Badge } from '../../../../components/Badge';
import { useLanguage } from '../../../../lib/language';
import { formatDate } from '../../lib/dates';
import type { Message } from '../api/messages-api';
import { STATUS_TONES } from '../lib/message-style';

/** A message's status as a coloured pill. */
export function MessageStatusBadge({ status }: { status: Message['status'] }) {
  const { t } = useTranslation('admin');
  return <Badge tone={STATUS_TONES[status] ?? 'slate'}>{t(`messages.status.${status}`)}</Badge>;
}

/** What a message is about (the mail kind it mirrors, or the staff's prepared message). */
export function useKindLabel() {
  const { t } = useTranslation('admin');
  return (kind: string) => t(`messages.kind.${kind}`, { defaultValue: kind });
}

/**
 * One message of a thread: what it is about, where it went (channel, masked number), what became
 * of it (status with the reason) and each step the providers reported.
 */
export function MessageItem({ message }: { message: Message }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const kindLabel = useKindLabel();
  const ChannelIcon = message.channel === 'sms' ? MessageSquareText : MessageCircle;
  return (
    <li className="py-3" data-testid={`message-${message.id}`}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <p className="font-semibold text-slate-900">{kindLabel(message.kind)}</p>
        <MessageStatusBadge status={message.status} />
        {message.reason && (
          <span className="text-sm text-slate-800">{t(`messages.reason.${message.reason}`)}</span>
        )}
      </div>
      <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
        <span className="inline-flex items-center gap-1">
          <ChannelIcon aria-hidden="true" className="size-4" />
          {message.channel ? t(`messages.channel.${message.channel}`) : t('messages.noChannel')}
          {message.to && <span className="font-mono">{message.to}</span>}
        </span>
        <span>{t(`messages.language.${message.language}`)}</span>
        <time dateTime={message.created_at}>{formatDate(message.created_at, lang)}</time>
        {message.emailed && (
          <span className="inline-flex items-center gap-1">
            <Mail aria-hidden="true" className="size-4" />
            {t('messages.emailed')}
          </span>
        )}
        {message.requested_by && (
          <span>{t('messages.requestedBy', { name: message.requested_by })}</span>
        )}
      </p>
      {message.steps.length > 0 && (
        <ol className="mt-2 flex flex-col gap-0.5 border-l-2 border-slate-200 pl-3 text-sm text-slate-800">
          {message.steps.map((step, i) => (
            <li key={`${step.at}-${i}`}>
              {t('messages.step', {
                channel: t(`messages.channel.${step.channel}`),
                status: t(`messages.status.${step.status}`),
                time: formatDate(step.at, lang),
              })}
              {step.error && <span className="text-slate-700"> ({step.error})</span>}
            </li>
          ))}
        </ol>
      )}
      {message.text && (
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer font-medium text-blue-800">
            {t('messages.showText')}
          </summary>
          <p className="mt-1 whitespace-pre-line text-slate-900" lang={message.language}>
            {message.text}
          </p>
        </details>
      )}
    </li>
  );
}
