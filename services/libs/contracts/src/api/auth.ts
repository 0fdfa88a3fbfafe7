import { z } from 'zod';
import { Languages, Roles } from '../enums';
import { actorSchema } from '../events';
import { Limits } from '../limits';
import { emailSchema, enumFilter, optionalQueryString, pageQuerySchema } from './common';

const passwordSchema = z
  .string('password_required')
  .min(1, 'password_required')
  .min(Limits.newPasswordMin, 'password_too_short')
  .max(Limits.passwordMax);

/** Only checks presence: a stored password may predate a stricter rule. */
const presentPassword = z
  .string('password_required')
  .min(1, 'password_required')
  .max(Limits.passwordMax);

const nameSchema = z.string('name_required').trim().min(1, 'name_required').max(Limits.nameMax);
const roleSchema = z.enum(Roles, 'invalid_role');

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: presentPassword,
});

export const userSchema = actorSchema.extend({
  /** a referrer's partner agency (issue 44); absent for staff */
  agency_id: z.number().int().optional(),
  /** a referrer's language (its invitation's): the mails about its families go out in it */
  language: z.enum(Languages).optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type User = z.infer<typeof userSchema>;
export const userAnswer = userSchema.meta({ id: 'User' });

export const tokenAnswer = z
  .object({
    access_token: z.string(),
    token_type: z.literal('bearer'),
    expires_in: z.number().int().meta({ description: 'seconds until the token expires' }),
    user: userAnswer,
    must_change_password: z.boolean().optional().meta({
      description: "the seeded administrator's first login: change the password first",
    }),
  })
  .meta({ id: 'TokenResponse' });
export type TokenResponse = z.infer<typeof tokenAnswer>;

export const profileUpdateSchema = z
  .object({ name: nameSchema.optional(), email: emailSchema.optional() })
  .strict();
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const passwordChangeSchema = z.object({
  current_password: presentPassword,
  new_password: passwordSchema,
});
export type PasswordChange = z.infer<typeof passwordChangeSchema>;

export const usersQuerySchema = pageQuerySchema.extend({
  search: optionalQueryString,
  role: enumFilter(Roles, 'invalid_role'),
});
export type UsersQuery = z.infer<typeof usersQuerySchema>;

export const userCreateSchema = z
  .object({
    name: nameSchema,
    email: emailSchema,
    role: roleSchema,
    password: passwordSchema,
    /** the referrer's agency (issue 44): required with role referrer, refused with any other */
    agency_id: z
      .number('agency_required')
      .int('agency_required')
      .positive('agency_required')
      .optional(),
  })
  .strict()
  .superRefine((u, ctx) => {
    if (u.role === 'referrer' && u.agency_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['agency_id'], message: 'agency_required' });
    if (u.role !== 'referrer' && u.agency_id !== undefined)
      ctx.addIssue({ code: 'custom', path: ['agency_id'], message: 'unknown_field' });
  });
export type UserCreate = z.infer<typeof userCreateSchema>;

export const userUpdateSchema = z
  .object({
    name: nameSchema.optional(),
    email: emailSchema.optional(),
    role: roleSchema.optional(),
    // An empty password on edit means "keep the current one" (back-office §5).
    password: z.union([z.literal('').transform(() => undefined), passwordSchema]).optional(),
  })
  .strict();
export type UserUpdate = z.infer<typeof userUpdateSchema>;

export const usersPageAnswer = z.object({
  users: z.array(userAnswer),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type UsersPage = z.infer<typeof usersPageAnswer>;
