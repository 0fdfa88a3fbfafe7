import { z } from 'zod';
import { CategoryIcons, CategorySlugs, DEFAULT_CATEGORY_ICON, LotStatuses } from '../enums';
import { Limits } from '../limits';
import {
  limitSkipQuerySchema,
  localizedSchema,
  optionalQueryString,
  pageQuerySchema,
  queryInt,
  queryIntDefault,
  successData,
} from './common';

/*
 * Categories and lots: request bodies, queries and answers of the catalog calls
 * (public-site §7 "Categories" and "Lots", back-office §7 "Categories" and "Lots").
 */

// ---------------------------------------------------------------------------------------------
// categories

const stripVariationSelector = (s: string) => s.replace(/\uFE0F/g, '');

/** The canonical emoji of a picker choice; also accepts it without the variation selector. */
export function canonicalCategoryIcon(value: string): string | undefined {
  const wanted = stripVariationSelector(value.trim());
  return CategoryIcons.find((c) => stripVariationSelector(c.icon) === wanted)?.icon;
}

const categoryIconSchema = z.preprocess(
  (v) => {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') return v;
    if (v.trim() === '') return undefined;
    return canonicalCategoryIcon(v) ?? v;
  },
  z.enum(CategoryIcons.map((c) => c.icon) as [string, ...string[]], 'invalid_value').optional(),
);

const descriptionText = z.string().trim().max(Limits.categoryDescriptionMax);
const categoryDescriptionSchema = z.preprocess(
  (v) => v ?? {},
  z.object({ de: descriptionText.default(''), uk: descriptionText.default('') }),
);

const categoryName = (message: 'name_de_required' | 'name_uk_required') =>
  z.string(message).trim().min(1, message).max(Limits.categoryNameMax);

/** POST /categories/ (back-office §5: both names required, descriptions and icon optional). */
export const categoryCreateSchema = z.object({
  name: z.preprocess(
    (v) => v ?? {},
    z.object({ de: categoryName('name_de_required'), uk: categoryName('name_uk_required') }),
  ),
  description: categoryDescriptionSchema,
  /** one of the 20 picker emojis; the box 📦 when empty */
  icon: categoryIconSchema.transform((v) => v ?? DEFAULT_CATEGORY_ICON),
});
export type CategoryCreate = z.infer<typeof categoryCreateSchema>;

/**
 * PUT /categories/{id}: the form, with the version it was loaded with when the client knows it.
 * Both names are required; a description language or the icon left out keeps its value. A sent
 * version that is stale answers 409 STALE_VERSION (someone else saved the category meanwhile);
 * without one the save wins, as in the spec (whose client sends none).
 */
export const categoryUpdateSchema = z.object({
  name: categoryCreateSchema.shape.name,
  description: z
    .object({ de: descriptionText.optional(), uk: descriptionText.optional() })
    .optional(),
  icon: categoryIconSchema,
  version: z.number().int().min(1).optional(),
});
export type CategoryUpdate = z.infer<typeof categoryUpdateSchema>;

/** A category as every catalog answer shows it. */
export const categorySchema = z.object({
  id: z.number().int(),
  /** one of the eight known slugs for ids 1..8 (public-site §3), otherwise null */
  slug: z.string().nullable(),
  name: localizedSchema,
  description: localizedSchema,
  icon: z.string(),
  /** lots of the category that are not archived (what visitors can find) */
  lot_count: z.number().int(),
  /**
   * archived lots of the category: they still hold it, so a category can be deleted only when
   * lot_count + archived_lot_count is 0 (the back-office shows both)
   */
  archived_lot_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  version: z.number().int(),
});
export type Category = z.infer<typeof categorySchema>;

export const categoryAnswerSchema = categorySchema.meta({ id: 'Category' });

/** GET /categories/ */
export const categoriesAnswer = successData(z.array(categoryAnswerSchema));
export type CategoriesAnswer = z.infer<typeof categoriesAnswer>;

/** GET /categories/{id}, POST, PUT */
export const categoryAnswer = successData(categoryAnswerSchema).extend({ message: z.string() });
export type CategoryAnswer = z.infer<typeof categoryAnswer>;

/** DELETE /categories/{id} and /lots/{id} */
export const deletedAnswer = z.object({ success: z.literal(true), message: z.string() });
export type DeletedAnswer = z.infer<typeof deletedAnswer>;

const slugToId = new Map<string, number>(
  Object.entries(CategorySlugs).map(([id, slug]) => [slug, Number(id)]),
);

/** The slug of a known category id (1..8), otherwise null. */
export function categorySlug(id: number): string | null {
  return (CategorySlugs as Record<number, string>)[id] ?? null;
}

/**
 * GET /lots/category/{categoryId}: a number, a numeric string or one of the eight slugs.
 * Answers the id, or undefined for anything else.
 */
export function resolveCategoryRef(ref: string | number): number | undefined {
  if (typeof ref === 'number') return Number.isSafeInteger(ref) && ref > 0 ? ref : undefined;
  const value = ref.trim().toLowerCase();
  if (/^\d{1,15}$/.test(value)) {
    const id = Number(value);
    return id > 0 ? id : undefined;
  }
  return slugToId.get(value);
}

// ---------------------------------------------------------------------------------------------
// lots

/**
 * Photo addresses: only relative URLs under /media/ that the media service handed out; no
 * external URLs (a lot page must not load images from anywhere else).
 */
export const mediaUrlSchema = z
  .string()
  .trim()
  .max(500)
  .regex(/^\/media\/[A-Za-z0-9._~\-/%]+$/, 'invalid_value')
  .refine((v) => !v.split('/').includes('..'), 'invalid_value');

const photoListSchema = z
  .array(mediaUrlSchema)
  .max(Limits.photosPerLot)
  .transform((list) => [...new Set(list)]);

const lotStatusSchema = z.enum(LotStatuses, {
  error: (issue) => (issue.input === undefined ? 'required' : 'invalid_status'),
});
const freeText = (max: number) => z.string().trim().max(max);

/** German required, Ukrainian optional (back-office §5). */
const germanRequired = (max: number) =>
  z.object({
    de: z.string('required').trim().min(1, 'required').max(max),
    uk: freeText(max).optional(),
  });
const bothOptional = (max: number) =>
  z.object({ de: freeText(max).optional(), uk: freeText(max).optional() });

/** a missing object is read as {} so that the error names the German field */
const orEmpty = <S extends z.ZodType>(schema: S) => z.preprocess((v) => v ?? {}, schema);

const lotBodyShape = {
  name: orEmpty(germanRequired(Limits.lotNameMax)),
  description: orEmpty(germanRequired(Limits.lotShortTextMax)),
  /** empty languages take the short description's text */
  detailed_description: bothOptional(Limits.lotTextMax).optional(),
  category_id: z.number('required').int().positive(),
  status: lotStatusSchema,
  dimensions: freeText(Limits.lotShortTextMax).optional(),
  condition: freeText(Limits.lotShortTextMax).optional(),
  donor: freeText(Limits.lotShortTextMax).optional(),
  location: freeText(Limits.lotShortTextMax).optional(),
  /** the first is the card image; at most 10, only /media/ URLs */
  photos: photoListSchema.optional(),
  gallery_photos: photoListSchema.optional(),
};

/**
 * POST /lots/. German name, German short description, category and status are required;
 * id, created_by_user_id, created_at, updated_at and version are set by the server (sent ones
 * are ignored).
 */
export const lotCreateSchema = z.object(lotBodyShape);
export type LotCreate = z.infer<typeof lotCreateSchema>;

/**
 * the version the edit form was loaded with: a stale one answers 409 STALE_VERSION; without one
 * the save wins, as in the spec (whose client sends none)
 */
const versionSchema = z.number().int().min(1);

/**
 * PUT /lots/{id}: the lot form, with the version it was loaded with when the client knows it.
 * Fields left out keep their value.
 */
export const lotUpdateSchema = z.object({ ...lotBodyShape, version: versionSchema.optional() });
export type LotUpdate = z.infer<typeof lotUpdateSchema>;

const patchLocalized = (max: number) =>
  z.object({
    de: z.string().trim().min(1, 'required').max(max).optional(),
    uk: freeText(max).optional(),
  });

/**
 * PATCH /lots/{id}: any subset of the fields, with the version when the client knows it. Photo
 * changes alone (set main photo) neither need nor bump the version.
 */
export const lotPatchSchema = z.object({
  ...lotBodyShape,
  name: patchLocalized(Limits.lotNameMax).optional(),
  description: patchLocalized(Limits.lotShortTextMax).optional(),
  category_id: z.number().int().positive().optional(),
  status: lotStatusSchema.optional(),
  version: versionSchema.optional(),
  /** moves the lot to a storage place (issue 45); null takes it off every place */
  storage_place_id: z.number('invalid_type').int().positive().nullable().optional(),
});
export type LotPatch = z.infer<typeof lotPatchSchema>;

/** A lot as every catalog answer shows it. */
export const lotSchema = z.object({
  id: z.number().int(),
  name: localizedSchema,
  description: localizedSchema,
  detailed_description: localizedSchema,
  status: z.enum(LotStatuses),
  category_id: z.number().int(),
  photos: z.array(z.string()),
  gallery_photos: z.array(z.string()),
  dimensions: z.string(),
  condition: z.string(),
  donor: z.string(),
  location: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** null for lots the system created */
  created_by_user_id: z.number().int().nullable(),
  version: z.number().int(),
  /** staff answers (issue 45): the lot's label code (null until it has one) */
  label_code: z.string().nullable().optional(),
  /** staff answers (issue 45): the storage place it is recorded on (null: none) */
  storage_place_id: z.number().int().nullable().optional(),
});
export type Lot = z.infer<typeof lotSchema>;
export const lotAnswerSchema = lotSchema.meta({ id: 'Lot' });

/** '' means "no filter" in every query below. */
const emptyIsUndefined = z.literal('').transform(() => undefined);
const categoryIdQuery = emptyIsUndefined.or(queryInt({ min: 1 })).optional();
const statusQuery = emptyIsUndefined.or(lotStatusSchema).optional();

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
/**
 * date_from / date_to: a calendar day (YYYY-MM-DD, a day in Germany: date_to includes the whole
 * day) or an ISO date-time with offset.
 */
const dateQuery = emptyIsUndefined
  .or(
    z
      .string()
      .trim()
      .refine((v) => (DATE_ONLY.test(v) || DATE_TIME.test(v)) && !Number.isNaN(Date.parse(v)), {
        message: 'invalid_date',
      }),
  )
  .optional();

/**
 * GET /lots/ and GET /lots/count. Anonymous callers never see archived lots; staff see all.
 * search matches the German and Ukrainian names and short descriptions (and the id when it is a
 * number), case-insensitively.
 */
// a page like every other list: anonymous ?limit=10000 would be unbounded work
export const lotsQuerySchema = limitSkipQuerySchema.extend({
  category_id: categoryIdQuery,
  status: statusQuery,
  search: optionalQueryString,
  date_from: dateQuery,
  date_to: dateQuery,
});
export type LotsQuery = z.infer<typeof lotsQuerySchema>;

/**
 * GET /lots/category/{ref}: without parameters the whole category, as the spec's client expects
 * (public-site §7); the public category page asks for pages of `limit` lots, newest first, the
 * next page with `before_id` = the id of the last lot it shows (a cursor: lots added or archived
 * meanwhile neither repeat nor skip a card). Every answer carries the number of lots the caller
 * can see in the category in the `X-Total-Count` header (docs/decisions.md "Paging a category").
 */
export const lotsOfCategoryQuerySchema = z.object({
  limit: queryInt({ min: 1, max: Limits.maxPageSize }).optional(),
  before_id: queryInt({ min: 1 }).optional(),
});
export type LotsOfCategoryQuery = z.infer<typeof lotsOfCategoryQuerySchema>;

/** The header of GET /lots/category/{ref} that holds the category's number of lots. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

/** GET /lots/count answer */
export const lotCountAnswer = z.object({ count: z.number().int() });
export type LotCount = z.infer<typeof lotCountAnswer>;

/** GET /lots/search (public-site §7): page 1 and 20 per page by default. */
export const lotSearchQuerySchema = z.object({
  search: optionalQueryString,
  category_id: categoryIdQuery,
  status: statusQuery,
  ...pageQuerySchema.shape,
});
export type LotSearchQuery = z.infer<typeof lotSearchQuerySchema>;

export const lotSearchAnswer = z.object({
  lots: z.array(lotAnswerSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type LotSearchPage = z.infer<typeof lotSearchAnswer>;

/** GET /internal/lots/snapshot (see api/internal.ts): lots with id > after_id, by id. */
export const lotSnapshotQuerySchema = z.object({
  after_id: queryIntDefault(0, { min: 0 }),
  limit: queryIntDefault(500, { min: 1, max: 1000 }),
});
