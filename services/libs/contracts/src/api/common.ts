import { z } from 'zod';
import { Limits } from '../limits';

/** A text in both content languages; German is the staff's main language. */
export const localizedTextSchema = z.object({
  de: z.string().trim().default(''),
  uk: z.string().trim().default(''),
});
export type LocalizedTextValue = z.infer<typeof localizedTextSchema>;

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
