import { z } from 'zod';
import { ActionTypes, TargetTypes, type ActionType, type Role, type TargetType } from '../enums';
import { Limits } from '../limits';
import { optionalQueryString, queryIntDefault } from './common';

/**
 * Activity log calls (back-office §2 Activity log, §3 entry, §7 Activity). Action types are stored
 * and answered in UPPER case; input accepts either case (`approve` = `APPROVE`).
 */
export const actionTypeSchema = z
  .string('required')
  .trim()
  .toUpperCase()
  .pipe(z.enum(ActionTypes, 'invalid_value'));

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

/** POST /activity-logs from a staff client (back-office §7). The user comes from the token. */
/**
 * What a person records by hand (a call to an applicant, an export); every other entry is
 * written by the notification service from the domain events, so staff cannot forge one.
 */
export const StaffActionTypes = ['CONTACT', 'EXPORT'] as const;

export const activityLogCreateSchema = z.object({
  action_type: z
    .string('required')
    .trim()
    .toUpperCase()
    .pipe(z.enum(StaffActionTypes, 'invalid_value')),
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
  /** an object or a text (back-office §3) */
  details: z
    .union([z.record(z.string(), z.unknown()), z.string().max(ACTIVITY_DETAILS_MAX_CHARS)])
    .nullable()
    .optional(),
});
export type ActivityLogCreate = z.infer<typeof activityLogCreateSchema>;

/** One entry as answered. `details` may hold old_value/new_value, old_status/new_status, note … */
export interface ActivityLogEntry {
  id: number;
  /** null when no staff member caused it (an applicant or the system; see details.actor) */
  user_id: number | null;
  user_name: string | null;
  user_email: string | null;
  user_role: Role | null;
  action_type: ActionType;
  target_type: TargetType;
  target_id: number | null;
  details: Record<string, unknown> | string | null;
  /** `server`: recorded by the platform (domain events, exports); `client`: posted by a staff client */
  source: 'server' | 'client';
  created_at: string;
}

export interface ActivityLogPage {
  data: ActivityLogEntry[];
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
  has_next: boolean;
}

export interface ActivityStats {
  /** the range asked for (null: open end) */
  date_from: string | null;
  date_to: string | null;
  total: number;
  by_action_type: { action_type: ActionType; count: number }[];
  by_target_type: { target_type: TargetType; count: number }[];
  /** user_id null: entries without a staff member (applicants, the system) */
  by_user: {
    user_id: number | null;
    user_name: string | null;
    user_email: string | null;
    count: number;
  }[];
}

/** A staff member who appears in the log (for the user filter). */
export interface ActivityUser {
  id: number;
  name: string;
  email: string;
  role: Role;
  last_activity_at: string;
}

export interface ActivityUsers {
  data: ActivityUser[];
}
