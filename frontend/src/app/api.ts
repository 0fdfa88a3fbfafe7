import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { env } from '../config/env';
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

/** Maps what fetchBaseQuery reports to ApiError (exported for tests). */
export function normalizeError(error: FetchBaseQueryError): ApiError {
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
      message: `HTTP ${error.originalStatus}`,
      detail: error.data,
    };
  }
  if (error.status === 'CUSTOM_ERROR') {
    return { status: 0, code: 'CUSTOM_ERROR', message: error.error, detail: error.data };
  }
  const body = (typeof error.data === 'object' && error.data !== null ? error.data : {}) as Record<
    string,
    unknown
  >;
  const message =
    textOf(body.message) ??
    textOf(body.detail) ??
    textOf(body.error) ??
    textOf(error.data) ??
    `HTTP ${error.status}`;
  return {
    status: error.status,
    code: textOf(body.code) ?? 'HTTP_ERROR',
    message,
    detail: body.detail,
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
  prepareHeaders: (headers) => {
    // services answer messages in this language (docs/decisions.md "API shape")
    headers.set('Accept-Language', currentLanguage());
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    return headers;
  },
});

/** The one base query: sends the page language and normalizes every failure to ApiError. */
export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, ApiError> = async (
  args,
  api,
  extraOptions,
) => {
  const result = await rawBaseQuery(args, api, extraOptions as object);
  if (result.error) return { error: normalizeError(result.error), meta: result.meta };
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
