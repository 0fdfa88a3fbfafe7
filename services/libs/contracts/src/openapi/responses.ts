import { z } from 'zod';
import {
  ActionTypes,
  ApplicationStatuses,
  Languages,
  LotStatuses,
  Roles,
  TargetTypes,
  WishStatuses,
} from '../enums';
import { Errors } from '../errors';
import type { PrivacyErasure, PrivacyLookup, PrivacyRecords } from '../api/privacy';
import { ApprovalFailureReasons, lotSnapshotSchema } from '../events';
import type { TokenResponse, UsersPage } from '../api/auth';
import { categorySchema, lotSchema, type LotCount, type LotSearchPage } from '../api/catalog';
import { userSchema } from '../api/auth';
import {
  CannotApplyReasons,
  type Application,
  type ApplicationApproval,
  type ApplicationCreated,
  type ApplicationsPage,
  type ApplicationStats,
  type ApplicationStatusCheck,
  type EligibilityCheck,
  type QueueInfo,
  type Wish,
  type WishCreated,
  type WishesPage,
  type WishMatches,
  type WishMatchLot,
  type WishNotified,
} from '../api/applications';
import type {
  Photo,
  PhotoDeleteResponse,
  PhotoListResponse,
  PhotoUploadResponse,
} from '../api/media';
import type {
  ActivityLogEntry,
  ActivityLogPage,
  ActivityStats,
  ActivityUsers,
} from '../api/activity';
import type { CategoriesAnswer, CategoryAnswer, DeletedAnswer } from '../api/catalog';
import type { LotSnapshotPage } from '../api/internal';
import type { ImpactReport } from '../api/impact';
import type { ErrorCode } from '../errors';

/*
 * The answers of every call as zod schemas, for the OpenAPI document (./document.ts) and for the
 * tests that check every answer against it. Where an answer was declared as a TypeScript
 * interface, the schema here is checked against it at compile time (`same<…>()` below): the
 * interface and the published schema cannot say different things.
 */

/** Compile-time equality of two types (true only if each is assignable to the other exactly). */
type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/**
 * `same<Interface>()(schema)`: the schema, refused by the type check unless its output type is
 * exactly the interface.
 */
const same =
  <Interface>() =>
  <Schema extends z.ZodType>(
    schema: Schema,
    ..._proof: Same<z.output<Schema>, Interface> extends true
      ? []
      : ['the schema does not describe the interface']
  ): Schema =>
    schema;

const int = () => z.number().int();
const localized = z.object({ de: z.string(), uk: z.string() });
const calendarDay = z.string().meta({ description: 'YYYY-MM-DD' });

// ---- errors -------------------------------------------------------------------------------------

export const ErrorCodes = Object.keys(Errors) as [ErrorCode, ...ErrorCode[]];

/** One field of a 422 answer's `detail`. */
export const fieldErrorSchema = z
  .object({
    loc: z.array(z.union([z.string(), z.number()])).meta({ example: ['body', 'applicant_phone'] }),
    msg: z.string().meta({ description: 'the message in the request language' }),
    type: z.string().meta({ description: 'a stable key (required, too_short, invalid_phone, …)' }),
  })
  .meta({ id: 'FieldError' });

/**
 * Every error answer: `{success: false, code, message, detail}` plus, for some codes, data the
 * client may use (retry_after, current_version, limit_bytes, …).
 */
export const errorSchema = (codes: readonly ErrorCode[] = ErrorCodes) =>
  z
    .looseObject({
      success: z.literal(false),
      code: z.enum(codes as [ErrorCode, ...ErrorCode[]]).meta({
        description: 'stable error code (services/libs/contracts/src/errors)',
      }),
      message: z.string().meta({
        description: 'German or Ukrainian after Accept-Language or ?lang (German by default)',
      }),
      detail: z.union([z.string(), z.array(fieldErrorSchema)]).meta({
        description: 'the message again, or for 422 the list of field errors',
      }),
    })
    .meta({ description: 'error answer' });

// ---- auth ---------------------------------------------------------------------------------------

export const userAnswer = userSchema.meta({ id: 'User' });
export const tokenAnswer = same<TokenResponse>()(
  z
    .object({
      access_token: z.string(),
      token_type: z.literal('bearer'),
      expires_in: int().meta({ description: 'seconds until the token expires' }),
      user: userAnswer,
      must_change_password: z.boolean().optional().meta({
        description: "the seeded administrator's first login: change the password first",
      }),
    })
    .meta({ id: 'TokenResponse' }),
);
export const passwordChangedAnswer = z
  .object({
    success: z.literal(true),
    access_token: z.string(),
    token_type: z.literal('bearer'),
    expires_in: int(),
    user: userAnswer,
  })
  .meta({ description: 'a fresh token for this device; every other session is closed' });
export const usersPageAnswer = same<UsersPage>()(
  z.object({ users: z.array(userAnswer), total: int(), page: int(), limit: int() }),
);
export const successAnswer = z.object({ success: z.literal(true) });

// ---- catalog ------------------------------------------------------------------------------------

export const categoryAnswerSchema = categorySchema.meta({ id: 'Category' });
export const lotAnswerSchema = lotSchema.meta({ id: 'Lot' });
export const categoriesAnswer = same<CategoriesAnswer>()(
  z.object({ success: z.literal(true), data: z.array(categoryAnswerSchema) }),
);
export const categoryAnswer = same<CategoryAnswer>()(
  z.object({ success: z.literal(true), data: categoryAnswerSchema, message: z.string() }),
);
export const deletedAnswer = same<DeletedAnswer>()(
  z.object({ success: z.literal(true), message: z.string() }),
);
export const lotCountAnswer = same<LotCount>()(z.object({ count: int() }));
export const lotSearchAnswer = same<LotSearchPage>()(
  z.object({ lots: z.array(lotAnswerSchema), total: int(), page: int(), limit: int() }),
);
export const lotSnapshotPageAnswer = same<LotSnapshotPage>()(
  z.object({ lots: z.array(lotSnapshotSchema), next_after_id: int().nullable() }),
);

// ---- applications and wishes --------------------------------------------------------------------

const applicationStatus = z.enum(ApplicationStatuses);
const localizedText = localized;

export const applicationCreatedAnswer = same<ApplicationCreated>()(
  z.object({
    id: int(),
    status: applicationStatus.meta({
      description:
        'pending; a repeated submission (same Idempotency-Key) answers the application as it is now',
    }),
    created_at: z.string(),
    queue_position: int()
      .nullable()
      .meta({ description: "position among the lot's open applications (1 = next in line)" }),
  }),
);

export const eligibilityAnswer = z.object({
  success: z.literal(true),
  data: same<EligibilityCheck>()(
    z.object({
      can_apply: z.boolean(),
      reason: z.string().nullable(),
      reason_code: z.enum(CannotApplyReasons).nullable(),
      total_applications: int(),
      max_open_applications: int(),
    }),
  ),
});

export const queueInfoAnswer = z.object({
  success: z.literal(true),
  data: same<QueueInfo>()(
    z.object({
      applications_count: int(),
      lot_status: z.enum(LotStatuses),
      user_has_application: z.boolean(),
      can_apply: z.boolean(),
      queue_position: int().nullable(),
      user_application_status: applicationStatus.nullable(),
    }),
  ),
});

export const statusCheckAnswer = same<ApplicationStatusCheck>()(
  z.object({
    applications: z.array(
      z.object({
        id: int(),
        status: applicationStatus,
        lot_id: int(),
        created_at: z.string(),
        lot_name: localizedText,
      }),
    ),
  }),
);

export const applicationAnswer = same<Application>()(
  z
    .object({
      id: int(),
      lot_id: int(),
      status: applicationStatus,
      applicant_name: z.string(),
      applicant_phone: z.string().meta({ description: 'E.164' }),
      applicant_phone_raw: z.string(),
      applicant_whatsapp: z.string().nullable(),
      applicant_email: z.string().nullable(),
      applicant_city: z.string(),
      applicant_address: z.string(),
      needs_delivery_help: z.boolean(),
      language: z.enum(Languages),
      created_at: z.string(),
      updated_at: z.string(),
      internal_notes: z.string(),
      notes: z.array(
        z.object({
          line: z.string(),
          timestamp: z.string(),
          role: z.string(),
          email: z.string(),
          action: z.string(),
          comment: z.string(),
        }),
      ),
      queue_position: int().nullable(),
      lot: z
        .object({
          id: int(),
          name: localizedText,
          photo: z.string().nullable(),
          status: z.enum(LotStatuses),
          deleted: z.boolean(),
          held_by: z.object({ id: int(), applicant_name: z.string() }).nullable().optional().meta({
            description:
              'open applications: the application of the lot that is approved or whose approval is under way, wherever it is listed',
          }),
        })
        .nullable(),
      approval: same<ApplicationApproval>()(
        z.object({
          state: z.enum(['requested', 'failed']).meta({
            description:
              'requested: the catalog is reserving the lot (the application is still pending); failed: the lot could not be reserved',
          }),
          requested_at: z.string(),
          requested_by: z
            .object({
              id: int(),
              name: z.string(),
              email: z.string(),
              role: z.string(),
            })
            .nullable()
            .meta({ description: 'null: the system offered a lapsed lot to the next family' }),
          pickup_by: calendarDay.nullable(),
          note: z.string().nullable(),
          reason: z.enum(ApprovalFailureReasons).nullable(),
          lot_status: z.enum(LotStatuses).nullable(),
          ended_at: z.string().nullable(),
        }),
      )
        .nullable()
        .meta({ description: 'an approval under way or one that failed; null otherwise' }),
      pickup_by: calendarDay
        .nullable()
        .meta({ description: 'approved: the last day to pick the lot up; null otherwise' }),
      pickup_overdue: z.boolean().meta({ description: 'approved and the pickup date has passed' }),
      pickup_reminded_at: z.string().nullable(),
      next_in_queue_after: z.number().int().nullable(),
    })
    .meta({ id: 'Application' }),
);

export const applicationsPageAnswer = same<ApplicationsPage>()(
  z.object({ applications: z.array(applicationAnswer), total: int() }),
);

export const applicationStatsAnswer = same<ApplicationStats>()(
  z.object({
    total: int(),
    pending: int(),
    approved: int(),
    rejected: int(),
    completed: int(),
    lots: z.array(z.object({ lot_id: int(), total: int(), pending: int(), approved: int() })),
  }),
);

export const wishCreatedAnswer = same<WishCreated>()(
  z.object({ id: int(), status: z.literal('active'), created_at: z.string() }),
);

const wishMatchLot = same<WishMatchLot>()(
  z.object({ id: int(), name: localizedText, photo: z.string().nullable() }),
);

export const wishAnswer = same<Wish>()(
  z
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
      matching_lots: z.array(wishMatchLot).optional().meta({
        description: 'active wishes in lists: available lots of the category (at most 5)',
      }),
    })
    .meta({ id: 'Wish' }),
);

export const wishMatchesAnswer = same<WishMatches>()(z.object({ wishes: z.array(wishAnswer) }));

export const wishNotifiedAnswer = same<WishNotified>()(
  z.object({
    wish: wishAnswer,
    channel: z.enum(['email', 'whatsapp']).meta({
      description: 'email: a mail goes out; whatsapp: no address, staff send the prefilled message',
    }),
  }),
);

export const wishesPageAnswer = same<WishesPage>()(
  z.object({ wishes: z.array(wishAnswer), total: int() }),
);

// ---- media --------------------------------------------------------------------------------------

export const photoAnswer = same<Photo>()(
  z
    .object({
      id: int(),
      lot_id: int(),
      urls: z.object({ thumbnail: z.string(), medium: z.string(), large: z.string() }),
      width: int(),
      height: int(),
      bytes: int(),
      position: int(),
      created_by_user_id: int(),
      created_at: z.string(),
    })
    .meta({ id: 'Photo' }),
);
export const photoUploadAnswer = same<PhotoUploadResponse>()(
  z.object({ success: z.literal(true), message: z.string(), data: photoAnswer }),
);
export const photoListAnswer = same<PhotoListResponse>()(
  z.object({ success: z.literal(true), data: z.array(photoAnswer) }),
);
export const photoDeleteAnswer = same<PhotoDeleteResponse>()(
  z.object({ success: z.literal(true), message: z.string() }),
);

// ---- activity log -------------------------------------------------------------------------------

const actionType = z.enum(ActionTypes);
const targetType = z.enum(TargetTypes);

export const activityEntryAnswer = same<ActivityLogEntry>()(
  z
    .object({
      id: int(),
      user_id: int().nullable(),
      user_name: z.string().nullable(),
      user_email: z.string().nullable(),
      user_role: z.enum(Roles).nullable(),
      action_type: actionType,
      target_type: targetType,
      target_id: int().nullable(),
      details: z.union([z.record(z.string(), z.unknown()), z.string(), z.null()]),
      source: z.enum(['server', 'client']),
      created_at: z.string(),
    })
    .meta({ id: 'ActivityLogEntry' }),
);

export const activityPageAnswer = same<ActivityLogPage>()(
  z.object({
    data: z.array(activityEntryAnswer),
    page: int(),
    per_page: int(),
    total: int(),
    total_pages: int(),
    has_next: z.boolean(),
  }),
);

export const activityStatsAnswer = same<ActivityStats>()(
  z.object({
    date_from: z.string().nullable(),
    date_to: z.string().nullable(),
    total: int(),
    by_action_type: z.array(z.object({ action_type: actionType, count: int() })),
    by_target_type: z.array(z.object({ target_type: targetType, count: int() })),
    by_user: z.array(
      z.object({
        user_id: int().nullable(),
        user_name: z.string().nullable(),
        user_email: z.string().nullable(),
        count: int(),
      }),
    ),
  }),
);

export const activityUsersAnswer = same<ActivityUsers>()(
  z.object({
    data: z.array(
      z.object({
        id: int(),
        name: z.string(),
        email: z.string(),
        role: z.enum(Roles),
        last_activity_at: z.string(),
      }),
    ),
  }),
);

// ---- health -------------------------------------------------------------------------------------

export const serviceHealthAnswer = z.object({ status: z.literal('ok'), service: z.string() });
export const serviceReadyAnswer = z.object({
  status: z.enum(['ready', 'not_ready', 'shutting_down']),
  service: z.string(),
  checks: z.record(z.string(), z.boolean()),
  /** services that consume events: the consumer, paused while a dependency does not answer */
  consumer: z
    .object({
      state: z.enum(['idle', 'consuming', 'paused', 'disconnected']),
      waiting_for: z.array(z.string()),
    })
    .optional(),
});
export const platformHealthAnswer = z.object({
  status: z.enum(['ok', 'degraded']),
  gateway: z.literal('up'),
  services: z.record(
    z.string(),
    // public: no checks, latencies or error texts (each service's own /ready has them)
    z.object({ status: z.enum(['up', 'down']), ready: z.boolean() }),
  ),
});

export const impactAnswer = same<ImpactReport>()(
  z
    .object({
      counting_since: z.string().nullable(),
      months: z.array(
        z.object({
          month: z.string().meta({ description: 'YYYY-MM (office time zone)' }),
          lots_received: int(),
          lots_given: int(),
        }),
      ),
      totals: z.object({
        lots_received: int(),
        lots_given: int(),
        families_served: int(),
        applications: int(),
        wishes: int(),
      }),
      median_days_to_pickup: z.number().nullable(),
      handovers_measured: int(),
      categories: z.array(
        z.object({
          category_id: int(),
          applications: int(),
          wishes: int(),
          lots_given: int(),
          open_wishes: int(),
        }),
      ),
    })
    .meta({ id: 'ImpactReport' }),
);

// data protection (issue 15): records as stored, so the export holds every field there is
const storedRecord = z.record(z.string(), z.unknown());

export const privacyLookupAnswer = same<PrivacyLookup>()(
  z.object({
    phone: z.string(),
    applications: z.array(storedRecord),
    wishes: z.array(storedRecord),
  }),
);

export const privacyRecordsAnswer = same<PrivacyRecords>()(
  z.object({ mails: z.array(storedRecord), activity: z.array(storedRecord) }),
);

export const privacyErasureAnswer = same<PrivacyErasure>()(
  z.object({ applications: int(), wishes: int() }),
);
