import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AlertTriangle } from 'lucide-react';
import { MessageChannels } from '@furniture/contracts/enums';
import { useGetMessageStatusQuery } from '../api/messages-api';

/** How often the layout asks again whether a budget ran low (the status is cheap). */
export const BUDGET_POLL_MS = 5 * 60 * 1000;

/**
 * The administrators' warning that a channel used 80 % of its monthly message budget, or all of
 * it (issue 30), on every back-office page; nothing while the budgets are fine.
 */
export function BudgetBanner() {
  const { t } = useTranslation('admin');
  const status = useGetMessageStatusQuery(undefined, { pollingInterval: BUDGET_POLL_MS });
  const data = status.data;
  if (!data) return null;
  const lines = MessageChannels.flatMap((channel) => {
    const state = data[channel];
    if (!state.enabled || (!state.warning && !state.spent)) return [];
    return [
      t(state.spent ? 'messages.banner.spent' : 'messages.banner.warning', {
        channel: t(`messages.channel.${channel}`),
        used: state.used,
        budget: state.budget ?? '—',
      }),
    ];
  });
  if (lines.length === 0) return null;
  return (
    <div
      role="status"
      className="mb-5 flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950"
    >
      <AlertTriangle aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <div className="flex-1">
        {lines.map((line) => (
          <p key={line} className="font-medium">
            {line}
          </p>
        ))}
        <Link to="/admin/messages" className="font-medium text-blue-800 underline">
          {t('messages.banner.link')}
        </Link>
      </div>
    </div>
  );
}
