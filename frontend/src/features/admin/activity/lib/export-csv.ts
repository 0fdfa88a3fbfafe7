import type { Dispatch } from '@reduxjs/toolkit';
import { callWithSession, type ApiError } from '../../../../app/api';
import { currentLanguage } from '../../../../app/i18n';
import { env } from '../../../../config/env';
import { saveBlob } from '../../lib/download';
import type { ActivityFilters } from './activity';

/**
 * GET /activity-logs/export.csv with the panel's filters (every matching entry, not only the
 * loaded page), with the staff session like every call, saved through a download link.
 */
export async function downloadActivityCsv(
  store: { dispatch: Dispatch; getState: () => unknown },
  filters: ActivityFilters,
): Promise<void> {
  const url = new URL(`${env.apiBaseUrl}/activity-logs/export.csv`, window.location.origin);
  if (filters.actionType) url.searchParams.set('action_type', filters.actionType);
  if (filters.userId) url.searchParams.set('user_id', filters.userId);
  if (filters.dateFrom) url.searchParams.set('date_from', filters.dateFrom);
  if (filters.dateTo) url.searchParams.set('date_to', filters.dateTo);
  const response = await callWithSession(
    store,
    (token) =>
      fetch(url, {
        headers: {
          'Accept-Language': currentLanguage(),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
      }).catch(() => null),
    (r) => r?.status === 401,
  );
  if (!response?.ok) {
    const body = (await response?.json().catch(() => null)) as {
      message?: string;
      code?: string;
    } | null;
    const error: ApiError = {
      status: response?.status ?? 0,
      code: body?.code ?? (response ? 'HTTP_ERROR' : 'NETWORK_ERROR'),
      message: body?.message ?? `HTTP ${response?.status ?? 0}`,
    };
    throw error;
  }
  const blob = await response.blob();
  const name = /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  saveBlob(name ?? `aktivitaeten-${new Date().toISOString().slice(0, 10)}.csv`, blob);
}
