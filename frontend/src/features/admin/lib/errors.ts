import { fieldErrorsOf, isApiError, type ApiError } from '../../../app/api';

/** The server's message of a failed call, or the given text (back-office §8 "Generic"). */
export function errorText(error: unknown, fallback: string): string {
  if (isApiError(error) && error.status !== 0 && error.message) return error.message;
  return fallback;
}

export const apiErrorOf = (error: unknown): ApiError | null => (isApiError(error) ? error : null);

/** A 422's field errors by field name (the last part of `loc`, e.g. body.name.de → 'name.de'). */
export function serverFieldErrors(error: unknown): Record<string, string> {
  const api = apiErrorOf(error);
  if (!api) return {};
  const out: Record<string, string> = {};
  for (const entry of fieldErrorsOf(api)) {
    const path = entry.loc.filter((p) => p !== 'body' && p !== 'query').join('.');
    out[path] ??= entry.msg;
  }
  return out;
}
