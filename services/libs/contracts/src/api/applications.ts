import { z } from 'zod';
import { ApplicationStatuses, CategorySlugs, Languages, LotStatuses, WishStatuses } from '../enums';
import { ApprovalFailureReasons } from '../events';
import { Limits, NOT_SPECIFIED } from '../limits';
import { matchNoteLine } from '../notes';
import { isPhoneShaped } from '../phone';
import {
  enumFilter,
  limitSkipQuerySchema,
  localizedSchema as localized,
  optionalQueryString,
  phoneSchema,
} from './common';

/*
 * API bodies, queries and answers of the applications service: applications (public submit,
 * eligibility, queue info, status check; staff list, stats, status changes, notes) and wishes.
 */

const int = () => z.number().int();
const applicationStatus = z.enum(ApplicationStatuses);
const lotStatus = z.enum(LotStatuses);
const calendarDay = z.string().meta({ description: 'YYYY-MM-DD' });

/** A required text: a missing or empty value is "required", a short one "too_short". */
const requiredText = (min: number, max: number) =>
  z.string().trim().min(1, { message: 'required', abort: true }).min(min).max(max);

/** zod does not report the input with its issues; this tells "missing" from "wrong". */
const missingOr =
  (key: 'invalid_type' | 'invalid_value') =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined || issue.input === null || issue.input === '' ? 'required' : key;

/** A positive integer; numeric strings are accepted (forms and query strings). */
const positiveInt = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: missingOr('invalid_type') })
    .int()
    .positive(),
);

/** An optional text: missing, null or empty is read as `fallback`. */
const emptyAs = <F>(text: z.ZodString, fallback: F) =>
  text.nullish().transform((v) => (v ? v : fallback));

const optionalEmailSchema = emptyAs(
  z.string().trim().max(Limits.emailMax).toLowerCase(),
  null,
).pipe(z.email('invalid_email').nullable());

/** City or address: optional; missing or empty is stored as "Не вказано" (public-site §3). */
const notSpecifiedDefault = (max: number) => emptyAs(z.string().trim().max(max), NOT_SPECIFIED);

/**
 * The hidden honeypot field of the public forms. The SPA renders it invisibly and leaves it
 * empty; a filled one marks a bot, which gets an answer like a success while nothing is stored.
 */
export const HONEYPOT_FIELD = 'website';
const honeypot = z.unknown().optional();

/** POST /applications/ (public). Unknown fields are ignored. */
export const applicationCreateSchema = z.object({
  applicant_name: requiredText(Limits.wishNameMin, Limits.nameMax),
  applicant_phone: phoneSchema('invalid_phone'),
  /** the form marks it required; the payload allows null (public-site §3), so the server does too */
  applicant_whatsapp: emptyAs(z.string().trim(), null).refine(
    (v) => v === null || isPhoneShaped(v),
    'invalid_whatsapp',
  ),
  applicant_email: optionalEmailSchema,
  applicant_city: notSpecifiedDefault(Limits.cityMax),
  applicant_address: notSpecifiedDefault(Limits.addressMax),
  needs_delivery_help: z.boolean('invalid_type').default(false),
  lot_id: positiveInt,
  /** language of the page the family applied on; mails go out in it (default: the request's) */
  language: z.enum(Languages).optional(),
  [HONEYPOT_FIELD]: honeypot,
});

/** Answer of POST /applications/ (201). */
export const applicationCreatedAnswer = z.object({
  id: int(),
  status: applicationStatus.meta({
    description:
      'pending; a repeated submission (same Idempotency-Key) answers the application as it is now',
  }),
  created_at: z.string(),
  queue_position: int()
    .nullable()
    .meta({ description: "position among the lot's open applications (1 = next in line)" }),
});
export type ApplicationCreated = z.infer<typeof applicationCreatedAnswer>;

/** ?phone of the eligibility and queue calls; optional (without it only the lot is judged). */
export const lotPhoneQuerySchema = z.object({
  phone: optionalQueryString.refine((v) => v === undefined || isPhoneShaped(v), 'invalid_phone'),
});

/** Why a family cannot apply (stable key; `reason` carries the text in the request's language). */
export const CannotApplyReasons = [
  'lot_not_available',
  'already_applied',
  'too_many_open_applications',
] as const;
export type CannotApplyReason = (typeof CannotApplyReasons)[number];

/** GET /lots/{id}/can-apply?phone → `{success: true, data}`. */
export const eligibilitySchema = z.object({
  can_apply: z.boolean(),
  /** null when the family can apply */
  reason: z.string().nullable(),
  reason_code: z.enum(CannotApplyReasons).nullable(),
  /** open (pending or approved) applications this phone holds across all lots; 0 without phone */
  total_applications: int(),
  /** how many open applications one phone may hold */
  max_open_applications: int(),
});
export type EligibilityCheck = z.infer<typeof eligibilitySchema>;

/** GET /lots/{id}/applications-info?phone → `{success: true, data}`. */
export const queueInfoSchema = z.object({
  /** open (pending or approved) applications of the lot */
  applications_count: int(),
  lot_status: lotStatus,
  /** this phone has an application for the lot (any status) */
  user_has_application: z.boolean(),
  can_apply: z.boolean(),
  /** the phone's place among the lot's open applications, oldest first; null if none is open */
  queue_position: int().nullable(),
  /** the phone's application status for this lot, if any */
  user_application_status: applicationStatus.nullable(),
});
export type QueueInfo = z.infer<typeof queueInfoSchema>;

/** Path of GET /applications/public/check-status/{phone} and /applications/by-phone/{phone}. */
export const phoneParamSchema = z.object({ phone: phoneSchema('invalid_phone') });

/** One item of the public status check (nothing about the family beyond what they typed in). */
const statusItemSchema = z.object({
  id: int(),
  status: applicationStatus,
  lot_id: int(),
  created_at: z.string(),
  lot_name: localized,
});
export type ApplicationStatusItem = z.infer<typeof statusItemSchema>;

export const statusCheckAnswer = z.object({ applications: z.array(statusItemSchema) });

/** One parsed line of an application's internal notes (NoteLineParts and the line). */
const applicationNoteAnswer = z.object({
  /** the line as stored: "[timestamp] role: email | action | comment" */
  line: z.string(),
  timestamp: z.string(),
  role: z.string(),
  email: z.string(),
  action: z.string(),
  comment: z.string(),
});
export type ApplicationNote = z.infer<typeof applicationNoteAnswer>;

/** The lot an application is for, from the service's read model (null if unknown). */
const applicationLotSchema = z.object({
  id: int(),
  name: localized,
  photo: z.string().nullable(),
  status: lotStatus,
  deleted: z.boolean(),
  /** (staff cannot approve or reject another one meanwhile) */
  held_by: z.object({ id: int(), applicant_name: z.string() }).nullable().optional().meta({
    description:
      'open applications: the application of the lot that is approved or whose approval is under way, wherever it is listed',
  }),
});
export type ApplicationLot = z.infer<typeof applicationLotSchema>;

/**
 * An approval that is not final yet or did not go through: `requested` while the catalog
 * reserves the lot (the application is still pending; it becomes approved when the lot is
 * reserved), `failed` when the lot could not be reserved (until the next change).
 */
const applicationApprovalSchema = z.object({
  state: z.enum(['requested', 'failed']).meta({
    description:
      'requested: the catalog is reserving the lot (the application is still pending); failed: the lot could not be reserved',
  }),
  requested_at: z.string(),
  /** the staff member who asked for it */
  requested_by: z
    .object({ id: int(), name: z.string(), email: z.string(), role: z.string() })
    .nullable()
    .meta({ description: 'null: the system offered a lapsed lot to the next family' }),
  /** the pickup date the approval will carry */
  pickup_by: calendarDay.nullable(),
  note: z.string().nullable(),
  /** why it failed: the lot was not available (lot_status says how it was) or is gone */
  reason: z.enum(ApprovalFailureReasons).nullable(),
  lot_status: lotStatus.nullable(),
  ended_at: z.string().nullable(),
});

/** An application as staff see it. */
export const applicationAnswer = z
  .object({
    id: int(),
    lot_id: int(),
    status: applicationStatus,
    applicant_name: z.string(),
    applicant_phone: z.string().meta({ description: 'E.164' }),
    /** the number as the family typed it */
    applicant_phone_raw: z.string(),
    applicant_whatsapp: z.string().nullable(),
    applicant_email: z.string().nullable(),
    applicant_city: z.string(),
    applicant_address: z.string(),
    needs_delivery_help: z.boolean(),
    language: z.enum(Languages),
    created_at: z.string(),
    updated_at: z.string(),
    /** one line per entry, oldest first: "[DD.MM.YYYY HH:mm] role: email | action | comment" */
    internal_notes: z.string(),
    notes: z.array(applicationNoteAnswer),
    /** place among the lot's open applications, oldest first; null unless pending or approved */
    queue_position: int().nullable(),
    lot: applicationLotSchema.nullable(),
    approval: applicationApprovalSchema
      .nullable()
      .meta({ description: 'an approval under way or one that failed; null otherwise' }),
    pickup_by: calendarDay
      .nullable()
      .meta({ description: 'approved: the last day to pick the lot up; null otherwise' }),
    pickup_overdue: z.boolean().meta({ description: 'approved and the pickup date has passed' }),
    /** when the family was reminded of the pickup date */
    pickup_reminded_at: z.string().nullable(),
    /** pending and first of the queue: the application that let its pickup date lapse */
    next_in_queue_after: int().nullable(),
    /**
     * approved (wave 3, issue 29): the family's personal link to book its pickup or delivery
     * slot (staff may send it by hand); null otherwise
     */
    handover_url: z.string().nullable().optional(),
    /** issue 44: the partner agency and referrer that applied for the family; null otherwise */
    referral: z
      .object({
        id: int(),
        agency: z.object({ id: int(), name: z.string() }),
        referrer: z.object({ name: z.string() }),
        /** still pending then: the referral closes as expired */
        expires_at: z.string(),
        /** when it closed as expired (rejected with reason referral_expired) */
        expired_at: z.string().nullable().optional(),
      })
      .nullable()
      .optional(),
  })
  .meta({ id: 'Application' });
export type Application = z.infer<typeof applicationAnswer>;

/** GET /applications (staff). */
export const applicationsQuerySchema = limitSkipQuerySchema.extend({
  status: enumFilter(ApplicationStatuses, 'invalid_status'),
  lot_id: z.preprocess((v) => (v === '' ? undefined : v), positiveInt.optional()),
  /** issue 44: only the families this partner agency referred */
  agency_id: z.preprocess((v) => (v === '' ? undefined : v), positiveInt.optional()),
});
export type ApplicationsQuery = z.infer<typeof applicationsQuerySchema>;

export const applicationsPageAnswer = z.object({
  applications: z.array(applicationAnswer),
  total: int(),
});
export type ApplicationsPage = z.infer<typeof applicationsPageAnswer>;

/** GET /applications/stats?lot_ids=1,2,3 (staff): the stat cards and the lots table's counts. */
export const applicationStatsQuerySchema = z.object({
  lot_ids: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return [] as number[];
      const ids = v.split(',').map((s) => Number(s.trim()));
      if (ids.some((n) => !Number.isInteger(n) || n <= 0)) {
        ctx.addIssue({ code: 'custom', message: 'invalid_value' });
        return z.NEVER;
      }
      return [...new Set(ids)];
    })
    .pipe(z.array(z.number()).max(Limits.applicationCountFetchCap)),
});

export const applicationStatsAnswer = z.object({
  total: int(),
  pending: int(),
  approved: int(),
  rejected: int(),
  completed: int(),
  /** one entry per requested lot id (zeros for lots without applications) */
  lots: z.array(z.object({ lot_id: int(), total: int(), pending: int(), approved: int() })),
});
export type ApplicationStats = z.infer<typeof applicationStatsAnswer>;

/** Note actions a client may name; everything else is written as NOTE_ADD. */
export const NoteActions = ['NOTE_ADD', 'CONTACT'] as const;
export type NoteAction = (typeof NoteActions)[number];

/** A note's comment: one line (line breaks become spaces), not empty, at most 1000 characters. */
function checkComment(raw: string, ctx: z.RefinementCtx, path: string): string | typeof z.NEVER {
  const comment = raw.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  if (comment === '') {
    ctx.addIssue({ code: 'custom', message: 'note_empty', path: [path] });
    return z.NEVER;
  }
  if (comment.length > Limits.notesMax) {
    ctx.addIssue({
      code: 'too_big',
      origin: 'string',
      maximum: Limits.notesMax,
      inclusive: true,
      message: 'note_too_long',
      path: [path],
    });
    return z.NEVER;
  }
  return comment;
}

/** An optional note: missing or blank is null, otherwise a checked comment (one line). */
export const optionalNote = (
  note: string | null | undefined,
  ctx: z.RefinementCtx,
): string | null =>
  note === null || note === undefined || note.trim() === ''
    ? null
    : (checkComment(note, ctx, 'note') as string | null);

/**
 * PATCH /applications/{id}/status (staff): the target status; the server derives the action
 * (approved→pending is "cancel reservation", rejected→pending is "reconsider"). A note is
 * optional, for a rejection too: the specification's client sends a rejection's note in a second
 * call, which completes the change (Moderation.addNote); the back-office's form asks for one.
 */
/** A calendar day, YYYY-MM-DD (a day in the office's time zone). */
export const calendarDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid_date')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'invalid_date');

export const applicationStatusUpdateSchema = z
  .object({
    status: z.enum(ApplicationStatuses, 'invalid_status'),
    note: z.string().nullish(),
    /** with an approval: the last day to pick the lot up (default: PICKUP_DAYS from today) */
    pickup_by: calendarDaySchema.nullish(),
  })
  .transform((v, ctx) => ({
    status: v.status,
    note: optionalNote(v.note, ctx),
    pickup_by: v.pickup_by ?? null,
  }));

/** PATCH /applications/{id}/pickup (staff): a new pickup date for an approved application. */
export const pickupUpdateSchema = z
  .object({ pickup_by: calendarDaySchema, note: z.string().nullish() })
  .transform((v, ctx) => ({ pickup_by: v.pickup_by, note: optionalNote(v.note, ctx) }));
export type PickupUpdate = z.infer<typeof pickupUpdateSchema>;

/** POST /applications/{id}/lapse (staff): the family did not come; the lot goes on. */
export const lapseSchema = z
  .object({ note: z.string().nullish() })
  .transform((v, ctx) => ({ note: optionalNote(v.note, ctx) }));
export type LapseInput = z.infer<typeof lapseSchema>;

/** POST /wishes/{id}/notify (staff): tell the wisher about a matching lot. */
export const wishNotifySchema = z.object({ lot_id: z.coerce.number().int().positive() });
export type WishNotify = z.infer<typeof wishNotifySchema>;

export type ApplicationStatusUpdate = z.infer<typeof applicationStatusUpdateSchema>;

/**
 * PATCH /applications/{id}/notes (staff). The spec's client sends `internal_notes` as a whole
 * line "[date time] role: email | action | comment"; the server keeps only its comment (and an
 * action of NoteActions) and writes time, role and e-mail itself. `note` is the plain comment.
 */
export const applicationNoteSchema = z
  .object({
    internal_notes: z.string().optional(),
    note: z.string().optional(),
    action: z.string().optional(),
  })
  .transform((v, ctx) => {
    const field = v.note !== undefined ? 'note' : 'internal_notes';
    const raw = v.note ?? v.internal_notes ?? '';
    const parsed = v.note !== undefined ? null : matchNoteLine(raw.trim());
    const comment = checkComment(parsed ? parsed.comment : raw, ctx, field);
    const named = (v.action ?? parsed?.action ?? '').trim().toUpperCase();
    const action: NoteAction = (NoteActions as readonly string[]).includes(named)
      ? (named as NoteAction)
      : 'NOTE_ADD';
    return { comment: comment as string, action };
  });
export type ApplicationNoteInput = z.infer<typeof applicationNoteSchema>;

// ---------------------------------------------------------------------------------------------
// Wishes

/** A category id, a numeric string, or one of the known slugs (public-site §7). */
const categoryRef = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const t = v.trim();
    if (/^\d+$/.test(t)) return Number(t);
    const found = Object.entries(CategorySlugs).find(([, slug]) => slug === t);
    return found ? Number(found[0]) : t === '' ? undefined : t;
  },
  z
    .number({ error: missingOr('invalid_value') })
    .int()
    .positive(),
);

/** POST /wishes/ (public), validation of public-site §5. Unknown fields are ignored. */
export const wishCreateSchema = z.object({
  applicant_name: requiredText(Limits.wishNameMin, Limits.wishNameMax),
  applicant_whatsapp: phoneSchema('invalid_whatsapp'),
  applicant_email: optionalEmailSchema,
  furniture_category: categoryRef,
  furniture_description: requiredText(Limits.wishDescriptionMin, Limits.wishDescriptionMax),
  language: z.enum(Languages).optional(),
  [HONEYPOT_FIELD]: honeypot,
});

export const wishCreatedAnswer = z.object({
  id: int(),
  status: z.literal('active'),
  created_at: z.string(),
});
export type WishCreated = z.infer<typeof wishCreatedAnswer>;

/** A lot that matches a wish (same category, available). */
const wishMatchLot = z.object({ id: int(), name: localized, photo: z.string().nullable() });
export type WishMatchLot = z.infer<typeof wishMatchLot>;

export const wishAnswer = z
  .object({
    id: int(),
    status: z.enum(WishStatuses),
    admin_notes: z.string().nullable(),
    applicant_name: z.string(),
    applicant_whatsapp: z.string().meta({ description: 'E.164' }),
    applicant_whatsapp_raw: z.string(),
    applicant_email: z.string().nullable(),
    furniture_category: int().meta({ description: 'category id' }),
    furniture_description: z.string(),
    language: z.enum(Languages),
    created_at: z.string(),
    updated_at: z.string(),
    /** oldest first */
    matching_lots: z.array(wishMatchLot).optional().meta({
      description: 'active wishes in lists: available lots of the category (at most 5)',
    }),
  })
  .meta({ id: 'Wish' });
export type Wish = z.infer<typeof wishAnswer>;

/** GET /lots/{id}/wish-matches (staff): the lot's category's active wishes, oldest first. */
export const wishMatchesAnswer = z.object({ wishes: z.array(wishAnswer) });
export type WishMatches = z.infer<typeof wishMatchesAnswer>;

/** POST /wishes/{id}/notify: the wish with its new note, and how the family is told. */
export const wishNotifiedAnswer = z.object({
  wish: wishAnswer,
  channel: z.enum(['email', 'whatsapp']).meta({
    description: 'email: a mail goes out; whatsapp: no address, staff send the prefilled message',
  }),
});
export type WishNotified = z.infer<typeof wishNotifiedAnswer>;

/** GET /wishes (staff). `category` is a category id (or slug); search covers name, contact and text. */
export const wishesQuerySchema = limitSkipQuerySchema.extend({
  status: enumFilter(WishStatuses, 'invalid_status'),
  category: z.union([z.literal('').transform(() => undefined), categoryRef]).optional(),
  search: optionalQueryString,
});
export type WishesQuery = z.infer<typeof wishesQuerySchema>;

export const wishesPageAnswer = z.object({ wishes: z.array(wishAnswer), total: int() });
export type WishesPage = z.infer<typeof wishesPageAnswer>;

/** PATCH /wishes/{id}/status?status=… (staff); the status may also come in the body. */
export const wishStatusQuerySchema = z.object({
  status: z.enum(WishStatuses, 'invalid_status').optional(),
});

/**
 * Body of PATCH /wishes/{id}/status: `admin_notes` (or `notes`) replaces the wish's notes; an
 * empty text clears them; absent leaves them as they are.
 */
export const wishStatusBodySchema = wishStatusQuerySchema.extend({
  admin_notes: z.string().trim().max(Limits.notesMax).nullish(),
  notes: z.string().trim().max(Limits.notesMax).nullish(),
});
