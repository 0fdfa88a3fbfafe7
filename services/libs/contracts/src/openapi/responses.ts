import { z } from 'zod';
import { Errors, type ErrorCode } from '../errors';
import { userAnswer } from '../api/auth';
import { eligibilitySchema, queueInfoSchema } from '../api/applications';
import { successData } from '../api/common';
import {
  failedMessagesAnswer,
  messageListAnswer,
  messageSchema,
  messageStatusAnswer,
  optOutAnswer,
} from '../api/messages';

/*
 * The answers of every call as zod schemas, for the OpenAPI document (./document.ts) and for the
 * tests that check every answer against it. Most live next to their requests in ../api, where
 * the answer types are inferred from them; the rest (errors, health) are here.
 */

export { tokenAnswer, userAnswer, usersPageAnswer } from '../api/auth';
export { agenciesAnswer, agencySchema as agencyAnswer, invitationAnswer } from '../api/partners';
export {
  referralCreatedAnswer,
  referralSchema as referralAnswer,
  referralsAnswer,
} from '../api/referrals';
export {
  categoriesAnswer,
  categoryAnswer,
  categoryAnswerSchema,
  deletedAnswer,
  lotAnswerSchema,
  lotCountAnswer,
  lotSearchAnswer,
} from '../api/catalog';
export { lotSnapshotPageAnswer, revocationsPageAnswer } from '../api/internal';
export {
  applicationAnswer,
  applicationCreatedAnswer,
  applicationsPageAnswer,
  applicationStatsAnswer,
  statusCheckAnswer,
  wishAnswer,
  wishCreatedAnswer,
  wishesPageAnswer,
  wishMatchesAnswer,
  wishNotifiedAnswer,
} from '../api/applications';
export { photoAnswer, photoDeleteAnswer, photoListAnswer, photoUploadAnswer } from '../api/media';
export {
  activityEntryAnswer,
  activityPageAnswer,
  activityStatsAnswer,
  activityUsersAnswer,
} from '../api/activity';
export { impactAnswer } from '../api/impact';
export {
  bookingAnswer,
  dayPlanAnswer,
  dayPlanStopSchema,
  handoverFamilyAnswer,
  locationAnswer,
  locationListAnswer,
  slotAnswer,
  slotListAnswer,
} from '../api/handovers';
export { prepareMessageAnswer } from '../api/messages';
export {
  handoverScanAnswer,
  scanAnswer,
  stockCountAnswer,
  storagePlaceAnswer,
  storagePlaceListAnswer,
} from '../api/warehouse';
/** The message routes answer `{success: true, data}` (issue 30). */
export const messageListPage = successData(messageListAnswer);
export const failedMessagesPage = successData(failedMessagesAnswer);
export const messageStatusPage = successData(messageStatusAnswer);
export const optOutPage = successData(optOutAnswer);
export const messageResendAnswer = successData(z.object({ message: messageSchema }));
export {
  donorErasureAnswer,
  donorRecordsAnswer,
  privacyErasureAnswer,
  privacyLookupAnswer,
  privacyRecordsAnswer,
} from '../api/privacy';
export {
  donationAnswer,
  donationCreatedAnswer,
  donationLookupAnswer,
  donationPhotoAnswer,
  donationsPageAnswer,
} from '../api/donations';
export {
  adoptedPhotosAnswer,
  donationContactsAnswer,
  donationPhotoClaimAnswer,
  donationPhotoFinishAnswer,
  donationPhotoReleaseAnswer,
} from '../api/internal';

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

export const passwordChangedAnswer = z
  .object({
    success: z.literal(true),
    access_token: z.string(),
    token_type: z.literal('bearer'),
    expires_in: z.number().int(),
    user: userAnswer,
  })
  .meta({ description: 'a fresh token for this device; every other session is closed' });
export const successAnswer = z.object({ success: z.literal(true) });

// ---- applications -------------------------------------------------------------------------------

export const eligibilityAnswer = successData(eligibilitySchema);
export const queueInfoAnswer = successData(queueInfoSchema);

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
  /** the platform's version (the root package.json's, CHANGELOG.md) */
  version: z.string(),
  services: z.record(
    z.string(),
    // public: no checks, latencies or error texts (each service's own /ready has them)
    z.object({
      status: z.enum(['up', 'down']),
      ready: z.boolean(),
      /** how many of the service's processes are ready (make run REPLICAS=N: up to N) */
      instances: z.number().int().min(0),
    }),
  ),
});
