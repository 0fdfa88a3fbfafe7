import { z } from 'zod';
import { HandoverOutcomes, HandoverStatuses, SlotKinds } from '../enums';
import { Limits } from '../limits';
import { calendarDaySchema } from './applications';
import { idParamSchema, localizedSchema } from './common';

/*
 * Handover (issue 29): staff keep pickup locations and slots; an approved family books its own
 * pickup or delivery slot through a personal link; staff book donor pickups; a day plan for the
 * team; "done" completes the application (or collects the donation), "absent" feeds the lapse.
 * The applications service owns all of it (it owns approvals and pickup dates).
 *
 * - POST   /api/v1/locations/                       staff (admin): a pickup location
 * - GET    /api/v1/locations/                       staff
 * - PATCH  /api/v1/locations/{id}                   staff (admin)
 * - GET    /api/v1/locations/{id}/calendar.ics?key= a location's iCal feed (the key is the feed's secret)
 * - POST   /api/v1/slots/                           staff: one slot → 201 {…, booked: 0}
 * - POST   /api/v1/slots/pattern                    staff: weekly pattern over a date range → 201 {slots}
 * - GET    /api/v1/slots/?from=&to=&location_id=&kind=   staff
 * - DELETE /api/v1/slots/{id}                       staff (409 while booked)
 * - GET    /api/v1/handovers/{token}                the family (no account) → what it may book
 * - POST   /api/v1/handovers/{token}/booking        the family: book or change → 200 {booking}
 * - DELETE /api/v1/handovers/{token}/booking        the family: cancel → 204
 * - GET    /api/v1/handovers/{token}/calendar.ics   the family's booking as an .ics file
 * - GET    /api/v1/handovers/?date=YYYY-MM-DD       staff: the day plan
 * - POST   /api/v1/handovers/                       staff: a donor pickup {donation_id, slot_id}
 * - PUT    /api/v1/handovers/order                  staff: the day plan's order {date, ids}
 * - PATCH  /api/v1/handovers/{id}                   staff: {outcome: done | absent, note?}
 * - POST   /api/v1/handovers/{id}/scan              staff: the item before "erledigt" (api/warehouse.ts)
 *
 * Times are ISO 8601 with an offset; days (`date`, `from`/`to` as days) are days in
 * Europe/Berlin. An unknown, cancelled-application or ended token answers 404
 * (HANDOVER_NOT_FOUND) and says nothing about any family.
 */

const int = () => z.number().int();
const isoTime = z.iso.datetime({ offset: true, message: 'invalid_date' });

/** A required text: a missing or empty value is "required". */
const requiredText = (max: number) =>
  z.string('required').trim().min(1, { message: 'required', abort: true }).max(max);

/** The part of a location a family and a driver see. */
export const locationPlaceSchema = z.object({
  name: z.string(),
  address: z.string(),
  city: z.string(),
});
export type LocationPlace = z.infer<typeof locationPlaceSchema>;

/** POST /locations/ (admin). `notes`: opening notes ("Hintereingang, 2. Stock, klingeln"). */
export const locationCreateSchema = z.object({
  name: requiredText(Limits.nameMax),
  address: requiredText(Limits.addressMax),
  city: requiredText(Limits.cityMax),
  notes: z
    .string()
    .trim()
    .max(Limits.locationNotesMax)
    .nullish()
    .transform((v) => v || null),
});
export type LocationCreate = z.infer<typeof locationCreateSchema>;
export const locationPatchSchema = locationCreateSchema
  .extend({ active: z.boolean('invalid_type') })
  .partial();
export type LocationPatch = z.infer<typeof locationPatchSchema>;

export const locationAnswer = locationPlaceSchema.extend({
  id: int(),
  notes: z.string().nullable(),
  /** an inactive location offers no new slots; its slots and history stay */
  active: z.boolean(),
  /** staff only: the location's iCal feed (a secret URL for staff calendars) */
  calendar_url: z.string(),
  created_at: z.string(),
});
export type LocationAnswer = z.infer<typeof locationAnswer>;
export const locationListAnswer = z.object({ locations: z.array(locationAnswer) });

/** POST /slots/: `ends_at` after `starts_at`; capacity 1..slotCapacityMax. */
export const slotCreateSchema = z
  .object({
    location_id: int().positive(),
    kind: z.enum(SlotKinds, 'invalid_value'),
    starts_at: isoTime,
    ends_at: isoTime,
    capacity: z.number('required').int().min(1).max(Limits.slotCapacityMax),
  })
  .refine((v) => Date.parse(v.ends_at) > Date.parse(v.starts_at), {
    message: 'ends_before_start',
    path: ['ends_at'],
  });
export type SlotCreate = z.infer<typeof slotCreateSchema>;

const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'invalid_time');

/**
 * POST /slots/pattern: a slot on each chosen weekday (1 = Monday … 7 = Sunday) between `from`
 * and `to` (days, inclusive), from `start_time` to `end_time` (local time in Europe/Berlin);
 * at most slotPatternMax slots (422 otherwise).
 */
export const slotPatternSchema = z
  .object({
    location_id: int().positive(),
    kind: z.enum(SlotKinds, 'invalid_value'),
    from: calendarDaySchema,
    to: calendarDaySchema,
    weekdays: z.array(z.number().int().min(1).max(7)).min(1).max(7),
    start_time: clockTime,
    end_time: clockTime,
    capacity: z.number('required').int().min(1).max(Limits.slotCapacityMax),
  })
  .refine((v) => v.to >= v.from, { message: 'ends_before_start', path: ['to'] })
  .refine((v) => v.end_time > v.start_time, { message: 'ends_before_start', path: ['end_time'] });
export type SlotPattern = z.infer<typeof slotPatternSchema>;

export const slotAnswer = z.object({
  id: int(),
  location_id: int(),
  kind: z.enum(SlotKinds),
  starts_at: z.string(),
  ends_at: z.string(),
  capacity: int(),
  booked: int(),
});
export type SlotAnswer = z.infer<typeof slotAnswer>;
export const slotListAnswer = z.object({ slots: z.array(slotAnswer) });

/** GET /slots/: `from`/`to` are days (inclusive) or times; default from today, 14 days. */
export const slotListQuerySchema = z.object({
  from: z.union([calendarDaySchema, isoTime]).optional(),
  to: z.union([calendarDaySchema, isoTime]).optional(),
  location_id: z.coerce.number().int().positive().optional(),
  kind: z.enum(SlotKinds, 'invalid_value').optional(),
});

/** A family's booking, as the family sees it. */
export const familyBookingSchema = z.object({
  slot_id: int(),
  kind: z.enum(SlotKinds),
  starts_at: z.string(),
  ends_at: z.string(),
  location: locationPlaceSchema,
  /** the last moment the family may change or cancel it (HANDOVER_CHANGE_HOURS before) */
  changeable_until: z.string(),
});
export type FamilyBooking = z.infer<typeof familyBookingSchema>;

/** GET /handovers/{token}: what the family sees (in its language, the lot's name in both). */
export const handoverFamilyAnswer = z.object({
  application_id: int(),
  lot: z.object({ id: int(), name: localizedSchema }),
  /** the last day to pick the lot up (YYYY-MM-DD) */
  pickup_by: z.string().nullable(),
  booking: familyBookingSchema.nullable(),
  /** free slots before the pickup date (delivery only when the family asked for delivery help) */
  slots: z.array(
    z.object({
      id: int(),
      kind: z.enum(SlotKinds),
      starts_at: z.string(),
      ends_at: z.string(),
      location: locationPlaceSchema,
      free: int(),
    }),
  ),
  /** the family's language (the page opens in it) */
  language: z.enum(['de', 'uk']),
});
export type HandoverFamilyAnswer = z.infer<typeof handoverFamilyAnswer>;

/** The family's token in the path: long random text, never an id. */
export const handoverTokenParamsSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/),
});

/** POST /handovers/{token}/booking: book a slot, or move the booking to another. */
export const bookingSchema = z.object({ slot_id: z.number('required').int().positive() });
export const bookingAnswer = z.object({ booking: familyBookingSchema });

/** One stop of the day plan. `family`: the family, or for a donor pickup the donor. */
export const dayPlanStopSchema = z.object({
  id: int(),
  application_id: int().nullable(),
  donation_id: int().nullable(),
  lot: z.object({ id: int(), name: localizedSchema }).nullable(),
  kind: z.enum(SlotKinds),
  slot_id: int(),
  starts_at: z.string(),
  ends_at: z.string(),
  location: locationPlaceSchema.extend({ id: int() }),
  family: z.object({
    name: z.string(),
    phone: z.string(),
    /** where a delivery or a donor pickup goes (null for a pickup at the location) */
    address: z.string().nullable(),
    city: z.string().nullable(),
  }),
  status: z.enum(HandoverStatuses),
  /** the day plan's order (staff may change it) */
  position: int(),
  note: z.string().nullable(),
  /**
   * the last scan of the item (issue 45; null: not scanned): the booked lot (match), or another
   * one whose mismatch the driver confirmed
   */
  item_check: z
    .object({
      code: z.string(),
      scanned_lot_id: int().nullable(),
      match: z.boolean(),
      confirmed: z.boolean(),
    })
    .nullable()
    .optional(),
});
export type DayPlanStop = z.infer<typeof dayPlanStopSchema>;
export const dayPlanAnswer = z.object({ handovers: z.array(dayPlanStopSchema) });
export const dayPlanQuerySchema = z.object({ date: calendarDaySchema });

/** POST /handovers/ (staff): a donor pickup for an accepted donation. */
export const donorPickupSchema = z.object({
  donation_id: z.number('required').int().positive(),
  slot_id: z.number('required').int().positive(),
});

/** PUT /handovers/order (staff): the day's stops in the order the team drives them. */
export const dayPlanOrderSchema = z.object({
  date: calendarDaySchema,
  ids: z.array(z.number().int().positive()).min(1).max(500),
});

/** PATCH /handovers/{id} (staff): what happened at the stop. */
export const handoverOutcomeSchema = z.object({
  outcome: z.enum(HandoverOutcomes, 'invalid_value'),
  note: z
    .string()
    .trim()
    .max(Limits.notesMax)
    .nullish()
    .transform((v) => v || null),
});
export type HandoverOutcomeInput = z.infer<typeof handoverOutcomeSchema>;

export const handoverIdParamsSchema = idParamSchema;

/**
 * GET /locations/{id}/calendar.ics?key=: the feed's secret, in the query (what a calendar app
 * can subscribe to) or in the X-Feed-Key header (what a script should send: a header is not
 * kept in proxies' and browsers' histories); one of the two is required (404 without).
 */
export const locationFeedQuerySchema = z.object({ key: z.string().min(1).max(200).optional() });
export const locationFeedHeadersSchema = z.object({
  'x-feed-key': z.string().min(1).max(200).optional(),
});
export const FEED_KEY_HEADER = 'x-feed-key';
