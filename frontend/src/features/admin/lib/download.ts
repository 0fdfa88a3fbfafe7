import type { Dispatch } from '@reduxjs/toolkit';
import { callWithSession, type ApiError } from '../../../app/api';
import { currentLanguage } from '../../../app/i18n';

/**
 * Hands a file to the browser's downloads through a temporary link (the activity export, the
 * impact charts' CSV, a family's data as JSON, labels as PDF). The address is released a moment
 * later: some browsers read it only after the click's task.
 */
export function saveBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** What a download needs of the app's store: the staff session. */
export interface SessionStore {
  dispatch: Dispatch;
  getState: () => unknown;
}

/**
 * A file from the API (the activity export, a label PDF) fetched with the staff session like
 * every call, and saved through a download link under the name the server gave it (or
 * `fallbackName`). A failure throws the ApiError the server answered.
 */
export async function downloadWithSession(
  store: SessionStore,
  url: URL,
  fallbackName: string,
): Promise<void> {
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
  saveBlob(name ?? fallbackName, blob);
}
