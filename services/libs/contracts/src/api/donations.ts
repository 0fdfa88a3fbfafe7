import { z } from 'zod';
import { DonationStatuses, ItemConditions, Languages } from '../enums';
import { Limits } from '../limits';
import { calendarDaySchema, optionalNote } from './applications';
import { lotPatchSchema } from './catalog';
import {
  enumFilter,
  idParamSchema,
  limitSkipQuerySchema,
  optionalQueryString,
  phoneSchema,
} from './common';
import { photoUrlsSchema } from './media';

/*
 * Donations (issue 28): a donor offers furniture with photos on the public site; staff accept or
 * decline it, and make lots of its items. The catalog keeps the donations (a donation and its
 * items are one document); the photos go through the media service.
 *
 * - POST  /api/v1/donations/                                   anyone: the offer → 201 with an upload token
 * - POST  /api/v1/donations/{id}/items/{itemId}/photos         anyone with the upload token (media)
 * - POST  /api/v1/donations/lookup                             anyone: a donor's donations by phone
 * - GET   /api/v1/donations/?status=&search=&limit=&skip=      staff
 * - GET   /api/v1/donations/{id}                               staff
 * - PATCH /api/v1/donations/{id}/status                        staff: accept, decline, collected, cancel
 * - POST  /api/v1/donations/{id}/items/{itemId}/lot            staff: a lot of one item
 */

const int = () => z.number().int();

/** A required text: a missing or empty value is "required", a short one "too_short". */
const requiredText = (min: number, max: number) =>
  z.string().trim().min(1, { message: 'required', abort: true }).min(min).max(max);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => v || null);

/** The header that carries a donation's upload token on its photo uploads. */
export const DONATION_TOKEN_HEADER = 'x-donation-token';

/** One offered item. */
export const donationItemInputSchema = z.object({
  category_id: z.number('required').int().positive(),
  description: requiredText(Limits.donationDescriptionMin, Limits.donationDescriptionMax),
  /** free text ("200 x 90 x 75 cm") */
  dimensions: optionalText(Limits.lotShortTextMax),
  /** one of the lot form's conditions */
  condition: z.enum(ItemConditions, 'invalid_value').nullish().default(null),
  /** the piece can be taken apart for transport */
  can_disassemble: z.boolean('invalid_type').nullish().default(null),
});

/**
 * POST /donations/ (public). Unknown fields are ignored. `available_until` must be today or
 * later (a day in Germany). `donor_name_public`: the donor agrees that a lot made of the donation
 * names them as its donor (otherwise "anonym").
 */
export const donationCreateSchema = z.object({
  donor_name: requiredText(Limits.wishNameMin, Limits.nameMax),
  donor_phone: phoneSchema('invalid_phone'),
  donor_email: z
    .string()
    .trim()
    .max(Limits.emailMax)
    .toLowerCase()
    .nullish()
    .transform((v) => v || null)
    .pipe(z.email('invalid_email').nullable()),
  /** the donor's language: mails go out in it (default: the request's) */
  language: z.enum(Languages, 'invalid_value').optional(),
  city: requiredText(1, Limits.cityMax),
  address: requiredText(1, Limits.addressMax),
  /** 0 = ground floor (German counting), negative = basement */
  floor: z.number('invalid_type').int().min(-5).max(100).nullish().default(null),
  has_elevator: z.boolean('invalid_type').nullish().default(null),
  available_until: calendarDaySchema,
  items: z.array(donationItemInputSchema).min(1).max(Limits.donationItemsMax),
  donor_name_public: z.boolean('invalid_type').default(false),
  consent: z.literal(true, 'consent_required'),
});
export type DonationCreate = z.infer<typeof donationCreateSchema>;

export const donationCreatedAnswer = z.object({
  id: int(),
  status: z.literal('submitted'),
  created_at: z.string(),
  items: z.array(z.object({ id: int() })),
  /** send as X-Donation-Token with each photo upload; valid for one hour */
  upload_token: z.string(),
});
export type DonationCreated = z.infer<typeof donationCreatedAnswer>;

/** Path of the item calls: /donations/{id}/items/{itemId}/… */
export const donationItemParamsSchema = idParamSchema.extend({
  itemId: idParamSchema.shape.id,
});

/** POST /donations/{id}/items/{itemId}/photos → 201 */
export const donationPhotoAnswer = z.object({
  success: z.literal(true),
  data: z.object({ urls: photoUrlsSchema }),
});
export type DonationPhotoUploaded = z.infer<typeof donationPhotoAnswer>;

/** POST /donations/lookup: the number in the body, never in a URL. */
export const donationLookupSchema = z.object({ phone: phoneSchema('invalid_phone') });

/** What the donor sees of their donations. */
export const donationLookupAnswer = z.object({
  donations: z.array(
    z.object({
      id: int(),
      status: z.enum(DonationStatuses),
      created_at: z.string(),
      available_until: z.string(),
      items: z.array(
        z.object({ id: int(), description: z.string(), photos: z.array(photoUrlsSchema) }),
      ),
    }),
  ),
});
export type DonationLookup = z.infer<typeof donationLookupAnswer>;

const staffRef = z.object({ id: int(), name: z.string(), email: z.string(), role: z.string() });

/** One status change of a donation (the first is its submission). */
const donationHistoryEntry = z.object({
  at: z.string(),
  from: z.enum(DonationStatuses).nullable(),
  to: z.enum(DonationStatuses),
  /** who changed it: the donor (submitted), staff, or the expiry job */
  cause: z.enum(['donor', 'staff', 'expired']),
  by: staffRef.nullable(),
  note: z.string().nullable(),
  /** a decline's reason (the donor is told) */
  reason: z.string().nullable(),
});
export type DonationHistoryEntry = z.infer<typeof donationHistoryEntry>;

export const donationItemAnswer = z.object({
  id: int(),
  category_id: int(),
  description: z.string(),
  dimensions: z.string().nullable(),
  condition: z.enum(ItemConditions).nullable(),
  can_disassemble: z.boolean().nullable(),
  /** the donor's photos, in upload order */
  photos: z.array(photoUrlsSchema),
  /** the lot made of the item (at most one) */
  lot_id: int().nullable(),
});
export type DonationItem = z.infer<typeof donationItemAnswer>;

/** A donation as staff see it (lists and detail). */
export const donationAnswer = z
  .object({
    id: int(),
    status: z.enum(DonationStatuses),
    donor_name: z.string(),
    donor_phone: z.string().meta({ description: 'E.164' }),
    /** the number as the donor typed it */
    donor_phone_raw: z.string(),
    donor_email: z.string().nullable(),
    donor_name_public: z.boolean(),
    language: z.enum(Languages),
    city: z.string(),
    address: z.string(),
    floor: int().nullable(),
    has_elevator: z.boolean().nullable(),
    available_until: z.string().meta({ description: 'YYYY-MM-DD' }),
    items: z.array(donationItemAnswer),
    /** oldest first */
    history: z.array(donationHistoryEntry),
    created_at: z.string(),
    updated_at: z.string(),
    /** the donor's data was erased (on request or after the retention period) */
    erased: z.boolean(),
  })
  .meta({ id: 'Donation' });
export type Donation = z.infer<typeof donationAnswer>;

/** GET /donations/ (staff). search: name, phone, city or the donation's number. */
export const donationsQuerySchema = limitSkipQuerySchema.extend({
  status: enumFilter(DonationStatuses, 'invalid_status'),
  search: optionalQueryString,
});
export type DonationsQuery = z.infer<typeof donationsQuerySchema>;

export const donationCountsSchema = z.object(
  Object.fromEntries(DonationStatuses.map((s) => [s, int()])) as Record<
    (typeof DonationStatuses)[number],
    ReturnType<typeof int>
  >,
);

export const donationsPageAnswer = z.object({
  donations: z.array(donationAnswer),
  /** the donations of the filter (all pages) */
  total: int(),
  /** per status, of the search (without the status filter): the tabs' counts */
  counts: donationCountsSchema,
});
export type DonationsPage = z.infer<typeof donationsPageAnswer>;

/**
 * PATCH /donations/{id}/status (staff): submitted → accepted | declined, accepted → collected |
 * cancelled (DonationTransitions). A decline needs a reason (the donor is told); the note is
 * internal.
 */
export const donationStatusUpdateSchema = z
  .object({
    status: z.enum(DonationStatuses, 'invalid_status'),
    note: z.string().nullish(),
    reason: z.string().trim().max(Limits.notesMax).nullish(),
  })
  .transform((v, ctx) => {
    const note = optionalNote(v.note, ctx);
    const reason = v.reason ? v.reason.replace(/\s*[\r\n]+\s*/g, ' ') : null;
    if (v.status === 'declined' && !reason) {
      ctx.addIssue({ code: 'custom', message: 'reason_required_for_decline', path: ['reason'] });
      return z.NEVER;
    }
    return { status: v.status, note, reason };
  });
export type DonationStatusUpdate = z.infer<typeof donationStatusUpdateSchema>;

/**
 * POST /donations/{id}/items/{itemId}/lot (staff): the lot form's fields, each optional; what is
 * left out comes from the item (category, description, dimensions, condition), the donor (the
 * donor's name if they agreed, else "anonym") and the donation (its city as location). The
 * photos are always the item's. The status defaults to available.
 */
export const donationLotCreateSchema = lotPatchSchema.omit({
  version: true,
  photos: true,
  gallery_photos: true,
});
export type DonationLotCreate = z.infer<typeof donationLotCreateSchema>;
