import { z } from 'zod';
import type { LocalizedText } from '../errors/types';
import { Limits } from '../limits';
import { isPhoneShaped } from '../phone';

/** A text in both content languages; German is the staff's main language. */
export type LocalizedTextValue = LocalizedText;

/** A text in both content languages, as answers show it. */
export const localizedSchema = z.object({ de: z.string(), uk: z.string() });

/** A required phone in the spec's shape (public-site §5); E.164 is derived on the server. */
export const phoneSchema = (message: 'invalid_phone' | 'invalid_whatsapp') =>
  z
    .string()
    .trim()
    .min(1, { message: 'required', abort: true })
    .refine((v) => isPhoneShaped(v), message);

/** An optional filter of one of `values`; '' means "no filter". */
export const enumFilter = <const T extends readonly [string, ...string[]]>(
  values: T,
  message: 'invalid_status' | 'invalid_role',
) =>
  z
    .enum(values, message)
    .optional()
    .or(z.literal('').transform(() => undefined));

/** Query-string integer (numeric strings accepted), e.g. ?limit=20; optional. */
export const queryInt = (opts: { min?: number; max?: number } = {}) => {
  let s = z.coerce.number().int();
  if (opts.min !== undefined) s = s.min(opts.min);
  if (opts.max !== undefined) s = s.max(opts.max);
  return s;
};
/** The same with a default for a missing value. */
export const queryIntDefault = (def: number, opts: { min?: number; max?: number } = {}) =>
  queryInt(opts).default(def);

/** A success answer `{success: true, data}`. */
export const successData = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), data });

/** Path id: a positive integer. */
export const idParamSchema = z.object({ id: z.coerce.number().int().positive() });

/** limit/skip paging as the back-office sends it ((page-1)*limit). */
export const limitSkipQuerySchema = z.object({
  limit: queryIntDefault(Limits.defaultPageSize, { min: 1, max: Limits.maxPageSize }),
  skip: queryIntDefault(0, { min: 0 }),
});

/** page/limit paging. */
export const pageQuerySchema = z.object({
  page: queryIntDefault(1, { min: 1 }),
  limit: queryIntDefault(Limits.defaultPageSize, { min: 1, max: Limits.maxPageSize }),
});

/** Empty query strings mean "no filter". */
export const optionalQueryString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

export const emailSchema = z
  .string('email_required')
  .trim()
  .min(1, 'email_required')
  .max(Limits.emailMax)
  .toLowerCase()
  .pipe(z.email('invalid_email'));
