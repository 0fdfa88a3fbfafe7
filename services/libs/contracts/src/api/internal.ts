import { z } from 'zod';
import { DonationStatuses, Roles } from '../enums';
import { lotSnapshotSchema } from '../events';
import { Limits } from '../limits';
import type { ServiceName } from '../topology';
import { photoUrlsSchema } from './media';

/**
 * Who may call each internal route, and which service serves it: the one declaration. The callee
 * refuses every other caller (401 AUTH_REQUIRED without a valid credential of a service, 403
 * FORBIDDEN for a service not listed; platform internal-calls.ts), the OpenAPI document names the
 * callers (`x-callers`), and the NetworkPolicies' truth table opens the callee's port to exactly
 * these services (infra/test/network-policy.test.ts).
 *
 * A caller proves who it is with HTTP Basic authentication: its service name and its own secret
 * (INTERNAL_SECRET), which the callee checks against the SHA-256 digests it holds
 * (INTERNAL_CALLERS); docs/security.md, "Service-to-service calls".
 */
export const InternalCallers = {
  'GET /internal/revocations': {
    service: 'auth',
    callers: ['auth', 'catalog', 'applications', 'media', 'notification'],
  },
  'GET /internal/lots/snapshot': { service: 'catalog', callers: ['applications', 'media'] },
  'POST /internal/donations/{id}/items/{itemId}/photo-claims': {
    service: 'catalog',
    callers: ['media'],
  },
  'POST /internal/donations/{id}/items/{itemId}/photo-claims/{photoId}': {
    service: 'catalog',
    callers: ['media'],
  },
  'DELETE /internal/donations/{id}/items/{itemId}/photo-claims/{photoId}': {
    service: 'catalog',
    callers: ['media'],
  },
  'POST /internal/donations/contacts': { service: 'catalog', callers: ['applications'] },
  'POST /internal/privacy/donations': { service: 'catalog', callers: ['applications'] },
  'POST /internal/privacy/donations/erase': { service: 'catalog', callers: ['applications'] },
  'POST /internal/lots/{id}/adopted-photos': { service: 'media', callers: ['catalog'] },
} as const satisfies Record<string, { service: ServiceName; callers: readonly ServiceName[] }>;
export type InternalRoute = keyof typeof InternalCallers;

/**
 * Internal calls between services (never routed by the gateway).
 *
 * GET {CATALOG_URL}/internal/lots/snapshot?after_id=0&limit=500 → LotSnapshotPage, lots ordered by
 * id, including archived lots; services that keep a read model of lots rebuild it from here when
 * it is empty at start, then follow the lot events.
 */
export const LOT_SNAPSHOT_PATH = '/internal/lots/snapshot';

export const lotSnapshotPageAnswer = z.object({
  lots: z.array(lotSnapshotSchema),
  /** pass as after_id for the next page; null after the last page */
  next_after_id: z.number().int().nullable(),
});
export type LotSnapshotPage = z.infer<typeof lotSnapshotPageAnswer>;

/*
 * A donor's photo upload (media) asks the catalog, which keeps the donation, for a place among
 * the item's photos before it stores anything, and reports the stored photo or gives the place
 * back (issue 28, docs/decisions.md "Donated photos"):
 *
 * POST   {CATALOG_URL}/internal/donations/{id}/items/{itemId}/photo-claims            {token, photo_id}
 * POST   {CATALOG_URL}/internal/donations/{id}/items/{itemId}/photo-claims/{photoId}  the stored photo
 * DELETE {CATALOG_URL}/internal/donations/{id}/items/{itemId}/photo-claims/{photoId}  give it back
 */

/** A donor photo's id: a uuid chosen by the media service, also the name of its objects. */
const photoUuid = z.uuid();

export const donationPhotoClaimParamsSchema = z.object({
  id: z.coerce.number().int().positive(),
  itemId: z.coerce.number().int().positive(),
});
export const donationPhotoParamsSchema = donationPhotoClaimParamsSchema.extend({
  photoId: photoUuid,
});

export const donationPhotoClaimSchema = z.object({
  /** the donation's upload token as the donor sent it */
  token: z.string().max(200),
  photo_id: photoUuid,
});
export type DonationPhotoClaimRequest = z.infer<typeof donationPhotoClaimSchema>;

/**
 * claimed: store it; token_invalid: no upload token, a wrong or an expired one, no such
 * donation, or the donation is no longer open for photos; not_found: the token is the
 * donation's but it has no such item; full: the item has its photos (or claims for them) already.
 */
export const donationPhotoClaimAnswer = z.object({
  outcome: z.enum(['claimed', 'token_invalid', 'not_found', 'full']),
  /** photos an item may have */
  max: z.number().int(),
});
export type DonationPhotoClaim = z.infer<typeof donationPhotoClaimAnswer>;

/** A stored photo of a donated item (what the lot made of it adopts). */
export const donationStoredPhotoSchema = z.object({
  id: photoUuid,
  urls: photoUrlsSchema,
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
});
export type DonationStoredPhoto = z.infer<typeof donationStoredPhotoSchema>;

export const donationPhotoFinishSchema = donationStoredPhotoSchema.omit({ id: true });

/** stored: the item has the photo; gone: its claim is gone (the donation was erased meanwhile). */
export const donationPhotoFinishAnswer = z.object({ outcome: z.enum(['stored', 'gone']) });
/**
 * released: the claim was held and is given back; stored: the item has the photo (its objects
 * must stay: an upload whose process died after reporting it)
 */
export const donationPhotoReleaseAnswer = z.object({ released: z.boolean(), stored: z.boolean() });
export type DonationPhotoRelease = z.infer<typeof donationPhotoReleaseAnswer>;

/*
 * A lot made of a donated item takes the item's photos (issue 28): the catalog asks the media
 * service to copy them into the lot (objects under lots/{id}/, photo records, photo.uploaded), so
 * that they live, are listed and are deleted like photos staff upload.
 *
 * POST {MEDIA_URL}/internal/lots/{id}/adopted-photos  → the lot's photos, in the item's order
 */
export const adoptedPhotosSchema = z.object({
  /** the staff member who makes the lot (the photos' uploader) */
  actor: z.object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    role: z.enum(Roles),
  }),
  photos: z.array(donationStoredPhotoSchema).max(Limits.photosPerLot),
});
export type AdoptedPhotosRequest = z.infer<typeof adoptedPhotosSchema>;

export const adoptedPhotosAnswer = z.object({
  photos: z.array(z.object({ photo_id: z.number().int(), urls: photoUrlsSchema })),
});
export type AdoptedPhotos = z.infer<typeof adoptedPhotosAnswer>;

/*
 * Donor pickups (issue 29): the applications service keeps the slots and the day plan, the
 * catalog the donors. It asks for what a driver needs of the donations of a day plan (and the
 * status before it books a pickup) at request time; nothing of the donor is copied.
 *
 * POST {CATALOG_URL}/internal/donations/contacts  {ids}  → {donations}
 */
export const donationContactsSchema = z.object({
  ids: z.array(z.number().int().positive()).min(1).max(500),
});
export const donationContactsAnswer = z.object({
  /** the donations that exist (unknown ids are left out) */
  donations: z.array(
    z.object({
      id: z.number().int(),
      status: z.enum(DonationStatuses),
      donor_name: z.string(),
      donor_phone: z.string(),
      address: z.string(),
      city: z.string(),
      floor: z.number().int().nullable(),
      has_elevator: z.boolean().nullable(),
      /** the items' descriptions (what the driver collects) */
      items: z.array(z.string()),
    }),
  ),
});
export type DonationContacts = z.infer<typeof donationContactsAnswer>;

/*
 * Sessions ended recently (issue 32): a process that starts, or whose broker connection came
 * back, may have missed the user.logged_out events sent meanwhile; it loads the sessions the auth
 * service ended within the access tokens' lifetime (and a margin) and refuses their tokens.
 *
 * GET {AUTH_URL}/internal/revocations?since=<ISO time> → RevocationsPage
 */
export const REVOCATIONS_PATH = '/internal/revocations';
export const revocationsQuerySchema = z.object({ since: z.iso.datetime({ offset: true }) });
export const revocationsPageAnswer = z.object({
  sessions: z.array(z.object({ sid: z.string(), revoked_at: z.string() })),
  /** more than the page holds ended since then: the rest is older than the last one here */
  truncated: z.boolean(),
});
export type RevocationsPage = z.infer<typeof revocationsPageAnswer>;
