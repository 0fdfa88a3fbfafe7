import type { Request } from 'express';
import {
  Errors,
  ValidationMessages,
  formatMessage,
  type ErrorCode,
  type FieldError,
} from '@furniture/contracts';
import { AppError, requestLanguage } from '@furniture/platform';
import type { PhoneValue } from '../../domain/public-applications';
import { toE164 } from '../../domain/phone';

type PhoneKey = 'invalid_phone' | 'invalid_whatsapp';

/**
 * Turns phone fields (already in the spec's shape) into E.164, or refuses the request with a 422
 * naming every field that is no phone number at all.
 */
export function phoneFields<K extends string>(
  req: Request,
  where: 'body' | 'path' | 'query',
  fields: Record<K, { value: string | null | undefined; key: PhoneKey }>,
): Record<K, PhoneValue | null> {
  const lang = requestLanguage(req);
  const out = {} as Record<K, PhoneValue | null>;
  const errors: FieldError[] = [];
  for (const [name, { value, key }] of Object.entries(fields) as [
    K,
    { value: string | null | undefined; key: PhoneKey },
  ][]) {
    if (value === null || value === undefined) {
      out[name] = null;
      continue;
    }
    const e164 = toE164(value);
    if (e164) out[name] = { e164, raw: value.trim() };
    else errors.push({ loc: [where, name], msg: ValidationMessages[key][lang], type: key });
  }
  if (errors.length > 0) throw new AppError('VALIDATION_FAILED', { fieldErrors: errors });
  return out;
}

/** The hidden honeypot field holds anything at all. */
export function honeypotFilled(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false && String(value).trim() !== '';
}

/** An error code's text in the request's language (for answers that carry a reason). */
export function localized(
  req: Request,
  code: ErrorCode,
  params: Record<string, string | number> = {},
): string {
  return formatMessage(Errors[code][requestLanguage(req)], params);
}

/** One field error in the request's language. */
export function localizedField(
  req: Request,
  loc: (string | number)[],
  key: keyof typeof ValidationMessages,
): FieldError {
  return { loc, msg: ValidationMessages[key][requestLanguage(req)], type: key };
}
