import type { Dispatch } from '@reduxjs/toolkit';
import {
  createApi,
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { Limits } from '@furniture/contracts/limits';
import { env } from '../config/env';
import { BUSY_RETRIES, busyDelayMs, waitWhileBusy } from '../lib/busy';
import { takeEarlyAnswer } from './early-loads';
import { currentLanguage } from './i18n';

/**
 * Every failed call, whatever went wrong, as one shape. `status` is the HTTP status or 0 when no
 * answer came (offline, timeout); `code` is the service's stable error code (contracts errors/*)
 * or one of NETWORK_ERROR, TIMEOUT, HTTP_ERROR; `message` is the server's text in the page
 * language when there is one; `detail` is what the server sent as detail (for a 422 the list
 * of field errors).
 */
export interface ApiError {
  status: number;
  code: string;
  message: string;
  detail?: unknown;
  /** the message is only 'HTTP {status}: {text}': the server said nothing a family could read */
  generic?: boolean;
}

/** One entry of a 422's detail list (docs/decisions.md "API shape"). */
export interface ApiFieldError {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiError).status === 'number' &&
    typeof (value as ApiError).code === 'string'
  );
}

/** The 422 detail list, or an empty list for every other error. */
export function fieldErrorsOf(error: ApiError): ApiFieldError[] {
  if (!Array.isArray(error.detail)) return [];
  return error.detail.filter(
    (e): e is ApiFieldError =>
      typeof e === 'object' && e !== null && Array.isArray(e.loc) && typeof e.msg === 'string',
  );
}

const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/**
 * 'HTTP {status}: {text}' (back-office §8 "Generic"), with the answer's reason phrase when it
 * came with one (HTTP/2 answers carry none).
 */
const httpText = (status: number, statusText: string | undefined): string =>
  statusText?.trim() ? `HTTP ${status}: ${statusText.trim()}` : `HTTP ${status}`;

/** Maps what fetchBaseQuery reports to ApiError (exported for tests). */
export function normalizeError(error: FetchBaseQueryError, statusText?: string): ApiError {
  if (error.status === 'FETCH_ERROR') {
    return { status: 0, code: 'NETWORK_ERROR', message: error.error };
  }
  if (error.status === 'TIMEOUT_ERROR') {
    return { status: 0, code: 'TIMEOUT', message: error.error };
  }
  if (error.status === 'PARSING_ERROR') {
    // an answer that is not JSON (a proxy's HTML error page, for example)
    return {
      status: error.originalStatus,
      code: 'HTTP_ERROR',
      message: httpText(error.originalStatus, statusText),
      detail: error.data,
      generic: true,
    };
  }
  if (error.status === 'CUSTOM_ERROR') {
    return { status: 0, code: 'CUSTOM_ERROR', message: error.error, detail: error.data };
  }
  const body = (typeof error.data === 'object' && error.data !== null ? error.data : {}) as Record<
    string,
    unknown
  >;
  const told =
    textOf(body.message) ?? textOf(body.detail) ?? textOf(body.error) ?? textOf(error.data);
  return {
    status: error.status,
    code: textOf(body.code) ?? 'HTTP_ERROR',
    message: told ?? httpText(error.status, statusText),
    detail: body.detail,
    ...(told === undefined ? { generic: true } : {}),
  };
}

/**
 * The base URL as an absolute address: the app runs on the API's origin, and an absolute URL
 * lets the same code run under Node's fetch in tests.
 */
function baseUrl(): string {
  const origin = typeof window !== 'undefined' ? window.location.origin : 'http://localhost';
  return new URL(env.apiBaseUrl, origin).toString();
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: baseUrl(),
  // a public GET that main.tsx started before the page's code arrived takes that answer
  fetchFn: (input, init) =>
    (input instanceof Request ? takeEarlyAnswer(input) : undefined) ?? fetch(input, init),
  prepareHeaders: (headers) => {
    // services answer messages in this language (docs/decisions.md "API shape")
    headers.set('Accept-Language', currentLanguage());
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    return headers;
  },
});

// ---------------------------------------------------------------------------------------------
// The staff session (back-office §4 "Auth", public-site §4 "Session")

/** What POST /auth/login, POST /auth/refresh and PATCH /auth/password answer. */
export interface TokenAnswer {
  access_token: string;
  token_type?: string;
  expires_in?: number;
  user?: unknown;
  /** the seeded administrator's first login: the password change comes first */
  must_change_password?: boolean;
}

/** Why a session ended: the refresh failed ('expired') or a retry after a refresh got 401 ('failed'). */
export type SessionEndReason = 'expired' | 'failed';

/**
 * How the base query reaches the staff session. The back-office's session module binds it when
 * its chunk loads; until then (the public pages) no call carries a token and nothing changes.
 */
export interface SessionBinding {
  /** the access token held in this store's state (memory only), or null */
  token(state: unknown): string | null;
  /** keeps the token of a successful refresh (starts the session after a reload) */
  refreshed(dispatch: Dispatch, answer: TokenAnswer, state: unknown): void;
  /** clears the session; the back-office's route guard then shows the login page */
  ended(dispatch: Dispatch, reason: SessionEndReason | null): void;
}

let session: SessionBinding | null = null;

export function bindSession(binding: SessionBinding | null): void {
  session = binding;
}

/** Refresh when fewer than this many seconds remain (back-office §4, §9). */
export const TOKEN_REFRESH_THRESHOLD_SECONDS = Limits.tokenRefreshThresholdSeconds;

function claimsOf(token: string): { exp?: unknown; iat?: unknown } {
  try {
    const payload = token.split('.')[1] ?? '';
    return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as {
      exp?: unknown;
      iat?: unknown;
    };
  } catch {
    return {};
  }
}

/** Seconds until a JWT's `exp` (-Infinity for a token that cannot be read). */
export function tokenSecondsLeft(token: string, now = Date.now()): number {
  const { exp } = claimsOf(token);
  return typeof exp === 'number' ? exp - now / 1000 : -Infinity;
}

/**
 * When to refresh ahead: 300 s before the end, or a third of the token's lifetime when tokens
 * live shorter (configured so): otherwise every call would refresh first.
 */
export function refreshThresholdOf(token: string): number {
  const { exp, iat } = claimsOf(token);
  if (typeof exp !== 'number' || typeof iat !== 'number' || exp <= iat) {
    return TOKEN_REFRESH_THRESHOLD_SECONDS;
  }
  return Math.min(TOKEN_REFRESH_THRESHOLD_SECONDS, (exp - iat) / 3);
}

const REFRESH_PATH = '/auth/refresh';

function withBearer(args: string | FetchArgs, token: string | null): string | FetchArgs {
  if (!token) return args;
  const request: FetchArgs = typeof args === 'string' ? { url: args } : args;
  const headers = new Headers();
  const given = request.headers;
  if (given instanceof Headers || Array.isArray(given)) {
    new Headers(given as HeadersInit).forEach((value, key) => headers.set(key, value));
  } else if (given) {
    for (const [key, value] of Object.entries(given)) {
      if (value !== undefined) headers.set(key, value);
    }
  }
  headers.set('Authorization', `Bearer ${token}`);
  return { ...request, headers };
}

/** One refresh at a time: calls that find the token expiring or get a 401 share it. */
let refreshing: { token: string | null; result: Promise<string | null> } | null = null;

type StoreAccess = Pick<BaseQueryApi, 'dispatch' | 'getState'>;

/**
 * POST /auth/refresh: the browser sends the httpOnly refresh cookie (path /api/v1/auth), no
 * bearer token; the server replaces the cookie with every refresh. Answers the new access token,
 * or null when the server refused (the session is then ended as expired). A refresh that got no
 * answer at all (offline) ends nothing: the next call tries again. `token` is the access token
 * it replaces (null after a reload): calls holding the same one share the refresh.
 */
function refreshSession(token: string | null, store: StoreAccess): Promise<string | null> {
  if (refreshing && refreshing.token === token) return refreshing.result;
  const result = (async () => {
    // its own signal: a query given up by its component must not cancel the shared refresh
    const api: BaseQueryApi = {
      signal: new AbortController().signal,
      abort: () => undefined,
      dispatch: store.dispatch,
      getState: store.getState,
      extra: undefined,
      endpoint: 'refreshSession',
      type: 'mutation',
    };
    const answer = await rawBaseQuery({ url: REFRESH_PATH, method: 'POST' }, api, {});
    const data = answer.data as TokenAnswer | undefined;
    if (!answer.error && typeof data?.access_token === 'string') {
      session?.refreshed(store.dispatch, data, store.getState());
      return data.access_token;
    }
    if (answer.error && typeof answer.error.status === 'number') {
      session?.ended(store.dispatch, 'expired');
    } else if (token === null) {
      // a restore without an answer: the login page shows (the cookie may still be good)
      session?.ended(store.dispatch, null);
    }
    return null;
  })();
  refreshing = { token, result };
  void result.finally(() => {
    if (refreshing?.result === result) refreshing = null;
  });
  return result;
}

/**
 * After a reload or in a new tab: asks for an access token with the refresh cookie. Answers
 * whether the session lives on (the state then holds it).
 */
export async function restoreSession(store: StoreAccess): Promise<boolean> {
  return (await refreshSession(null, store)) !== null;
}

/**
 * Runs one call with the staff session's token: refreshed first when fewer than 300 s remain;
 * after a 401 refreshed once and the call retried once; a failed refresh ends the session as
 * 'expired' ('Session expired'), a second 401 as 'failed' ('Authentication failed'). Without a
 * session the call goes out as it is. Exported for calls outside RTK Query (uploads with
 * progress).
 */
export async function callWithSession<T>(
  store: StoreAccess,
  send: (token: string | null) => Promise<T>,
  isUnauthorized: (result: T) => boolean,
): Promise<T> {
  const held = () => session?.token(store.getState()) ?? null;
  let token = held();
  if (token && tokenSecondsLeft(token) < refreshThresholdOf(token)) {
    token = (await refreshSession(token, store)) ?? held();
  }
  let result = await send(token);
  if (token && isUnauthorized(result)) {
    // a call that ran alongside a refresh may have sent the token that refresh replaced
    const current = held();
    const fresh = current && current !== token ? current : await refreshSession(token, store);
    if (fresh) {
      result = await send(fresh);
      if (isUnauthorized(result)) session?.ended(store.dispatch, 'failed');
    }
  }
  return result;
}

/**
 * The seconds a shed call should wait before trying again (503 SERVICE_BUSY, or a 503 with
 * Retry-After), or null when the call was not shed. A shed call was refused before any work, so
 * trying it again is safe whatever its method.
 */
export function shedRetryAfter(result: {
  error?: FetchBaseQueryError;
  meta?: { response?: Response };
}): number | null {
  const error = result.error;
  if (!error || error.status !== 503) return null;
  const header = result.meta?.response?.headers.get('retry-after');
  const code = (error.data as { code?: unknown } | undefined)?.code;
  if (code !== 'SERVICE_BUSY' && !header) return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 2;
}

/**
 * The one base query: sends the page language, the staff session's token when there is one
 * (callWithSession), and normalizes every failure to ApiError.
 */
export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError> = async (
  args,
  api,
  extraOptions,
) => {
  let result = await callWithSession(
    api,
    async (token) => rawBaseQuery(withBearer(args, token), api, extraOptions as object),
    (r) => r.error?.status === 401,
  );
  // shed under load before anything was done (issue 48): tried again after the server's
  // Retry-After, with backoff, while the page says "busy, trying again" (BusyNotice)
  for (let attempt = 0; attempt < BUSY_RETRIES && !api.signal.aborted; attempt++) {
    const retryAfter = shedRetryAfter(result);
    if (retryAfter === null) break;
    await waitWhileBusy(busyDelayMs(retryAfter, attempt), api.signal);
    if (api.signal.aborted) break;
    result = await callWithSession(
      api,
      async (token) => rawBaseQuery(withBearer(args, token), api, extraOptions as object),
      (r) => r.error?.status === 401,
    );
  }
  if (result.error) {
    return {
      error: normalizeError(result.error, result.meta?.response?.statusText),
      meta: result.meta,
    };
  }
  return { data: result.data, meta: result.meta };
};

/**
 * The one RTK Query api of the app. Features add their calls with `api.injectEndpoints` (and,
 * if they need their own tags, `api.enhanceEndpoints({ addTagTypes })`), so each feature's
 * calls ship in that feature's chunk.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Category', 'Lot', 'QueueInfo', 'Eligibility', 'ApplicationStatus'],
  // refetch what is on screen when a phone comes back online
  refetchOnReconnect: true,
  endpoints: () => ({}),
});
