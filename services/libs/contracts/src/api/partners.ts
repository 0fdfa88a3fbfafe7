import { z } from 'zod';
import { Languages } from '../enums';
import { Limits } from '../limits';
import { emailSchema } from './common';

/*
 * Partner agencies and their referrers (issue 44): admins keep the agencies and invite referrers
 * by e-mail; an invited person sets name and password through the link.
 */

const agencyName = z.string('name_required').trim().min(1, 'name_required').max(Limits.nameMax);
const citySchema = z.string('city_required').trim().min(1, 'city_required').max(Limits.nameMax);

export const agencyCreateSchema = z
  .object({ name: agencyName, city: citySchema, contact_email: emailSchema })
  .strict();
export type AgencyCreate = z.infer<typeof agencyCreateSchema>;

/** `active: false` logs the agency's referrers out everywhere and refuses their login. */
export const agencyPatchSchema = z
  .object({
    active: z.boolean().optional(),
    name: agencyName.optional(),
    city: citySchema.optional(),
    contact_email: emailSchema.optional(),
  })
  .strict();
export type AgencyPatch = z.infer<typeof agencyPatchSchema>;

export const agencySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    city: z.string(),
    contact_email: z.string(),
    active: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: 'Agency' });
export type Agency = z.infer<typeof agencySchema>;

export const agenciesAnswer = z.object({ agencies: z.array(agencySchema) });
export type AgenciesAnswer = z.infer<typeof agenciesAnswer>;

export const invitationCreateSchema = z
  .object({ email: emailSchema, language: z.enum(Languages).default('de') })
  .strict();
export type InvitationCreate = z.infer<typeof invitationCreateSchema>;

export const invitationAnswer = z.object({
  invite_url: z.string().meta({ description: 'the personal link (also mailed to the invitee)' }),
  expires_at: z.string(),
});
export type InvitationAnswer = z.infer<typeof invitationAnswer>;

export const invitationTokenParamSchema = z.object({
  token: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .meta({ description: 'the secret of the link' }),
});

export const invitationAcceptSchema = z
  .object({
    name: z.string('name_required').trim().min(1, 'name_required').max(Limits.nameMax),
    password: z
      .string('password_required')
      .min(1, 'password_required')
      .min(Limits.newPasswordMin, 'password_too_short')
      .max(Limits.passwordMax),
  })
  .strict();
export type InvitationAccept = z.infer<typeof invitationAcceptSchema>;
