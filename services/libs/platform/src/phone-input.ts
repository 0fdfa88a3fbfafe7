import type { Request } from 'express';
import { ValidationMessages, toE164, type FieldError } from '@furniture/contracts';
import { AppError, requestLanguage } from './errors';

/** A phone as E.164 (the key of a family or donor) and as typed. */
export interface PhoneValue {
  e164: string;
  raw: string;
}

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
