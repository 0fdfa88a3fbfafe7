import { useTranslation } from 'react-i18next';
import { MessageChannels, type MessageChannel } from '@furniture/contracts/enums';
import { Spinner } from '../../../../components/Spinner';
import { errorText } from '../../lib/errors';
import { useToast } from '../../ui/Toasts';
import { useGetOptOutQuery, useSetOptOutMutation, type OptOutState } from '../api/messages-api';

/** One channel's opt-out as a switch: on = the number gets no more messages on that channel. */
function OptOutSwitch({
  state,
  channel,
  label,
}: {
  state: OptOutState;
  channel: MessageChannel;
  label: string;
}) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const [change, { isLoading }] = useSetOptOutMutation();
  const optedOut = state[channel];
  const onToggle = async () => {
    try {
      await change({ phone: state.phone, channel, opted_out: !optedOut }).unwrap();
      toast(
        'success',
        t(optedOut ? 'messages.optOut.optedIn' : 'messages.optOut.optedOut', {
          channel: t(`messages.channel.${channel}`),
        }),
      );
    } catch (error) {
      toast('error', errorText(error, t('messages.optOut.failed')));
    }
  };
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <span className="text-slate-900">
        {t(`messages.channel.${channel}`)}:{' '}
        <span className={optedOut ? 'font-semibold text-red-800' : 'text-slate-700'}>
          {t(optedOut ? 'messages.optOut.isOut' : 'messages.optOut.isIn')}
        </span>
      </span>
      <button
        type="button"
        role="switch"
        aria-checked={optedOut}
        aria-label={t('messages.optOut.switch', {
          channel: t(`messages.channel.${channel}`),
          number: label,
        })}
        disabled={isLoading}
        onClick={() => void onToggle()}
        className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:opacity-60 ${
          optedOut ? 'border-red-700 bg-red-700' : 'border-slate-500 bg-slate-200'
        }`}
      >
        <span
          aria-hidden="true"
          className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${
            optedOut ? 'translate-x-5' : 'translate-x-0.5'
          }`}
        />
      </button>
    </div>
  );
}

/**
 * Whether a number opted out of WhatsApp and SMS (by answering STOP, or marked by staff), with a
 * switch per channel. The number goes to the server in bodies only.
 */
export function OptOutSwitches({ phone, label }: { phone: string; label: string }) {
  const { t } = useTranslation('admin');
  const state = useGetOptOutQuery(phone);
  if (state.isLoading) return <Spinner label={t('ui.loading')} />;
  if (state.error || !state.data)
    return (
      <p role="alert" className="text-sm text-red-900">
        {errorText(state.error, t('messages.optOut.loadFailed'))}
      </p>
    );
  return (
    <div className="flex flex-col gap-2">
      {MessageChannels.map((channel) => (
        <OptOutSwitch key={channel} state={state.data} channel={channel} label={label} />
      ))}
    </div>
  );
}
