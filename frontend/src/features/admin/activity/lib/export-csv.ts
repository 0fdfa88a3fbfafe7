import { env } from '../../../../config/env';
import { downloadWithSession, type SessionStore } from '../../lib/download';
import type { ActivityFilters } from './activity';

/**
 * GET /activity-logs/export.csv with the panel's filters (every matching entry, not only the
 * loaded page), with the staff session like every call, saved through a download link.
 */
export async function downloadActivityCsv(
  store: SessionStore,
  filters: ActivityFilters,
): Promise<void> {
  const url = new URL(`${env.apiBaseUrl}/activity-logs/export.csv`, window.location.origin);
  if (filters.actionType) url.searchParams.set('action_type', filters.actionType);
  if (filters.userId) url.searchParams.set('user_id', filters.userId);
  if (filters.dateFrom) url.searchParams.set('date_from', filters.dateFrom);
  if (filters.dateTo) url.searchParams.set('date_to', filters.dateTo);
  await downloadWithSession(
    store,
    url,
    `aktivitaeten-${new Date().toISOString().slice(0, 10)}.csv`,
  );
}
