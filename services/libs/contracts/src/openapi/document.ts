import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiResponseObject,
} from 'zod-openapi';
import {
  activityFilterSchema,
  activityLogCreateSchema,
  activityLogQuerySchema,
} from '../api/activity';
import { impactQuerySchema } from '../api/impact';
import {
  failedMessagesQuerySchema,
  messageIdParamSchema,
  messageThreadQuerySchema,
  optOutChangeSchema,
  optOutLookupSchema,
  prepareMessageSchema,
  whatsappVerifyQuerySchema,
} from '../api/messages';
import {
  donorErasureSchema,
  donorPhoneSchema,
  privacyPhoneSchema,
  privacyRecordsSchema,
} from '../api/privacy';
import {
  applicationCreateSchema,
  applicationNoteSchema,
  applicationStatsQuerySchema,
  applicationStatusUpdateSchema,
  applicationsQuerySchema,
  lapseSchema,
  lotPhoneQuerySchema,
  pickupUpdateSchema,
  phoneParamSchema,
  wishCreateSchema,
  wishesQuerySchema,
  wishNotifySchema,
  wishStatusBodySchema,
  wishStatusQuerySchema,
} from '../api/applications';
import { referralCreateSchema, referralsQuerySchema } from '../api/referrals';
import {
  agencyCreateSchema,
  agencyPatchSchema,
  invitationAcceptSchema,
  invitationCreateSchema,
  invitationTokenParamSchema,
} from '../api/partners';
import {
  loginRequestSchema,
  passwordChangeSchema,
  profileUpdateSchema,
  userCreateSchema,
  usersQuerySchema,
  userUpdateSchema,
} from '../api/auth';
import {
  categoryCreateSchema,
  categoryUpdateSchema,
  lotCreateSchema,
  lotPatchSchema,
  lotSearchQuerySchema,
  lotSnapshotQuerySchema,
  lotsOfCategoryQuerySchema,
  lotsQuerySchema,
  lotUpdateSchema,
  TOTAL_COUNT_HEADER,
} from '../api/catalog';
import { idParamSchema, limitSkipQuerySchema } from '../api/common';
import {
  DONATION_TOKEN_HEADER,
  donationCreateSchema,
  donationItemParamsSchema,
  donationLookupSchema,
  donationLotCreateSchema,
  donationsQuerySchema,
  donationStatusUpdateSchema,
} from '../api/donations';
import {
  bookingSchema,
  dayPlanOrderSchema,
  dayPlanQuerySchema,
  donorPickupSchema,
  handoverOutcomeSchema,
  handoverTokenParamsSchema,
  locationCreateSchema,
  locationFeedQuerySchema,
  locationFeedHeadersSchema,
  locationPatchSchema,
  slotCreateSchema,
  slotListQuerySchema,
  slotPatternSchema,
} from '../api/handovers';
import {
  adoptedPhotosSchema,
  donationContactsSchema,
  donationPhotoClaimParamsSchema,
  donationPhotoClaimSchema,
  donationPhotoFinishSchema,
  donationPhotoParamsSchema,
  revocationsQuerySchema,
  InternalCallers,
  type InternalRoute,
} from '../api/internal';
import { lotPhotoParamsSchema, lotPhotosParamsSchema, photoUploadFieldsSchema } from '../api/media';
import {
  handoverScanSchema,
  labelSheetQuerySchema,
  scanParamsSchema,
  stockCountSchema,
  storagePlaceCreateSchema,
  storagePlaceListQuerySchema,
  storagePlaceParamsSchema,
} from '../api/warehouse';
import { Limits, PHOTO_MIME_TYPES } from '../limits';
import { Errors, type ErrorCode } from '../errors';
import { ServiceNames } from '../topology';
import * as answers from './responses';

/*
 * The platform's HTTP API as one OpenAPI 3.1 document, generated from the zod contracts: every
 * route of every service (as the gateway routes it) with its parameters, bodies, answers, errors
 * and who may call it. The request schemas are the ones the services parse their input with; the
 * answers are in ./responses.ts. The gateway serves the public part at /api/v1/openapi.json; the
 * service tests check every answer they receive against the whole document
 * (@furniture/platform/testing), so a route, a field or an error that is not described here
 * fails a test.
 */

export const ApiServiceNames = [...ServiceNames, 'gateway'] as const;
export type ApiServiceName = (typeof ApiServiceNames)[number];

/**
 * Who may call an operation: anyone (`public`), anyone but staff see more (`public-staff-more`),
 * any signed-in staff member (`signed-in`), admins and volunteers (`staff`), admins (`admin`).
 * `internal`: inside the deployment only (never routed by the gateway). `upload-token`: anyone
 * with a donation's upload token (X-Donation-Token), no account. `provider-signed`: a messaging
 * provider, its request signed over the raw body (issue 30).
 */
export type Access =
  | 'public'
  | 'public-staff-more'
  | 'signed-in'
  | 'staff'
  | 'admin'
  | 'referrer'
  | 'referrer-only'
  | 'internal'
  | 'upload-token'
  | 'provider-signed';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface Operation {
  method: Method;
  path: string;
  service: ApiServiceName;
  summary: string;
  description?: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** multipart/form-data instead of JSON */
  multipart?: z.ZodType;
  ok: {
    status?: number;
    description: string;
    /** none: an answer without a body (204) */
    schema?: z.ZodType;
    /** default application/json */
    contentType?: string;
    /** response headers the answer carries */
    headers?: z.ZodObject;
  };
  /** more answers with the ok schema that are not errors (the degraded health report) */
  also?: { status: number; description: string }[];
  /** domain errors this operation answers (common ones are added from access and input) */
  errors?: ErrorCode[];
  /** errors this operation answers with another status than their code's own */
  statuses?: Partial<Record<ErrorCode, number>>;
  /** limited per client IP (429 RATE_LIMITED) */
  rateLimited?: boolean;
}

/** An operation as the tables below state it: keyed by `METHOD /path` within its service. */
type Call = Omit<Operation, 'method' | 'path' | 'service' | 'also'> & {
  also?: Record<number, string>;
};

/** The operations of one service, from a table keyed by `METHOD /path` (below `prefix`). */
function calls(service: ApiServiceName, prefix: string, table: Record<string, Call>): Operation[] {
  return Object.entries(table).map(([key, { also, ...call }]) => {
    const [method, path] = key.split(' ') as [string, string];
    return {
      method: method.toLowerCase() as Method,
      path: prefix + path,
      service,
      ...call,
      ...(also && {
        also: Object.entries(also).map(([status, description]) => ({
          status: Number(status),
          description,
        })),
      }),
    };
  });
}

// ---- path and query parameters the services read without a zod schema of their own -----------

const lotIdParam = z.object({
  id: z.coerce.number().int().positive().meta({ description: 'lot id' }),
});
const categoryRefParam = z.object({
  id: z.string().meta({
    description: 'category id, or one of the eight known slugs (sofas-chairs, …)',
    example: '1',
  }),
});
const mediaFileParams = z.object({
  lotId: z.coerce.number().int().positive(),
  file: z.string().meta({
    description: '<uuid>-<thumbnail|medium|large>.webp, as the photo urls name it',
  }),
});
const multipartPhoto = photoUploadFieldsSchema.extend({
  file: z.string().meta({
    description: `the photo: ${PHOTO_MIME_TYPES.join(', ')}; at most ${Limits.photosPerLot} per lot`,
    contentMediaType: 'application/octet-stream',
  }),
});

// ---- the operations -----------------------------------------------------------------------------

/** A donor's file that is no usable image: 422 (issue 28), whatever the code's own status. */
const DONOR_PHOTO_REFUSALS: ErrorCode[] = [
  'PHOTO_FILE_MISSING',
  'PHOTO_INVALID_EXTENSION',
  'PHOTO_INVALID_TYPE',
  'PHOTO_TYPE_MISMATCH',
  'PHOTO_CORRUPT',
  'PHOTO_TOO_SMALL',
  'PHOTO_TOO_MANY_PIXELS',
];

/** The errors of a category named by id or slug. */
const CATEGORY_REF: ErrorCode[] = ['CATEGORY_NOT_FOUND', 'CATEGORY_INVALID_ID'];
/** GET /health and /ready of the gateway: the same report. */
const PLATFORM_HEALTH = {
  access: 'public',
  ok: { description: 'every service ready', schema: answers.platformHealthAnswer },
  also: { 503: 'a service is down or not ready' },
} satisfies Omit<Call, 'summary'>;

const V1 = '/api/v1';

export const operations: readonly Operation[] = [
  ...calls('auth', '', {
    'GET /internal/revocations': {
      summary: 'Sessions ended since a time (for a replica that starts or reconnects)',
      description:
        'Session ids and when they ended, newest first (at most 10 000; `truncated` says when more ended). Every service loads them at start and after its broker connection came back, so that tokens of sessions ended meanwhile are refused.',
      access: 'internal',
      query: revocationsQuerySchema,
      ok: { description: 'the ended sessions', schema: answers.revocationsPageAnswer },
    },
  }),
  ...calls('auth', V1, {
    'POST /auth/login': {
      summary: 'Log in (staff)',
      description:
        'Answers an access token (RS256 JWT, 15 minutes) and sets the refresh cookie (httpOnly, SameSite=Strict, Secure outside localhost, path /api/v1/auth) for a session of at most 12 hours (2 hours idle). After 5 failed logins for an account, or 30 from one IP, within 15 minutes: 429 LOGIN_THROTTLED.',
      access: 'public',
      body: loginRequestSchema,
      ok: { description: 'signed in', schema: answers.tokenAnswer },
      errors: ['INVALID_CREDENTIALS', 'LOGIN_THROTTLED', 'AGENCY_INACTIVE'],
      rateLimited: true,
    },
    'GET /auth/me': {
      summary: 'The signed-in user',
      access: 'signed-in',
      ok: { description: 'the user', schema: answers.userAnswer },
      errors: ['SESSION_EXPIRED'],
    },
    'POST /auth/refresh': {
      summary: 'A fresh token for the same session',
      description:
        'Takes the refresh token from the httpOnly cookie refresh_token (path /api/v1/auth, SameSite=Strict) that login set: answers a new access token and replaces the cookie (rotation); a refresh token already replaced, presented again after a 10-second grace, ends the whole session. Without the cookie, takes the bearer access token of a live session, valid or expired at most REFRESH_BEARER_GRACE_SECONDS (10 minutes) ago: answers a new access token; each access token refreshes once, and a second use ends the whole session. A bearer token sent with the cookie is only checked (expired is fine). A session ends after 2 hours without a refresh or 12 hours after login.',
      access: 'public',
      ok: { description: 'a new token', schema: answers.tokenAnswer },
      errors: ['SESSION_EXPIRED'],
    },
    'POST /auth/logout': {
      summary: 'Log out (ends the session of the refresh cookie or of the bearer token)',
      description:
        'Works with the refresh cookie alone (the browser sends no bearer token) or a bearer token; clears the cookie.',
      access: 'signed-in',
      ok: { description: 'logged out', schema: answers.successAnswer },
      errors: ['SESSION_EXPIRED'],
    },
    'PATCH /auth/profile': {
      summary: 'Change own name or e-mail',
      access: 'signed-in',
      body: profileUpdateSchema,
      ok: { description: 'the changed user', schema: answers.userAnswer },
      errors: ['SESSION_EXPIRED', 'EMAIL_TAKEN', 'USER_NOT_FOUND'],
    },
    'PATCH /auth/password': {
      summary: 'Change own password',
      description: 'Closes every other session of the user and answers a fresh token for this one.',
      access: 'signed-in',
      body: passwordChangeSchema,
      ok: { description: 'changed', schema: answers.passwordChangedAnswer },
      errors: [
        'SESSION_EXPIRED',
        'CURRENT_PASSWORD_WRONG',
        'PASSWORD_UNCHANGED',
        'PASSWORD_TOO_WEAK',
      ],
    },
    'GET /users': {
      summary: 'Staff users',
      access: 'admin',
      query: usersQuerySchema,
      ok: { description: 'a page of users', schema: answers.usersPageAnswer },
    },
    'POST /users': {
      summary: 'Create a staff user',
      access: 'admin',
      body: userCreateSchema,
      ok: { status: 201, description: 'created', schema: answers.userAnswer },
      errors: ['EMAIL_TAKEN', 'PASSWORD_TOO_WEAK', 'AGENCY_NOT_FOUND', 'AGENCY_INACTIVE'],
    },
    'GET /users/{id}': {
      summary: 'One staff user',
      access: 'admin',
      params: idParamSchema,
      ok: { description: 'the user', schema: answers.userAnswer },
      errors: ['USER_NOT_FOUND'],
    },
    'PATCH /users/{id}': {
      summary: 'Change a staff user (name, e-mail, role, password)',
      description: "A role or password change closes all of the user's sessions.",
      access: 'admin',
      params: idParamSchema,
      body: userUpdateSchema,
      ok: { description: 'the changed user', schema: answers.userAnswer },
      errors: ['USER_NOT_FOUND', 'EMAIL_TAKEN', 'LAST_ADMIN', 'CONFLICT', 'PASSWORD_TOO_WEAK'],
    },
    'GET /agencies': {
      summary: 'Partner agencies (issue 44)',
      access: 'admin',
      ok: { description: 'every agency, by name', schema: answers.agenciesAnswer },
    },
    'POST /agencies': {
      summary: 'Create a partner agency',
      access: 'admin',
      body: agencyCreateSchema,
      ok: { status: 201, description: 'created (active)', schema: answers.agencyAnswer },
      errors: ['AGENCY_TAKEN'],
    },
    'PATCH /agencies/{id}': {
      summary: 'Change or (de)activate a partner agency',
      description:
        "`active: false` ends every session of the agency's referrers (every service refuses their tokens at once) and refuses their login until the agency is active again.",
      access: 'admin',
      params: idParamSchema,
      body: agencyPatchSchema,
      ok: { description: 'the changed agency', schema: answers.agencyAnswer },
      errors: ['AGENCY_NOT_FOUND', 'AGENCY_TAKEN'],
    },
    'POST /agencies/{id}/invitations': {
      summary: 'Invite a referrer of the agency by e-mail',
      description:
        'Answers the personal link and mails it to the invitee in the given language. The link works once, for INVITATION_VALID_DAYS (14) days; only a hash of its secret is stored.',
      access: 'admin',
      params: idParamSchema,
      body: invitationCreateSchema,
      ok: { status: 201, description: 'invited', schema: answers.invitationAnswer },
      errors: ['AGENCY_NOT_FOUND', 'AGENCY_INACTIVE'],
    },
    'POST /invitations/{token}/accept': {
      summary: 'Accept an invitation: set name and password, become a referrer',
      description:
        'An unknown, expired or already used link, or one of a deactivated agency: 404. Of two acceptances of one link exactly one succeeds.',
      access: 'public',
      params: invitationTokenParamSchema,
      body: invitationAcceptSchema,
      ok: { status: 201, description: 'the new referrer', schema: answers.userAnswer },
      errors: ['INVITATION_NOT_FOUND', 'EMAIL_TAKEN', 'PASSWORD_TOO_WEAK'],
      rateLimited: true,
    },
    'DELETE /users/{id}': {
      summary: 'Delete a staff user',
      access: 'admin',
      params: idParamSchema,
      ok: { description: 'deleted', schema: answers.successAnswer },
      errors: ['USER_NOT_FOUND', 'CANNOT_DELETE_SELF', 'LAST_ADMIN'],
    },
  }),
  ...calls('catalog', V1, {
    // categories
    'GET /categories': {
      summary: 'Every category with its lot count',
      access: 'public',
      ok: {
        description: 'the categories (ETag; 304 to If-None-Match)',
        schema: answers.categoriesAnswer,
      },
    },
    'POST /categories': {
      summary: 'Create a category',
      access: 'staff',
      body: categoryCreateSchema,
      ok: { status: 201, description: 'created', schema: answers.categoryAnswer },
      errors: ['CATEGORY_DUPLICATE_NAME'],
    },
    'GET /categories/{id}': {
      summary: 'One category (by id or slug)',
      access: 'public',
      params: categoryRefParam,
      ok: { description: 'the category', schema: answers.categoryAnswer },
      errors: CATEGORY_REF,
    },
    'PUT /categories/{id}': {
      summary: 'Change a category',
      description: 'With the version it was loaded with; a stale one answers 409 STALE_VERSION.',
      access: 'staff',
      params: idParamSchema,
      body: categoryUpdateSchema,
      ok: { description: 'the changed category', schema: answers.categoryAnswer },
      errors: [...CATEGORY_REF, 'CATEGORY_DUPLICATE_NAME', 'STALE_VERSION'],
    },
    'DELETE /categories/{id}': {
      summary: 'Delete a category without lots',
      access: 'staff',
      params: idParamSchema,
      ok: { description: 'deleted', schema: answers.deletedAnswer },
      errors: [...CATEGORY_REF, 'CATEGORY_HAS_LOTS'],
    },
    // lots
    'GET /lots': {
      summary: 'Lots (filters, paging)',
      description: 'Anonymous callers never see archived lots; staff see all.',
      access: 'public-staff-more',
      query: lotsQuerySchema,
      ok: { description: 'the lots', schema: z.array(answers.lotAnswerSchema) },
    },
    'POST /lots': {
      summary: 'Create a lot',
      access: 'staff',
      body: lotCreateSchema,
      ok: { status: 201, description: 'created', schema: answers.lotAnswerSchema },
      errors: ['LOT_CATEGORY_NOT_FOUND'],
    },
    'GET /lots/count': {
      summary: 'How many lots the same filters find',
      access: 'public-staff-more',
      query: lotsQuerySchema,
      ok: { description: 'the count', schema: answers.lotCountAnswer },
    },
    'GET /lots/search': {
      summary: 'Search lots (page/limit)',
      access: 'public-staff-more',
      query: lotSearchQuerySchema,
      ok: { description: 'a page of lots', schema: answers.lotSearchAnswer },
    },
    'GET /lots/category/{ref}': {
      summary: "A category's lots (by id or slug), all or a page",
      description:
        'Newest first. Without `limit` the whole category; with it a page, the next one asked for with `before_id` = the id of the last lot shown. `X-Total-Count` holds how many lots of the category the caller can see.',
      access: 'public-staff-more',
      params: z.object({ ref: categoryRefParam.shape.id }),
      query: lotsOfCategoryQuerySchema,
      ok: {
        description: 'the lots (ETag; 304 to If-None-Match)',
        schema: z.array(answers.lotAnswerSchema),
        headers: z.object({
          [TOTAL_COUNT_HEADER]: z.string().meta({
            description: "the category's lots the caller can see (anonymous: all but archived)",
            example: '625',
          }),
        }),
      },
      errors: CATEGORY_REF,
    },
    'GET /lots/{id}': {
      summary: 'One lot',
      access: 'public-staff-more',
      params: lotIdParam,
      ok: { description: 'the lot', schema: answers.lotAnswerSchema },
      errors: ['LOT_NOT_FOUND'],
    },
    'PUT /lots/{id}': {
      summary: 'Change a lot (the whole form)',
      description: 'With the version it was loaded with; a stale one answers 409 STALE_VERSION.',
      access: 'staff',
      params: lotIdParam,
      body: lotUpdateSchema,
      ok: { description: 'the changed lot', schema: answers.lotAnswerSchema },
      errors: ['LOT_NOT_FOUND', 'LOT_CATEGORY_NOT_FOUND', 'STALE_VERSION'],
    },
    'PATCH /lots/{id}': {
      summary: 'Change some fields of a lot',
      description:
        '`version` is required unless only photos and gallery_photos are sent (setting the main photo). `storage_place_id` moves the lot to a storage place (null: off every place; issue 45): no new version, recorded in the activity log (lot.moved).',
      access: 'staff',
      params: lotIdParam,
      body: lotPatchSchema,
      ok: { description: 'the changed lot', schema: answers.lotAnswerSchema },
      errors: [
        'LOT_NOT_FOUND',
        'LOT_CATEGORY_NOT_FOUND',
        'LOT_STORAGE_PLACE_NOT_FOUND',
        'STALE_VERSION',
      ],
    },
    'DELETE /lots/{id}': {
      summary: 'Delete a lot',
      access: 'staff',
      params: lotIdParam,
      ok: { description: 'deleted', schema: answers.deletedAnswer },
      errors: ['LOT_NOT_FOUND'],
    },
  }),
  ...calls('catalog', V1, {
    // the warehouse (issue 45)
    'POST /storage-places': {
      summary: 'A storage place at a pickup location ("Halle B / Regal 3")',
      description:
        'Gets its label code at once (six characters of 23456789ABCDEFGHJKLMNPQRSTUVWXYZ, random). A name is used once per location (case and spaces aside).',
      access: 'staff',
      body: storagePlaceCreateSchema,
      ok: { status: 201, description: 'the new place', schema: answers.storagePlaceAnswer },
      errors: ['STORAGE_PLACE_DUPLICATE_NAME'],
    },
    'GET /storage-places': {
      summary: "A location's storage places (without location_id: every location's)",
      access: 'staff',
      query: storagePlaceListQuerySchema,
      ok: {
        description: 'the places with the number of lots recorded on each',
        schema: answers.storagePlaceListAnswer,
      },
    },
    'GET /storage-places/{id}/label.pdf': {
      summary: "A storage place's label (PDF, 105 × 74 mm)",
      description:
        'A QR code that opens /admin/scan/{code}, the code in large letters and the place name.',
      access: 'staff',
      params: storagePlaceParamsSchema,
      ok: { description: 'the label', schema: z.string(), contentType: 'application/pdf' },
      errors: ['STORAGE_PLACE_NOT_FOUND'],
    },
    'POST /storage-places/{id}/count': {
      summary: 'A stock count: the codes scanned on a place against what is recorded there',
      description: `missing: recorded on the place, not scanned; unexpected: scanned, recorded elsewhere or nowhere; unknown_codes: codes of no lot. At most ${Limits.stockCountCodesMax} codes. Nothing changes: staff correct with PATCH /lots/{id} {storage_place_id}.`,
      access: 'staff',
      params: storagePlaceParamsSchema,
      body: stockCountSchema,
      ok: { description: 'what differs', schema: answers.stockCountAnswer },
      errors: ['STORAGE_PLACE_NOT_FOUND'],
    },
    'GET /scan/{code}': {
      summary: 'What a label code names: a lot with its place, or a place with its lots',
      description:
        'The code as printed or typed, in lower case like every API path (K7M 4QX: /scan/k7m4qx; a dash does not matter). Unknown: 404 LABEL_NOT_FOUND.',
      access: 'staff',
      params: scanParamsSchema,
      ok: { description: 'the lot or the place', schema: answers.scanAnswer },
      errors: ['LABEL_NOT_FOUND'],
    },
    'GET /lots/{id}/label.pdf': {
      summary: "A lot's label (PDF, 105 × 74 mm)",
      description:
        'A QR code that opens /admin/scan/{code}, the code in large letters, the lot name and number. A lot of an earlier version gets its code here if it has none yet.',
      access: 'staff',
      params: lotIdParam,
      ok: { description: 'the label', schema: z.string(), contentType: 'application/pdf' },
      errors: ['LOT_NOT_FOUND'],
    },
    'GET /labels.pdf': {
      summary: 'An A4 sheet of lot labels (two columns of four, 105 × 74 mm each)',
      description: `lot_ids: up to ${Limits.labelSheetLotsMax} lot ids, comma-separated, in the order to print (e.g. every lot made from one donation). An unknown lot: 404.`,
      access: 'staff',
      query: labelSheetQuerySchema,
      ok: { description: 'the sheet(s)', schema: z.string(), contentType: 'application/pdf' },
      errors: ['LOT_NOT_FOUND'],
    },
    // donations (issue 28)
    'POST /donations': {
      summary: 'Offer furniture (donors)',
      description: `One to ${Limits.donationItemsMax} items; available_until today or later (a day in Germany). Answers the upload token for the photos (X-Donation-Token, valid for one hour). Unknown fields are ignored.`,
      access: 'public',
      body: donationCreateSchema,
      ok: { status: 201, description: 'received', schema: answers.donationCreatedAnswer },
      errors: ['PHONE_RATE_LIMITED'],
      rateLimited: true,
    },
    'POST /donations/lookup': {
      summary: "A donor's donations by phone number",
      description: 'The number travels in the body, never in a URL.',
      access: 'public',
      body: donationLookupSchema,
      ok: { description: 'the donations', schema: answers.donationLookupAnswer },
      rateLimited: true,
    },
    'GET /donations': {
      summary: 'Donations (status filter, search, counts per status)',
      description:
        'search: the donor name or city, a part of the phone number, or the donation number. counts: per status, of the search without the status filter.',
      access: 'staff',
      query: donationsQuerySchema,
      ok: { description: 'a page of donations', schema: answers.donationsPageAnswer },
    },
    'GET /donations/{id}': {
      summary: 'One donation: donor contact, items with photos, history',
      access: 'staff',
      params: idParamSchema,
      ok: { description: 'the donation', schema: answers.donationAnswer },
      errors: ['DONATION_NOT_FOUND'],
    },
    'PATCH /donations/{id}/status': {
      summary: 'Accept, decline, collect or cancel a donation',
      description:
        'submitted → accepted | declined, accepted → collected | cancelled. A decline needs a reason (the donor is told); the note is internal.',
      access: 'staff',
      params: idParamSchema,
      body: donationStatusUpdateSchema,
      ok: { description: 'the changed donation', schema: answers.donationAnswer },
      errors: ['DONATION_NOT_FOUND', 'DONATION_TRANSITION_NOT_ALLOWED'],
    },
    'POST /donations/{id}/items/{itemId}/lot': {
      summary: 'Make a lot of a donated item, with its photos',
      description:
        "The fields of POST /lots, each optional: category, texts, dimensions and condition default to the item's, donor to the donor's name if they agreed (else \"anonym\"), location to the donation's city, status to available. The lot's photos are the item's. An item becomes at most one lot; the donation must be accepted (or collected).",
      access: 'staff',
      params: donationItemParamsSchema,
      body: donationLotCreateSchema,
      ok: { status: 201, description: 'the new lot', schema: answers.lotAnswerSchema },
      errors: [
        'DONATION_NOT_FOUND',
        'DONATION_ITEM_NOT_FOUND',
        'DONATION_NOT_ACCEPTED',
        'DONATION_ITEM_HAS_LOT',
        'LOT_CATEGORY_NOT_FOUND',
      ],
    },
  }),
  ...calls('catalog', '', {
    'GET /internal/lots/snapshot': {
      summary: 'Every lot by id, for read models of other services',
      access: 'internal',
      query: lotSnapshotQuerySchema,
      ok: { description: 'a page of lot snapshots', schema: answers.lotSnapshotPageAnswer },
    },
    'POST /internal/donations/{id}/items/{itemId}/photo-claims': {
      summary: "A place among a donated item's photos, before the media service stores one",
      access: 'internal',
      params: donationPhotoClaimParamsSchema,
      body: donationPhotoClaimSchema,
      ok: { description: 'claimed, or why not', schema: answers.donationPhotoClaimAnswer },
    },
    'POST /internal/donations/{id}/items/{itemId}/photo-claims/{photoId}': {
      summary: 'The claimed photo is stored: it joins its item',
      access: 'internal',
      params: donationPhotoParamsSchema,
      body: donationPhotoFinishSchema,
      ok: {
        description: 'stored, or the claim is gone',
        schema: answers.donationPhotoFinishAnswer,
      },
    },
    'POST /internal/donations/contacts': {
      summary: 'What a driver needs of some donations (the day plan, a donor pickup)',
      access: 'internal',
      body: donationContactsSchema,
      ok: { description: 'the donations that exist', schema: answers.donationContactsAnswer },
    },
    'POST /internal/privacy/donations': {
      summary: "A phone number's donations as stored (the privacy lookup)",
      access: 'internal',
      body: donorPhoneSchema,
      ok: { description: 'the donations', schema: answers.donorRecordsAnswer },
    },
    'POST /internal/privacy/donations/erase': {
      summary: "Erase the donor's data of a phone number's closed donations",
      description:
        'Each erased donation publishes privacy.personal_data_erased (donation_ids); open ones stay and are counted.',
      access: 'internal',
      body: donorErasureSchema,
      ok: { description: 'erased and open donations', schema: answers.donorErasureAnswer },
    },
    'DELETE /internal/donations/{id}/items/{itemId}/photo-claims/{photoId}': {
      summary: 'A refused or failed upload gives its place back',
      access: 'internal',
      params: donationPhotoParamsSchema,
      ok: {
        description: 'released (false: it was not held)',
        schema: answers.donationPhotoReleaseAnswer,
      },
    },
  }),
  ...calls('applications', V1, {
    // the lot page's queue panel
    'GET /lots/{id}/can-apply': {
      summary: 'May this phone apply for the lot?',
      access: 'public',
      params: idParamSchema,
      query: lotPhoneQuerySchema,
      ok: { description: 'the verdict', schema: answers.eligibilityAnswer },
      errors: ['LOT_NOT_FOUND'],
      rateLimited: true,
    },
    'GET /lots/{id}/applications-info': {
      summary: "The lot's queue, and this phone's place in it",
      access: 'public',
      params: idParamSchema,
      query: lotPhoneQuerySchema,
      ok: { description: 'the queue', schema: answers.queueInfoAnswer },
      errors: ['LOT_NOT_FOUND'],
      rateLimited: true,
    },
    // applications
    'POST /applications': {
      summary: 'Apply for a lot (families)',
      description:
        'Unknown fields are ignored. The hidden field `website` must stay empty (a filled one is answered like a success and nothing is stored).',
      access: 'public',
      headers: z.object({
        'idempotency-key': z
          .string()
          .regex(/^[\w-]{1,100}$/)
          .optional()
          .meta({
            description:
              'one per filled form: a resend after a lost answer gets the first answer again',
          }),
      }),
      body: applicationCreateSchema,
      ok: { status: 201, description: 'received', schema: answers.applicationCreatedAnswer },
      errors: [
        'LOT_NOT_FOUND',
        'LOT_NOT_AVAILABLE',
        'ALREADY_APPLIED',
        'TOO_MANY_OPEN_APPLICATIONS',
        'ERASURE_RUNNING',
        'INVALID_IDEMPOTENCY_KEY',
        'PHONE_RATE_LIMITED',
      ],
      rateLimited: true,
    },
    'POST /referrals': {
      summary: "A partner agency's referrer applies for a family (issue 44)",
      description:
        "The family's own application path: the same lot check, duplicate and per-phone rules, queue and messages (in the family's language and channel). A family that already applied for the lot (by itself or through any agency) is refused with ALREADY_APPLIED and nothing about the other application. Still pending after REFERRAL_VALID_DAYS (30) days, the referral closes as expired. A referrer makes at most REFERRALS_PER_REFERRER_PER_DAY (50) referrals per office day, refused ones included: the next is refused with 429 REFERRAL_DAILY_LIMIT and Retry-After (seconds to midnight).",
      access: 'referrer-only',
      body: referralCreateSchema,
      ok: { status: 201, description: 'referred', schema: answers.referralCreatedAnswer },
      errors: [
        'LOT_NOT_FOUND',
        'LOT_NOT_AVAILABLE',
        'ALREADY_APPLIED',
        'TOO_MANY_OPEN_APPLICATIONS',
        'ERASURE_RUNNING',
        'REFERRAL_DAILY_LIMIT',
      ],
    },
    'GET /referrals': {
      summary: "The referred families: a referrer's own agency's; staff every agency's",
      description:
        "Each with where it stands; `booking` is the slot an approved family booked (start, end, pickup or delivery, the location's name), null before it books and once the application closed.",
      access: 'referrer',
      query: referralsQuerySchema,
      ok: { description: 'newest first', schema: answers.referralsAnswer },
    },
    'GET /referrals/{id}': {
      summary: 'One referred family and where it stands',
      description: "Another agency's referral answers 404, as one that does not exist.",
      access: 'referrer',
      params: idParamSchema,
      ok: { description: 'the referral', schema: answers.referralAnswer },
      errors: ['REFERRAL_NOT_FOUND'],
    },
    'GET /applications': {
      summary: 'Applications (the queue)',
      access: 'staff',
      query: applicationsQuerySchema,
      ok: { description: 'a page of applications', schema: answers.applicationsPageAnswer },
    },
    'GET /applications/public/check-status/{phone}': {
      summary: "A family's applications by phone number",
      access: 'public',
      params: phoneParamSchema,
      ok: { description: 'the applications', schema: answers.statusCheckAnswer },
      rateLimited: true,
    },
    'GET /applications/stats': {
      summary: 'Counts by status, overall and per lot',
      access: 'staff',
      query: applicationStatsQuerySchema,
      ok: { description: 'the counts', schema: answers.applicationStatsAnswer },
    },
    'GET /applications/by-phone/{phone}': {
      summary: "A phone number's applications",
      access: 'staff',
      params: phoneParamSchema,
      query: limitSkipQuerySchema,
      ok: { description: 'a page of applications', schema: answers.applicationsPageAnswer },
    },
    'GET /applications/{id}': {
      summary: 'One application',
      access: 'staff',
      params: idParamSchema,
      ok: { description: 'the application', schema: answers.applicationAnswer },
      errors: ['APPLICATION_NOT_FOUND'],
    },
    'PATCH /applications/{id}/status': {
      summary: 'Approve, reject, complete or reopen an application',
      description:
        'Approving asks the catalog to reserve the lot (one approved application per lot) and answers 202: the application becomes approved once the lot is reserved, or shows approval.state failed. The note is optional (the back-office asks for one to reject): a change sent without one takes the note its author sends next to PATCH /applications/{id}/notes within 2 minutes, if nothing else changed the application meanwhile, as its comment.',
      access: 'staff',
      params: idParamSchema,
      body: applicationStatusUpdateSchema,
      ok: { description: 'the changed application', schema: answers.applicationAnswer },
      also: {
        202: 'an approval requested: the application stays pending (approval.state requested) until the catalog has reserved the lot',
      },
      errors: [
        'APPROVAL_IN_PROGRESS',
        'APPLICATION_NOT_FOUND',
        'APPLICATION_COMPLETED',
        'APPLICATION_TRANSITION_NOT_ALLOWED',
        'APPLICATION_CHANGED',
        'PICKUP_DATE_IN_PAST',
        'LOT_ALREADY_RESERVED',
        'LOT_NOT_AVAILABLE',
        'LOT_NOT_FOUND',
        'CONFLICT',
      ],
    },
    'PATCH /applications/{id}/pickup': {
      summary: 'Change the pickup date of an approved application',
      description:
        'The new date (today or later, a day in the office time zone) is mailed to the family and logged; an overdue reservation becomes current again.',
      access: 'staff',
      params: idParamSchema,
      body: pickupUpdateSchema,
      ok: { description: 'the application with its new date', schema: answers.applicationAnswer },
      errors: ['APPLICATION_NOT_FOUND', 'PICKUP_NOT_APPROVED', 'PICKUP_DATE_IN_PAST'],
    },
    'POST /applications/{id}/lapse': {
      summary: 'The family did not pick the lot up: end the reservation',
      description:
        'The application is rejected (reason pickup_lapsed), the catalog frees the lot, the families rejected because of the reservation come back to the queue and the first of them is next (approved at once when PICKUP_LAPSE_AUTO_APPROVE is on).',
      access: 'staff',
      params: idParamSchema,
      body: lapseSchema,
      ok: { description: 'the ended application', schema: answers.applicationAnswer },
      errors: ['APPLICATION_NOT_FOUND', 'PICKUP_NOT_APPROVED', 'APPLICATION_CHANGED'],
    },
    'PATCH /applications/{id}/notes': {
      summary: 'Add an internal note',
      description:
        "Adds a line \"[time] role: email | NOTE_ADD | comment\" with the server's time and the token's role and e-mail. Right after a status change sent without a note (same author, within 2 minutes, nothing else changed), the note becomes that change's comment instead.",
      access: 'staff',
      params: idParamSchema,
      body: applicationNoteSchema,
      ok: { description: 'the application with the note', schema: answers.applicationAnswer },
      errors: ['APPLICATION_NOT_FOUND'],
    },
    'POST /applications/{id}/messages': {
      summary: 'Send the family a prepared WhatsApp/SMS message',
      description:
        "template: call_office, still_interested or pickup_reminder. The application gets a note line (CONTACT) and message.requested goes out; the notification service sends it to the family's WhatsApp number (else SMS to its phone) in the family's language, and by e-mail if it fails for good and the family gave an address. GET /messages/?application_id= shows what became of it.",
      access: 'staff',
      params: idParamSchema,
      body: prepareMessageSchema,
      ok: { status: 202, description: 'requested', schema: answers.prepareMessageAnswer },
      errors: ['APPLICATION_NOT_FOUND'],
    },
    // wishes
    'POST /wishes': {
      summary: 'Send a wish (families)',
      description: 'Unknown fields are ignored; the hidden field `website` must stay empty.',
      access: 'public',
      body: wishCreateSchema,
      ok: { status: 201, description: 'received', schema: answers.wishCreatedAnswer },
      errors: ['ERASURE_RUNNING', 'PHONE_RATE_LIMITED'],
      rateLimited: true,
    },
    'GET /wishes': {
      summary: 'Wishes',
      access: 'staff',
      query: wishesQuerySchema,
      ok: { description: 'a page of wishes', schema: answers.wishesPageAnswer },
    },
    'GET /wishes/{id}': {
      summary: 'One wish',
      access: 'staff',
      params: idParamSchema,
      ok: { description: 'the wish', schema: answers.wishAnswer },
      errors: ['WISH_NOT_FOUND'],
    },
    'PATCH /wishes/{id}/status': {
      summary: "Change a wish's status and notes",
      description: 'The status comes as ?status= (or in the body); admin_notes replaces the notes.',
      access: 'staff',
      params: idParamSchema,
      query: wishStatusQuerySchema,
      body: wishStatusBodySchema,
      ok: { description: 'the changed wish', schema: answers.wishAnswer },
      errors: ['WISH_NOT_FOUND', 'WISH_FULFILLED', 'WISH_TRANSITION_NOT_ALLOWED'],
    },
    'POST /wishes/{id}/messages': {
      summary: 'Send the family of an active wish a prepared WhatsApp/SMS message',
      description:
        'template: call_office, still_interested or pickup_reminder. The wish gets a note line and message.requested goes out; the notification service sends it (WhatsApp, else SMS) in the wish language. GET /messages/?wish_id= shows what became of it.',
      access: 'staff',
      params: idParamSchema,
      body: prepareMessageSchema,
      ok: { status: 202, description: 'requested', schema: answers.prepareMessageAnswer },
      errors: ['WISH_NOT_FOUND', 'WISH_NOT_ACTIVE'],
    },
    'POST /wishes/{id}/notify': {
      summary: 'Tell the family of an active wish about a matching lot',
      description:
        'By mail in the wish language when the family gave an address (channel email), otherwise staff send the prefilled WhatsApp message (channel whatsapp). The wish gets a note line either way.',
      access: 'staff',
      params: idParamSchema,
      body: wishNotifySchema,
      ok: { description: 'the wish and the channel', schema: answers.wishNotifiedAnswer },
      errors: [
        'WISH_NOT_FOUND',
        'WISH_TRANSITION_NOT_ALLOWED',
        'WISH_LOT_NOT_MATCHING',
        'CONFLICT',
      ],
    },
    'GET /lots/{id}/wish-matches': {
      summary: "The active wishes of a lot's category",
      description: 'Oldest first, at most 20; none while the lot is not available.',
      access: 'staff',
      params: idParamSchema,
      ok: { description: 'the matching wishes', schema: answers.wishMatchesAnswer },
      errors: ['LOT_NOT_FOUND'],
    },
    // data protection
    'POST /privacy/lookup': {
      summary:
        'Everything stored about a phone number: its applications (with notes), wishes and donations',
      description:
        'The number travels in the body, never in a URL. Records are answered as stored (the donations asked of the catalog); the mails and log entries of their ids come from POST /privacy/records.',
      access: 'admin',
      body: privacyPhoneSchema,
      ok: { description: 'the records', schema: answers.privacyLookupAnswer },
    },
    'POST /privacy/erase': {
      summary: "Erase a phone number's applications, wishes and donations (the person's fields)",
      description:
        "Each record keeps status, dates and lot; the family's or donor's fields and free texts are replaced (a donation's photos too). Each erased record publishes privacy.personal_data_erased: the notification service deletes its mails and strips its log entries, the media service removes a donation's photos. Refused while an application is open, a wish active or a donation submitted or accepted.",
      access: 'admin',
      body: privacyPhoneSchema,
      ok: { description: 'how many records were erased', schema: answers.privacyErasureAnswer },
      errors: ['PRIVACY_OPEN_RECORDS'],
    },
  }),
  ...calls('applications', V1, {
    // handover (issue 29): locations, slots, the family's booking, the day plan
    'POST /locations': {
      summary: 'A pickup location (name, address, opening notes)',
      access: 'admin',
      body: locationCreateSchema,
      ok: { status: 201, description: 'the new location', schema: answers.locationAnswer },
    },
    'GET /locations': {
      summary: 'The pickup locations, with their iCal feeds',
      access: 'staff',
      ok: { description: 'the locations', schema: answers.locationListAnswer },
    },
    'PATCH /locations/{id}': {
      summary: 'Change a location, or make it inactive (it offers no new slots)',
      access: 'admin',
      params: idParamSchema,
      body: locationPatchSchema,
      ok: { description: 'the changed location', schema: answers.locationAnswer },
      errors: ['LOCATION_NOT_FOUND'],
    },
    'GET /locations/{id}/calendar.ics': {
      summary: "A location's booked stops as an iCal feed (staff calendars)",
      description:
        'The secret of the feed (calendar_url of the location) as `key` in the query or in the X-Feed-Key header (404 without either). Stops name the kind, the lot and the application or donation number, never a family.',
      access: 'public',
      params: idParamSchema,
      query: locationFeedQuerySchema,
      headers: locationFeedHeadersSchema,
      ok: { description: 'the feed', schema: z.string(), contentType: 'text/calendar' },
      errors: ['LOCATION_NOT_FOUND'],
      rateLimited: true,
    },
    'POST /slots': {
      summary: 'One slot at a location (pickup, delivery or donor pickup)',
      access: 'staff',
      body: slotCreateSchema,
      ok: { status: 201, description: 'the new slot', schema: answers.slotAnswer },
      errors: ['LOCATION_NOT_FOUND'],
    },
    'POST /slots/pattern': {
      summary: 'Slots from a weekly pattern over a date range (times in Europe/Berlin)',
      description: `At most ${Limits.slotPatternMax} slots at once.`,
      access: 'staff',
      body: slotPatternSchema,
      ok: { status: 201, description: 'the new slots', schema: answers.slotListAnswer },
      errors: ['LOCATION_NOT_FOUND', 'SLOT_PATTERN_TOO_MANY'],
    },
    'GET /slots': {
      summary: 'Slots in a range (default: today and the next 14 days), with their bookings',
      access: 'staff',
      query: slotListQuerySchema,
      ok: { description: 'the slots, earliest first', schema: answers.slotListAnswer },
    },
    'DELETE /slots/{id}': {
      summary: 'Delete a slot nobody is booked on',
      access: 'staff',
      params: idParamSchema,
      ok: { status: 204, description: 'deleted' },
      errors: ['SLOT_NOT_FOUND', 'SLOT_BOOKED'],
    },
    'GET /handovers': {
      summary: 'The day plan: every stop of a day in the team’s order',
      description:
        "Families' names, phones and addresses are read from their applications, donors' from the catalog, at request time.",
      access: 'staff',
      query: dayPlanQuerySchema,
      ok: { description: 'the stops', schema: answers.dayPlanAnswer },
    },
    'POST /handovers': {
      summary: 'A donor pickup: book a donor_pickup slot for an accepted donation',
      access: 'staff',
      body: donorPickupSchema,
      ok: { status: 201, description: 'the stop', schema: answers.dayPlanStopSchema },
      errors: [
        'SLOT_NOT_FOUND',
        'SLOT_FULL',
        'SLOT_NOT_OFFERED',
        'DONATION_NOT_FOUND',
        'DONATION_PICKUP_NOT_ALLOWED',
      ],
    },
    'PUT /handovers/order': {
      summary: "The day plan's order",
      description:
        'ids: stops of that day in the order the team drives them; stops left out follow.',
      access: 'staff',
      body: dayPlanOrderSchema,
      ok: { description: 'the day plan in its new order', schema: answers.dayPlanAnswer },
    },
    'PATCH /handovers/{ref}': {
      summary: 'What happened at a stop: done or absent',
      description:
        'done: the application is completed (the lot taken) or the donation collected; absent: the pickup lapses and the lot goes to the next family.',
      access: 'staff',
      params: z.object({ ref: idParamSchema.shape.id }),
      body: handoverOutcomeSchema,
      ok: { description: 'the stop', schema: answers.dayPlanStopSchema },
      errors: ['HANDOVER_STOP_NOT_FOUND', 'HANDOVER_CLOSED'],
    },
    'POST /handovers/{ref}/scan': {
      summary: 'The item at a stop, scanned or typed before "erledigt" (issue 45)',
      description:
        "The booked lot's code: 200 {match: true}. Another lot's: 409 WRONG_ITEM, no lot's: 409 UNKNOWN_ITEM (both with booked_lot, scanned_lot and scanned_code); the same code again with confirm: true is the driver's second confirmation (200, match false, confirmed true). Every scan is recorded on the stop (item_check) and in the activity log.",
      access: 'staff',
      params: z.object({ ref: idParamSchema.shape.id }),
      body: handoverScanSchema,
      ok: { description: 'the check', schema: answers.handoverScanAnswer },
      errors: [
        'HANDOVER_STOP_NOT_FOUND',
        'HANDOVER_CLOSED',
        'HANDOVER_NO_LOT',
        'WRONG_ITEM',
        'UNKNOWN_ITEM',
      ],
    },
    'GET /handovers/{ref}': {
      summary: "A family's booking page: the lot, the pickup date, the slots it may book",
      description:
        'ref: the personal token of the approval mail. An unknown or ended token answers 404.',
      access: 'public',
      params: z.object({ ref: handoverTokenParamsSchema.shape.token }),
      ok: { description: 'what the family may book', schema: answers.handoverFamilyAnswer },
      errors: ['HANDOVER_NOT_FOUND'],
      rateLimited: true,
    },
    'POST /handovers/{token}/booking': {
      summary: 'The family books a slot, or moves its booking to another',
      access: 'public',
      params: handoverTokenParamsSchema,
      body: bookingSchema,
      ok: { description: 'the booking', schema: answers.bookingAnswer },
      errors: [
        'HANDOVER_NOT_FOUND',
        'SLOT_NOT_FOUND',
        'SLOT_FULL',
        'SLOT_NOT_OFFERED',
        'HANDOVER_CHANGE_CLOSED',
      ],
      rateLimited: true,
    },
    'DELETE /handovers/{token}/booking': {
      summary: 'The family gives its slot back',
      access: 'public',
      params: handoverTokenParamsSchema,
      ok: { status: 204, description: 'cancelled' },
      errors: ['HANDOVER_NOT_FOUND', 'HANDOVER_CHANGE_CLOSED'],
      rateLimited: true,
    },
    'GET /handovers/{token}/calendar.ics': {
      summary: "The family's booking as an .ics file",
      access: 'public',
      params: handoverTokenParamsSchema,
      ok: { description: 'the event', schema: z.string(), contentType: 'text/calendar' },
      errors: ['HANDOVER_NOT_FOUND'],
      rateLimited: true,
    },
  }),
  ...calls('media', V1, {
    'POST /lots/{id}/photos': {
      summary: 'Upload a photo of a lot',
      description:
        'One JPEG, PNG or WebP file; stored as three WebP sizes (thumbnail 320, medium 800, large 1600 px). Busy: 503 PHOTO_UPLOADS_BUSY with Retry-After.',
      access: 'staff',
      params: lotPhotosParamsSchema,
      multipart: multipartPhoto,
      ok: { status: 201, description: 'stored', schema: answers.photoUploadAnswer },
      errors: [
        'LOT_NOT_FOUND',
        'PHOTO_FILE_MISSING',
        'PHOTO_SINGLE_FILE_ONLY',
        'PHOTO_INVALID_EXTENSION',
        'PHOTO_INVALID_TYPE',
        'PHOTO_TYPE_MISMATCH',
        'PHOTO_CORRUPT',
        'PHOTO_TOO_LARGE',
        'PHOTO_TOO_SMALL',
        'PHOTO_TOO_MANY_PIXELS',
        'PHOTO_LIMIT_REACHED',
        'PHOTO_UPLOAD_INCOMPLETE',
        'PHOTO_UPLOADS_BUSY',
        'PHOTO_PROCESSING_TIMEOUT',
        'BAD_REQUEST',
      ],
    },
    'GET /lots/{id}/photos': {
      summary: "A lot's photos",
      access: 'staff',
      params: lotPhotosParamsSchema,
      ok: { description: 'the photos', schema: answers.photoListAnswer },
      errors: ['LOT_NOT_FOUND'],
    },
    'DELETE /lots/{id}/photos/{photoId}': {
      summary: 'Delete a photo',
      access: 'staff',
      params: lotPhotoParamsSchema,
      ok: { description: 'deleted', schema: answers.photoDeleteAnswer },
      errors: ['PHOTO_NOT_FOUND', 'LOT_NOT_FOUND'],
    },
  }),
  ...calls('media', V1, {
    'POST /donations/{id}/items/{itemId}/photos': {
      summary: "A donor's photo of an offered item",
      access: 'upload-token',
      description: `One JPEG, PNG or WebP file, checked and stored like staff photos (three WebP sizes, metadata removed); at most ${Limits.donationPhotosPerItem} per item. The donation's upload token goes in X-Donation-Token (valid for one hour after the offer, while the donation waits for staff). A file that is no usable image, too small, or a sixth photo: 422. Busy: 503 PHOTO_UPLOADS_BUSY with Retry-After.`,
      params: donationItemParamsSchema,
      headers: z.object({
        [DONATION_TOKEN_HEADER]: z
          .string()
          .meta({ description: 'upload_token of the POST /donations answer' }),
      }),
      multipart: multipartPhoto,
      ok: { status: 201, description: 'stored', schema: answers.donationPhotoAnswer },
      errors: [
        'DONATION_TOKEN_INVALID',
        'DONATION_ITEM_NOT_FOUND',
        ...DONOR_PHOTO_REFUSALS,
        'PHOTO_LIMIT_REACHED',
        'PHOTO_TOO_LARGE',
        'PHOTO_SINGLE_FILE_ONLY',
        'PHOTO_UPLOAD_INCOMPLETE',
        'PHOTO_UPLOADS_BUSY',
        'PHOTO_PROCESSING_TIMEOUT',
        'BAD_REQUEST',
      ],
      statuses: Object.fromEntries(
        [...DONOR_PHOTO_REFUSALS, 'PHOTO_LIMIT_REACHED'].map((code) => [code, 422]),
      ),
    },
  }),
  ...calls('media', '', {
    'POST /internal/lots/{id}/adopted-photos': {
      summary: "A lot made of a donated item takes the item's photos (copied, with photo.uploaded)",
      access: 'internal',
      params: idParamSchema,
      body: adoptedPhotosSchema,
      ok: { description: "the lot's photos", schema: answers.adoptedPhotosAnswer },
    },
    'GET /media/donations/{id}/{itemId}/{file}': {
      summary: "A donor's photo (WebP)",
      description:
        'Cached for a year (immutable); ETag answers 304 to a conditional GET. Gone once the donation is erased.',
      access: 'public',
      params: donationItemParamsSchema.extend({ file: mediaFileParams.shape.file }),
      ok: {
        description: 'the image',
        schema: z.string().meta({ contentMediaType: 'image/webp' }),
        contentType: 'image/webp',
      },
      errors: ['PHOTO_NOT_FOUND'],
    },
    'GET /media/lots/{lotId}/{file}': {
      summary: 'A photo (WebP)',
      description: 'Cached for a year (immutable); ETag answers 304 to a conditional GET.',
      access: 'public',
      params: mediaFileParams,
      ok: {
        description: 'the image',
        schema: z.string().meta({ contentMediaType: 'image/webp' }),
        contentType: 'image/webp',
      },
      errors: ['PHOTO_NOT_FOUND'],
    },
  }),
  ...calls('notification', V1, {
    // activity log
    'GET /activity-logs': {
      summary: 'The activity log',
      access: 'admin',
      query: activityLogQuerySchema,
      ok: { description: 'a page of entries', schema: answers.activityPageAnswer },
      errors: ['ACTIVITY_DATE_RANGE_INVALID'],
    },
    'POST /activity-logs': {
      summary: 'Add an entry for the signed-in staff member',
      description:
        'The action types the specification\'s client-side logger sends (LOGIN, LOGOUT, PASSWORD_CHANGE, CREATE, UPDATE, DELETE, APPROVE, REJECT, STATUS_CHANGE, CONTACT, NOTE_ADD, COMPLETE, CANCEL_RESERVATION, EXPORT, IMPORT; either case). The entry is written under the token\'s user (a user named in the body is ignored), with source "client" and its details as text (an object as its JSON, at most 10000 characters). At most ACTIVITY_POSTS_PER_USER (120) per ACTIVITY_POSTS_WINDOW_SECONDS (10 minutes) per staff member: 429 RATE_LIMITED with Retry-After.',
      access: 'staff',
      body: activityLogCreateSchema,
      ok: { status: 201, description: 'the entry', schema: answers.activityEntryAnswer },
      errors: ['ACTIVITY_DETAILS_TOO_LARGE'],
      rateLimited: true,
    },
    'GET /activity-logs/stats': {
      summary: 'Counts by action, target and user',
      access: 'admin',
      query: activityFilterSchema,
      ok: { description: 'the counts', schema: answers.activityStatsAnswer },
      errors: ['ACTIVITY_DATE_RANGE_INVALID'],
    },
    'GET /impact': {
      summary:
        'The impact dashboard: lots received and given per month, families served, waiting times, categories, donations received and accepted, lots from donations, families per partner agency',
      access: 'admin',
      query: impactQuerySchema,
      ok: {
        description: 'the figures, from counters kept by the events',
        schema: answers.impactAnswer,
      },
    },
    // WhatsApp and SMS messages (issue 30)
    'GET /messages': {
      summary:
        "One thread's WhatsApp/SMS messages (an application, a wish or a donation), newest first",
      description:
        'Exactly one of application_id, wish_id, donation_id. Each message: the channel of its latest attempt, the number masked, its status (queued, sending, sent, delivered, read, failed, skipped) with the reason, every step the providers reported, and whether the family also has e-mail.',
      access: 'staff',
      query: messageThreadQuerySchema,
      ok: { description: 'the messages', schema: answers.messageListPage },
    },
    'GET /messages/failed': {
      summary:
        'Messages that failed for good on every channel they could take (parked), newest first',
      access: 'staff',
      query: failedMessagesQuerySchema,
      ok: { description: 'a page of failed messages', schema: answers.failedMessagesPage },
    },
    'GET /messages/status': {
      summary: "The channels: on or off, this month's messages against the budget, reachability",
      access: 'staff',
      ok: { description: 'both channels and the failed count', schema: answers.messageStatusPage },
    },
    'POST /messages/{id}/resend': {
      summary: 'Send a failed message once more (from WhatsApp again)',
      access: 'staff',
      params: messageIdParamSchema,
      ok: { status: 202, description: 'queued again', schema: answers.messageResendAnswer },
      errors: ['MESSAGE_NOT_FOUND', 'MESSAGE_NOT_FAILED', 'MESSAGES_OFF'],
    },
    'POST /messages/opt-outs/lookup': {
      summary: 'Whether a number opted out of WhatsApp and of SMS (the number in the body)',
      access: 'staff',
      body: optOutLookupSchema,
      ok: { description: 'the opt-outs', schema: answers.optOutPage },
    },
    'PUT /messages/opt-outs': {
      summary: 'Mark a number as opted out of a channel, or back in (the family asked by phone)',
      access: 'staff',
      body: optOutChangeSchema,
      ok: { description: 'the opt-outs now', schema: answers.optOutPage },
    },
    'GET /messages/callbacks/whatsapp': {
      summary: "Meta's webhook verification",
      description:
        'hub.mode=subscribe and hub.verify_token equal to WHATSAPP_VERIFY_TOKEN: the challenge comes back as text; anything else 403.',
      access: 'public',
      query: whatsappVerifyQuerySchema,
      ok: { description: 'the challenge', schema: z.string(), contentType: 'text/plain' },
      errors: ['MESSAGE_CALLBACK_FORBIDDEN'],
      rateLimited: true,
    },
    'POST /messages/callbacks/whatsapp': {
      summary:
        "The WhatsApp Cloud API's webhooks: message statuses and the families' replies (STOP, START)",
      description:
        'Signed: X-Hub-Signature-256 = sha256=HMAC-SHA256(WHATSAPP_APP_SECRET, raw body). A missing or wrong signature answers 403 and changes nothing; a body that is no webhook 400. A status of one of our messages (biz_opaque_callback_data) whose send is still being recorded answers 503: Meta posts it again.',
      access: 'provider-signed',
      ok: { description: 'taken', schema: z.object({ success: z.literal(true) }) },
      errors: ['MESSAGE_CALLBACK_FORBIDDEN', 'SERVICE_UNAVAILABLE'],
      rateLimited: true,
    },
    'POST /messages/callbacks/sms': {
      summary: "The SMS provider's status callbacks and inbound SMS (STOP, START), form-encoded",
      description:
        "Signed: X-Twilio-Signature over MESSAGES_CALLBACK_BASE_URL + this path and the sorted form fields (Twilio's scheme). A missing or wrong signature answers 403 and changes nothing. Answers an empty TwiML response.",
      access: 'provider-signed',
      ok: { description: 'taken', schema: z.string(), contentType: 'text/xml' },
      errors: ['MESSAGE_CALLBACK_FORBIDDEN'],
      rateLimited: true,
    },
    'POST /privacy/records': {
      summary: 'The mail records and activity entries of applications, wishes and donations',
      access: 'admin',
      body: privacyRecordsSchema,
      ok: { description: 'the records', schema: answers.privacyRecordsAnswer },
    },
    'GET /activity-logs/users': {
      summary: 'Staff members who appear in the log',
      access: 'admin',
      ok: { description: 'the users', schema: answers.activityUsersAnswer },
    },
    'GET /activity-logs/export.csv': {
      summary: 'The filtered log as CSV (UTF-8 with BOM)',
      access: 'admin',
      query: activityFilterSchema,
      ok: { description: 'the CSV file', schema: z.string(), contentType: 'text/csv' },
      errors: ['ACTIVITY_DATE_RANGE_INVALID'],
    },
  }),
  ...calls('gateway', V1, {
    'GET /health': { summary: 'Health of the gateway and every service', ...PLATFORM_HEALTH },
    'GET /ready': { summary: 'The same as /health (for probes)', ...PLATFORM_HEALTH },
    'GET /source': {
      summary: "The platform's source code (AGPL-3.0 § 13), the public site's footer link",
      description:
        'Leads to SOURCE_URL (by default the repository the root package.json names). Where the operator set none, answers a note in German and Ukrainian that the platform is free software and whom to ask.',
      access: 'public',
      ok: {
        status: 302,
        description: 'to the source code',
        schema: z.string(),
        contentType: 'text/plain',
        headers: z.object({ location: z.url() }),
      },
      also: { 200: 'no SOURCE_URL set: the note' },
    },
    'GET /openapi.json': {
      summary: 'This document',
      access: 'public',
      ok: { description: 'the OpenAPI document', schema: z.record(z.string(), z.unknown()) },
    },
  }),
  ...calls('gateway', '', {
    // every service (inside the deployment: probes and Prometheus)
    'GET /health': {
      summary: 'Liveness of a service or the gateway',
      access: 'internal',
      ok: { description: 'the process answers', schema: answers.serviceHealthAnswer },
    },
    'GET /ready': {
      summary: 'Readiness: the database answers and the process is not shutting down',
      access: 'internal',
      ok: { description: 'ready', schema: answers.serviceReadyAnswer },
      also: { 503: 'not ready, or shutting down' },
    },
    'GET /metrics': {
      summary: 'Prometheus metrics, on the metrics port of every process (METRICS_PORT, 9464)',
      access: 'internal',
      ok: { description: 'metrics', schema: z.string(), contentType: 'text/plain' },
    },
  }),
];

// ---- the document ---------------------------------------------------------------------------

const BODY_CODES: ErrorCode[] = [
  'INVALID_JSON',
  'BAD_REQUEST',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
];

/** Every error code an operation may answer, the common ones included. */
export function errorCodesOf(op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(op.errors ?? []);
  codes.add('INTERNAL');
  if (op.service !== 'gateway' && (op.path.startsWith(V1) || op.path.startsWith('/media/'))) {
    // a token that is sent is checked on every call, public or not
    codes.add('TOKEN_INVALID').add('TOKEN_EXPIRED');
    codes.add('SERVICE_UNAVAILABLE'); // the gateway, when the service does not answer
    // shed under load, at once with Retry-After (gateway or service); an error on the way
    codes.add('SERVICE_BUSY').add('BAD_GATEWAY');
  }
  if (
    op.access === 'signed-in' ||
    op.access === 'staff' ||
    op.access === 'admin' ||
    op.access === 'referrer' ||
    op.access === 'referrer-only'
  )
    codes.add('AUTH_REQUIRED');
  // a service's own credential, and a caller the route lists (InternalCallers)
  if (op.path.startsWith('/internal/')) codes.add('AUTH_REQUIRED').add('FORBIDDEN');
  if (
    op.access === 'staff' ||
    op.access === 'admin' ||
    op.access === 'referrer' ||
    op.access === 'referrer-only'
  )
    codes.add('FORBIDDEN');
  if (op.params || op.query || op.body || op.multipart) codes.add('VALIDATION_FAILED');
  if (op.body || op.multipart) BODY_CODES.forEach((c) => codes.add(c));
  if (op.rateLimited) codes.add('RATE_LIMITED');
  return [...codes];
}

const ROLE_NOTE: Record<Access, string> = {
  public: 'Anyone.',
  'public-staff-more': 'Anyone; staff (with a token) see archived lots too.',
  'signed-in': 'A signed-in user (bearer token): staff, or a referrer for its own account.',
  referrer:
    "A partner agency's referrer (bearer token), for its own agency's families only; admins and volunteers read every agency's (issue 44).",
  'referrer-only':
    "A partner agency's referrer (bearer token) only: staff get 403 (a referral belongs to an agency).",
  staff: 'Staff: admin or volunteer (bearer token).',
  admin: 'Administrators only (bearer token).',
  internal:
    "Inside the deployment only; the gateway does not route it. An /internal route takes the calling service's own credential (HTTP Basic: its name and INTERNAL_SECRET) and only from the services x-callers lists.",
  'upload-token':
    "Anyone with the donation's upload token in X-Donation-Token (no account); a bearer token that is sent is checked too.",
  'provider-signed':
    'The messaging provider: X-Hub-Signature-256 (WhatsApp) or X-Twilio-Signature (SMS) over the raw body; anything else 403.',
};

const ROLES: Partial<Record<Access, string[]>> = {
  'signed-in': ['admin', 'volunteer', 'referrer'],
  staff: ['admin', 'volunteer'],
  referrer: ['referrer', 'admin', 'volunteer'],
  'referrer-only': ['referrer'],
  admin: ['admin'],
};

function security(op: Operation): Record<string, string[]>[] | undefined {
  const access = op.access;
  if (op.path.startsWith('/internal/')) return [{ internalCaller: [] }];
  if (access === 'public' || access === 'internal') return [];
  if (access === 'upload-token') return [{ donationToken: [] }];
  if (access === 'provider-signed') return [{ providerSignature: [] }];
  if (access === 'public-staff-more') return [{}, { bearerAuth: [] }];
  return [{ bearerAuth: [] }];
}

function operationObject(op: Operation): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {
    [String(op.ok.status ?? 200)]: {
      description: op.ok.description,
      ...(op.ok.schema
        ? { content: { [op.ok.contentType ?? 'application/json']: { schema: op.ok.schema } } }
        : {}),
      ...(op.ok.headers ? { headers: op.ok.headers } : {}),
    },
  };
  for (const extra of op.also ?? []) {
    responses[String(extra.status)] = {
      description: extra.description,
      content: { [op.ok.contentType ?? 'application/json']: { schema: op.ok.schema } },
    };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(op)) {
    const status = op.statuses?.[code] ?? Errors[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: codes.join(', '),
      content: { 'application/json': { schema: answers.errorSchema(codes) } },
    };
  }
  const requestParams =
    op.params || op.query || op.headers
      ? {
          ...(op.params ? { path: op.params } : {}),
          ...(op.query ? { query: op.query } : {}),
          ...(op.headers ? { header: op.headers } : {}),
        }
      : undefined;
  const requestBody = op.body
    ? { required: true, content: { 'application/json': { schema: op.body } } }
    : op.multipart
      ? { required: true, content: { 'multipart/form-data': { schema: op.multipart } } }
      : undefined;
  return {
    operationId: operationId(op),
    summary: op.summary,
    description: [op.description, ROLE_NOTE[op.access]].filter(Boolean).join('\n\n'),
    tags: [op.service],
    security: security(op),
    ...(ROLES[op.access] ? { 'x-roles': ROLES[op.access] } : {}),
    ...(op.access === 'internal' ? { 'x-internal': true } : {}),
    ...(op.path.startsWith('/internal/')
      ? {
          'x-callers':
            InternalCallers[`${op.method.toUpperCase()} ${op.path}` as InternalRoute]?.callers,
        }
      : {}),
    ...(op.rateLimited ? { 'x-rate-limited': true } : {}),
    ...(requestParams ? { requestParams } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: responses as ZodOpenApiOperationObject['responses'],
  };
}

/** e.g. get /api/v1/lots/{id}/photos → getLotsIdPhotos */
function operationId(op: Operation): string {
  const words = op.path
    .replace(/^\/api\/v1\//, '/')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return `${op.method}${words.join('')}`;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * The OpenAPI 3.1 document. `internal: true` adds the calls that stay inside the deployment
 * (snapshots, probes, metrics); the gateway publishes the document without them.
 */
export function createOpenApiDocument(opts: { internal?: boolean } = {}): OpenApiDocument {
  const paths: Record<string, Record<string, ZodOpenApiOperationObject>> = {};
  for (const op of operations) {
    if (op.access === 'internal' && !opts.internal) continue;
    (paths[op.path] ??= {})[op.method] = operationObject(op);
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Möbelbrücke API',
      version: '1.0.0',
      description: [
        'The HTTP API of the Möbelbrücke platform (donated furniture for families in need), as the gateway serves it.',
        'Errors are `{success: false, code, message, detail}`: `code` is stable, `message` is German or Ukrainian after `Accept-Language` (or `?lang=`), `detail` repeats the message or, for 422, lists the field errors `[{loc, msg, type}]`.',
        'Staff calls take `Authorization: Bearer <access token>` from POST /api/v1/auth/login.',
      ].join('\n\n'),
      license: { name: 'AGPL-3.0-or-later', identifier: 'AGPL-3.0-or-later' },
    },
    servers: [{ url: '/' }],
    tags: ApiServiceNames.map((name) => ({ name, description: `${name} service` })),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The access token of POST /api/v1/auth/login (RS256, 15 minutes).',
        },
        providerSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Hub-Signature-256',
          description:
            "A messaging provider's signature over the raw body: X-Hub-Signature-256 (sha256=HMAC-SHA256 with WHATSAPP_APP_SECRET) or, for SMS, X-Twilio-Signature (Twilio's scheme with SMS_AUTH_TOKEN).",
        },
        internalCaller: {
          type: 'http',
          scheme: 'basic',
          description:
            "A service's own credential for another's /internal routes: its name and its INTERNAL_SECRET; the callee keeps the secret's SHA-256 digest (INTERNAL_CALLERS).",
        },
        donationToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Donation-Token',
          description:
            'The upload_token of POST /api/v1/donations/ (a donor adds photos for one hour).',
        },
      },
    },
    paths,
  }) as unknown as OpenApiDocument;
}
