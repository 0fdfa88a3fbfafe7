import { z } from 'zod';
import { ActionTypes, Roles, TargetTypes } from '../enums';
import { Limits } from '../limits';
import { actorSchema } from '../events';
import { optionalQueryString, queryIntDefault } from './common';

/**
 * Activity log calls (back-office §2 Activity log, §3 entry, §7 Activity). Action types are stored
 * and answered in UPPER case; input accepts either case (`approve` = `APPROVE`).
 */
const upperCaseEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.string('required').trim().toUpperCase().pipe(z.enum(values, 'invalid_value'));

export const actionTypeSchema = upperCaseEnum(ActionTypes);

export const targetTypeSchema = z
  .string('required')
  .trim()
  .toLowerCase()
  .pipe(z.enum(TargetTypes, 'invalid_value'));

/** Longest serialized `details` a staff client may post. */
export const ACTIVITY_DETAILS_MAX_CHARS = 10000;
export const ACTIVITY_SEARCH_MAX_CHARS = 200;

const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });

/** Empty query values mean "no filter". */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** A calendar day (2025-03-01, read in the office's time zone) or an exact ISO date-time. */
const queryDate = z.preprocess(
  blankToUndefined,
  z
    .string()
    .trim()
    .refine((v) => isoDate.safeParse(v).success || isoDateTime.safeParse(v).success, {
      message: 'invalid_date',
    })
    .optional(),
);

/** An optional positive integer filter. */
const optionalQueryInt = z.preprocess(
  blankToUndefined,
  z.coerce.number('invalid_value').int('invalid_value').min(1, 'invalid_value').optional(),
);

const optionalEnum = <S extends z.ZodType>(schema: S) =>
  z.preprocess(blankToUndefined, schema.optional());

/** The filters shared by the list, the stats and the CSV export. */
export const activityFilterSchema = z.object({
  user_id: optionalQueryInt,
  action_type: optionalEnum(actionTypeSchema),
  target_type: optionalEnum(targetTypeSchema),
  target_id: optionalQueryInt,
  /** from this day (or instant) on, inclusive */
  date_from: queryDate,
  /** up to the end of this day (or this instant), inclusive */
  date_to: queryDate,
  /** words in the user's name or e-mail, the target's name, the note or the details */
  search: optionalQueryString.pipe(z.string().max(ACTIVITY_SEARCH_MAX_CHARS).optional()),
});
export type ActivityFilter = z.infer<typeof activityFilterSchema>;

export const activityLogQuerySchema = activityFilterSchema.extend({
  page: queryIntDefault(1, { min: 1 }),
  limit: queryIntDefault(Limits.activityPageSize, { min: 1, max: Limits.activityMaxPageSize }),
});
export type ActivityLogQuery = z.infer<typeof activityLogQuerySchema>;

/**
 * POST /activity-logs from a staff client (back-office §7): the action types the specification's
 * client-side logger sends (back-office §3 "Action types seen", and those its display knows).
 * The entry is the client's report, not a fact the platform recorded: it is written under the
 * token's user (never one named in the body), with `source: 'client'` and its details as text,
 * so it cannot pass for an entry the notification service wrote from a domain event.
 */
export const StaffActionTypes = [
  'LOGIN',
  'LOGOUT',
  'PASSWORD_CHANGE',
  'CREATE',
  'UPDATE',
  'DELETE',
  'APPROVE',
  'REJECT',
  'STATUS_CHANGE',
  'CONTACT',
  'NOTE_ADD',
  'COMPLETE',
  'CANCEL_RESERVATION',
  'EXPORT',
  'IMPORT',
] as const;

export const activityLogCreateSchema = z.object({
  action_type: upperCaseEnum(StaffActionTypes),
  /** not in the spec's body; the spec's `details.target_type` is read as well; default `system` */
  target_type: targetTypeSchema.optional(),
  target_id: z
    .union([
      z.number('invalid_value').int('invalid_value'),
      z
        .string()
        .trim()
        .regex(/^\d+$/, 'invalid_value')
        .transform((v) => Number(v)),
    ])
    .nullable()
    .optional(),
  /** an object or a text (back-office §3); stored as text (an object as its JSON) */
  details: z
    .union([z.record(z.string(), z.unknown()), z.string().max(ACTIVITY_DETAILS_MAX_CHARS)])
    .nullable()
    .optional(),
});
export type ActivityLogCreate = z.infer<typeof activityLogCreateSchema>;

const int = () => z.number().int();
const actionType = z.enum(ActionTypes);
const targetType = z.enum(TargetTypes);

/** One entry as answered. `details` may hold old_value/new_value, old_status/new_status, note … */
export const activityEntryAnswer = z
  .object({
    id: int(),
    /** null when no staff member caused it (an applicant or the system; see details.actor) */
    user_id: int().nullable(),
    user_name: z.string().nullable(),
    user_email: z.string().nullable(),
    user_role: z.enum(Roles).nullable(),
    action_type: actionType,
    target_type: targetType,
    target_id: int().nullable(),
    details: z.union([z.record(z.string(), z.unknown()), z.string(), z.null()]),
    /** `server`: recorded by the platform (domain events, exports); `client`: posted by a staff client */
    source: z.enum(['server', 'client']),
    created_at: z.string(),
  })
  .meta({ id: 'ActivityLogEntry' });
export type ActivityLogEntry = z.infer<typeof activityEntryAnswer>;

export const activityPageAnswer = z.object({
  data: z.array(activityEntryAnswer),
  page: int(),
  per_page: int(),
  total: int(),
  total_pages: int(),
  has_next: z.boolean(),
});
export type ActivityLogPage = z.infer<typeof activityPageAnswer>;

export const activityStatsAnswer = z.object({
  /** the range asked for (null: open end) */
  date_from: z.string().nullable(),
  date_to: z.string().nullable(),
  total: int(),
  by_action_type: z.array(z.object({ action_type: actionType, count: int() })),
  by_target_type: z.array(z.object({ target_type: targetType, count: int() })),
  /** user_id null: entries without a staff member (applicants, the system) */
  by_user: z.array(
    z.object({
      user_id: int().nullable(),
      user_name: z.string().nullable(),
      user_email: z.string().nullable(),
      count: int(),
    }),
  ),
});
export type ActivityStats = z.infer<typeof activityStatsAnswer>;

/** A staff member who appears in the log (for the user filter). */
const activityUserSchema = actorSchema.extend({ last_activity_at: z.string() });
export type ActivityUser = z.infer<typeof activityUserSchema>;

export const activityUsersAnswer = z.object({ data: z.array(activityUserSchema) });
export type ActivityUsers = z.infer<typeof activityUsersAnswer>;
