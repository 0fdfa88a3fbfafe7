import { z } from 'zod';
import { Languages, SlotKinds } from '../enums';
import { Limits } from '../limits';
import { applicationCreateSchema, wishCreateSchema } from './applications';

/*
 * Referrals (issue 44): a partner agency's referrer applies for a family it supports, under the
 * same rules as the family's own application. A referral is an application (or, later, a wish)
 * that carries who referred it.
 */

const app = applicationCreateSchema.shape;
const int = () => z.number().int();

/** The family a referrer applies for: what the family's own form asks, and its household. */
export const referralFamilySchema = z
  .object({
    name: app.applicant_name,
    phone: app.applicant_phone,
    whatsapp: app.applicant_whatsapp,
    email: app.applicant_email,
    city: app.applicant_city,
    address: app.applicant_address,
    household_size: z
      .number('invalid_type')
      .int('invalid_type')
      .min(1, 'too_small_number')
      .max(Limits.householdMax, 'too_big_number'),
    language: z.enum(Languages),
    needs_delivery_help: app.needs_delivery_help,
  })
  .strict();
export type ReferralFamily = z.infer<typeof referralFamilySchema>;

/** Or a wish: furniture no lot offers yet (the family's wish form's fields). */
const wishPart = z
  .object({
    category_id: wishCreateSchema.shape.furniture_category,
    description: wishCreateSchema.shape.furniture_description,
  })
  .strict();

/** For a lot (`lot_id`) or as a wish (`wish`): exactly one of the two. */
export const referralCreateSchema = z
  .object({
    lot_id: app.lot_id.optional(),
    wish: wishPart.optional(),
    family: referralFamilySchema,
    note: z.string().trim().max(Limits.notesMax).optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if ((r.lot_id === undefined) === (r.wish === undefined))
      ctx.addIssue({ code: 'custom', path: ['lot_id'], message: 'required' });
    if (r.wish && !r.family.whatsapp)
      ctx.addIssue({ code: 'custom', path: ['family', 'whatsapp'], message: 'required' });
  });
export type ReferralCreate = z.infer<typeof referralCreateSchema>;

const agencyRef = z.object({ id: int(), name: z.string() });

export const referralCreatedAnswer = z.object({
  id: int(),
  application_id: int().nullable(),
  wish_id: int().nullable(),
  status: z.string(),
  queue_position: int().nullable(),
  expires_at: z.string(),
  agency: agencyRef,
});
export type ReferralCreated = z.infer<typeof referralCreatedAnswer>;

/** One referred family as its referrer (or staff) sees it. */
export const referralSchema = z
  .object({
    id: int(),
    application_id: int().nullable(),
    wish_id: int().nullable(),
    agency: agencyRef,
    family: z.object({ name: z.string(), phone: z.string() }),
    lot: z.object({ id: int(), name: z.object({ de: z.string(), uk: z.string() }) }).nullable(),
    status: z.string(),
    queue_position: int().nullable(),
    pickup_by: z.string().nullable(),
    handover_url: z.string().nullable(),
    /** the family's booked pickup or delivery slot while approved (`location`: its name) */
    booking: z
      .object({
        starts_at: z.string(),
        ends_at: z.string(),
        kind: z.enum(SlotKinds),
        location: z.string(),
      })
      .nullable(),
    created_at: z.string(),
    expires_at: z.string(),
  })
  .meta({ id: 'Referral' });
export type Referral = z.infer<typeof referralSchema>;

export const referralsAnswer = z.object({ referrals: z.array(referralSchema) });
export type ReferralsAnswer = z.infer<typeof referralsAnswer>;

export const referralsQuerySchema = z.object({
  agency_id: z.coerce.number().int().positive().optional(),
});
