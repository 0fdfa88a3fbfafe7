import { z } from 'zod';
import { actorSchema } from '../events';
import { phoneSchema } from './common';

/*
 * Data protection (issue 15): staff look up everything stored about a phone number, download it
 * and erase it. The phone travels in the POST body, never in a URL.
 */

/** POST /privacy/lookup and /privacy/erase. */
export const privacyPhoneSchema = z.object({ phone: phoneSchema('invalid_phone') });

/**
 * POST /privacy/records: what the notification service keeps of these applications and wishes,
 * and of a donor's donations (wave 3).
 */
export const privacyRecordsSchema = z.object({
  application_ids: z.array(z.number().int().positive()).max(1000).default([]),
  wish_ids: z.array(z.number().int().positive()).max(1000).default([]),
  donation_ids: z.array(z.number().int().positive()).max(1000).default([]),
  /** the numbers looked up (E.164): the opt-outs kept of them (issue 30) */
  phones: z
    .array(z.string().regex(/^\+\d{6,16}$/))
    .max(20)
    .default([]),
});
/** The body as the service reads it (every list present). */
export type PrivacyRecordsQuery = z.infer<typeof privacyRecordsSchema>;
/** The body as a client sends it (a list left out is empty). */
export type PrivacyRecordsRequest = z.input<typeof privacyRecordsSchema>;

/** A stored record as it is (every field the service keeps, ISO dates). */
const storedRecord = z.record(z.string(), z.unknown());
export type StoredRecord = z.infer<typeof storedRecord>;

/**
 * The applications service's part: the phone's applications (with notes) and wishes, and the
 * donations the catalog keeps of the number (asked by the applications service).
 */
export const privacyLookupAnswer = z.object({
  /** the number as stored (E.164) */
  phone: z.string(),
  applications: z.array(storedRecord),
  wishes: z.array(storedRecord),
  donations: z.array(storedRecord),
  /** the handovers (booked slots) of the number's applications, as stored (wave 3) */
  handovers: z.array(storedRecord).optional(),
});
export type PrivacyLookup = z.infer<typeof privacyLookupAnswer>;

/** The notification service's part: mail records and activity entries of those ids. */
export const privacyRecordsAnswer = z.object({
  mails: z.array(storedRecord),
  activity: z.array(storedRecord),
  /** WhatsApp and SMS messages (issue 30); absent from earlier versions */
  messages: z.array(storedRecord).optional(),
  /** the numbers' opt-outs (channel, since when) */
  opt_outs: z.array(storedRecord).optional(),
});
export type PrivacyRecords = z.infer<typeof privacyRecordsAnswer>;

/** What an erasure changed (the other services follow through the event). */
export const privacyErasureAnswer = z.object({
  applications: z.number().int(),
  wishes: z.number().int(),
  donations: z.number().int(),
});
export type PrivacyErasure = z.infer<typeof privacyErasureAnswer>;

/*
 * The catalog's part, asked by the applications service (internal, never routed by the gateway):
 *
 * POST {CATALOG_URL}/internal/privacy/donations        {phone}         → {donations} as stored
 * POST {CATALOG_URL}/internal/privacy/donations/erase  {phone, actor}  → {erased, open}
 */
export const donorPhoneSchema = z.object({ phone: z.string().regex(/^\+\d{6,16}$/) });
export const donorRecordsAnswer = z.object({ donations: z.array(storedRecord) });
export type DonorRecords = z.infer<typeof donorRecordsAnswer>;

export const donorErasureSchema = donorPhoneSchema.extend({
  /** the administrator who erases */
  actor: actorSchema.nullable(),
});
/** erased: the closed donations erased now; open: those left (submitted or accepted) */
export const donorErasureAnswer = z.object({ erased: z.number().int(), open: z.number().int() });
export type DonorErasure = z.infer<typeof donorErasureAnswer>;
