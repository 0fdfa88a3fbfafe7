import { Schema, type Connection } from 'mongoose';
import {
  ApplicationStatuses,
  ApprovalFailureReasons,
  HandoverStatuses,
  Languages,
  LotStatuses,
  SlotKinds,
  WishStatuses,
  type Actor,
  type HandoverStatus,
  type SlotKind,
  type Wish,
} from '@furniture/contracts';
import { outboxPlugin } from '@furniture/platform';
import type { HandoverFollowUp, ItemCheck } from '../domain/handover-records';
import type {
  ApplicationRecord,
  ApprovalRecord,
  NoteOpen,
  ReferralRecord,
} from '../domain/records';

const localized = { de: { type: String, default: '' }, uk: { type: String, default: '' } };

/** An application as stored: the domain's record with dates as dates. */
export interface ApplicationDoc extends Omit<
  ApplicationRecord,
  | 'approval'
  | 'rejected_for'
  | 'request_key'
  | 'pickup_by'
  | 'pickup_reminded_at'
  | 'pickup_overdue_at'
  | 'next_in_queue_after'
  | 'handover_seed'
  | 'approved_at'
  | 'note_open'
  | 'referral'
  | 'created_at'
  | 'updated_at'
> {
  note_open?: NoteOpen | null;
  /** issue 44: who referred the family (absent before) */
  referral?:
    | (Omit<ReferralRecord, 'expires_at' | 'expired_at'> & {
        expires_at: Date;
        expired_at?: Date | null;
      })
    | null;
  approval?: ApprovalDoc | null;
  rejected_for?: number | null;
  request_key?: string | null;
  pickup_by?: string | null;
  pickup_reminded_at?: Date | null;
  pickup_overdue_at?: Date | null;
  next_in_queue_after?: number | null;
  /**
   * approved (issue 29): the seed of the family's booking link and its token's SHA-256 digest
   * (the token itself is never stored: domain/link-secrets.ts)
   */
  handover_seed?: string | null;
  handover_token_hash?: string | null;
  approved_at?: Date | null;
  /** the family's data was erased (privacy.ts): on request or after the retention period */
  erased_at?: Date | null;
  /**
   * the application's ticket in its lot's queue (issue 42): unique per lot, drawn as the lot's
   * highest ticket + 1 by the insert itself; the queue is in ticket order (applications-keys.ts)
   */
  queue_ticket?: number;
  /**
   * the open-application place of its phone this application claimed (`p:<digest>#k`, k up to
   * MAX_OPEN_APPLICATIONS_PER_PHONE), or `a:<id>` once given back: unique (applications-keys.ts)
   */
  phone_slot?: string;
  created_at: Date;
  updated_at: Date;
}

export interface ApprovalDoc extends Omit<ApprovalRecord, 'requested_at' | 'ended_at'> {
  requested_at: Date;
  ended_at: Date | null;
}

/** A wish as stored: the staff's view with dates as dates. */
export interface WishDoc extends Omit<Wish, 'matching_lots' | 'created_at' | 'updated_at'> {
  /** issue 44: who referred the family (absent before and for a family's own wish) */
  referral?:
    | (Omit<ReferralRecord, 'expires_at' | 'expired_at'> & {
        expires_at: Date;
        expired_at?: Date | null;
      })
    | null;
  /** the wisher's data was erased (privacy.ts) */
  erased_at?: Date | null;
  created_at: Date;
  updated_at: Date;
}

const applicationSchema = new Schema<ApplicationDoc>(
  {
    id: { type: Number, required: true, unique: true },
    lot_id: { type: Number, required: true },
    status: { type: String, enum: ApplicationStatuses, required: true },
    applicant_name: { type: String, required: true },
    applicant_phone: { type: String, required: true },
    applicant_phone_raw: { type: String, required: true },
    applicant_whatsapp: { type: String, default: null },
    applicant_email: { type: String, default: null },
    applicant_city: { type: String, required: true },
    applicant_address: { type: String, required: true },
    needs_delivery_help: { type: Boolean, required: true },
    language: { type: String, enum: Languages, required: true },
    lot_name: localized,
    notes: { type: [String], default: [] },
    approval: {
      type: new Schema<ApprovalDoc>(
        {
          state: { type: String, enum: ['requested', 'failed'], required: true },
          requested_at: { type: Date, required: true },
          requested_by: { type: Object, default: null },
          pickup_by: { type: String, default: null },
          note: { type: String, default: null },
          reason: { type: String, enum: [...ApprovalFailureReasons, null], default: null },
          lot_status: { type: String, enum: [...LotStatuses, null], default: null },
          ended_at: { type: Date, default: null },
        },
        { _id: false },
      ),
      default: null,
    },
    rejected_for: { type: Number, default: null },
    request_key: { type: String, default: null },
    pickup_by: { type: String, default: null },
    pickup_reminded_at: { type: Date, default: null },
    pickup_overdue_at: { type: Date, default: null },
    next_in_queue_after: { type: Number, default: null },
    handover_seed: { type: String, default: null },
    handover_token_hash: { type: String, default: null },
    approved_at: { type: Date, default: null },
    note_open: { type: Object, default: null },
    referral: { type: Object, default: null },
    erased_at: { type: Date, default: null },
    queue_ticket: { type: Number },
    phone_slot: { type: String },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: 'applications', versionKey: false },
);
// one application per phone and lot, across processes and replicas
applicationSchema.index({ lot_id: 1, applicant_phone: 1 }, { unique: true });
// one application per queue ticket of a lot and per open place of a phone (issue 42: the queue
// places told and the open applications per phone hold across processes)
applicationSchema.index({ lot_id: 1, queue_ticket: 1 }, { unique: true });
applicationSchema.index({ phone_slot: 1 }, { unique: true });
// a lot's queue (oldest first) and the staff filter by lot and status
applicationSchema.index({ lot_id: 1, status: 1, id: 1 });
// the staff list by status, newest first
applicationSchema.index({ status: 1, id: -1 });
// the status check and the per-phone limit
applicationSchema.index({ applicant_phone: 1, status: 1, id: -1 });
// the pickup-date job: approved applications by their pickup date
applicationSchema.index({ status: 1, pickup_by: 1 });
// the retention job: closed applications by their last change
applicationSchema.index({ status: 1, updated_at: 1 });
// the privacy lookup by WhatsApp number
applicationSchema.index({ applicant_whatsapp: 1 });
// the family's booking page by its token (issue 29)
applicationSchema.index({ handover_token_hash: 1 });
// issue 44: a referral by its number, an agency's referrals newest first
applicationSchema.index({ 'referral.id': 1 });
applicationSchema.index({ 'referral.agency_id': 1, id: -1 });
applicationSchema.plugin(outboxPlugin);

const wishSchema = new Schema<WishDoc>(
  {
    id: { type: Number, required: true, unique: true },
    status: { type: String, enum: WishStatuses, required: true },
    admin_notes: { type: String, default: null },
    applicant_name: { type: String, required: true },
    applicant_whatsapp: { type: String, required: true },
    applicant_whatsapp_raw: { type: String, required: true },
    applicant_email: { type: String, default: null },
    furniture_category: { type: Number, required: true },
    furniture_description: { type: String, required: true },
    language: { type: String, enum: Languages, required: true },
    referral: { type: Object, default: null },
    erased_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: 'wishes', versionKey: false },
);
// issue 44: a referral by its number, an agency's referrals
wishSchema.index({ 'referral.id': 1 });
wishSchema.index({ 'referral.agency_id': 1, id: -1 });
wishSchema.index({ status: 1, id: -1 });
wishSchema.index({ furniture_category: 1, id: -1 });
// the privacy lookup and the retention job
wishSchema.index({ applicant_whatsapp: 1 });
wishSchema.index({ status: 1, updated_at: 1 });
wishSchema.plugin(outboxPlugin);

// ---- handover (issue 29) ----------------------------------------------------------------------

/**
 * A pickup location. Its iCal feed's key is never stored: its seed and the digests of the keys
 * it accepts (the current one; before issue 43 a key stored in clear, kept as its digest).
 */
export interface LocationDoc {
  id: number;
  name: string;
  address: string;
  city: string;
  notes: string | null;
  active: boolean;
  feed_seed: string;
  feed_key_hashes: string[];
  created_at: Date;
  updated_at: Date;
}

/**
 * A slot: `free` places are claimed one at a time by a guarded `$inc` (free > 0) and given back
 * the same way; `booked` moves with it (capacity = free + booked).
 */
export interface SlotDoc {
  id: number;
  location_id: number;
  kind: SlotKind;
  starts_at: Date;
  ends_at: Date;
  /** the local day of starts_at (the office's time zone) */
  day: string;
  capacity: number;
  /**
   * no longer read nor kept (issue 42): a slot's free and booked places are counted from its
   * bookings (handover-seats.ts); written once at creation for a replica of the version before
   * during a rolling upgrade
   */
  free?: number;
  booked?: number;
  created_at: Date;
}

/**
 * A handover: one booked slot of one application or donation. While booked, `active_key`
 * (`application:<id>` or `donation:<id>`) is unique, so each holds at most one booking; once
 * ended it becomes `ended:<id>`. The slot's kind, place and times are copied (a slot may be
 * deleted after); nothing of the family or donor is.
 */
export interface HandoverDoc {
  id: number;
  active_key: string;
  /**
   * the place of its slot a booking holds (issue 42): `s:<slot id>#k`, k up to the slot's
   * capacity, while booked; `h:<id>` once ended. Unique: a slot holds at most its capacity
   * across processes, and the place is taken and given back in the booking's own write
   * (handover-seats.ts)
   */
  seat?: string;
  application_id: number | null;
  donation_id: number | null;
  slot_id: number;
  kind: SlotKind;
  location_id: number;
  starts_at: Date;
  ends_at: Date;
  day: string;
  status: HandoverStatus;
  /** the day plan's order (null: by time) */
  position: number | null;
  /** the outcome's note (may name people: erased with the application, and by retention) */
  note: string | null;
  by: 'family' | 'staff';
  reminded_at: Date | null;
  /** what the outcome still has to do to the application (retried by the check job) */
  follow_up: HandoverFollowUp | null;
  closed_by: Actor | null;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** the last scan of the item (issue 45): a code and lot ids, nothing of the family */
  item_check?: ItemCheck | null;
}

const locationSchema = new Schema<LocationDoc>(
  {
    id: { type: Number, required: true, unique: true },
    name: { type: String, required: true },
    address: { type: String, required: true },
    city: { type: String, required: true },
    notes: { type: String, default: null },
    active: { type: Boolean, default: true },
    feed_seed: { type: String, required: true },
    feed_key_hashes: { type: [String], default: [] },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: 'locations', versionKey: false },
);
locationSchema.plugin(outboxPlugin);

const slotSchema = new Schema<SlotDoc>(
  {
    id: { type: Number, required: true, unique: true },
    location_id: { type: Number, required: true },
    kind: { type: String, enum: SlotKinds, required: true },
    starts_at: { type: Date, required: true },
    ends_at: { type: Date, required: true },
    day: { type: String, required: true },
    capacity: { type: Number, required: true },
    free: { type: Number },
    booked: { type: Number },
    created_at: { type: Date, required: true },
  },
  { collection: 'slots', versionKey: false },
);
slotSchema.index({ day: 1 });
slotSchema.index({ starts_at: 1 });

const handoverSchema = new Schema<HandoverDoc>(
  {
    id: { type: Number, required: true, unique: true },
    active_key: { type: String, required: true, unique: true },
    seat: { type: String },
    application_id: { type: Number, default: null },
    donation_id: { type: Number, default: null },
    slot_id: { type: Number, required: true },
    kind: { type: String, enum: SlotKinds, required: true },
    location_id: { type: Number, required: true },
    starts_at: { type: Date, required: true },
    ends_at: { type: Date, required: true },
    day: { type: String, required: true },
    status: { type: String, enum: HandoverStatuses, required: true },
    position: { type: Number, default: null },
    note: { type: String, default: null },
    by: { type: String, enum: ['family', 'staff'], required: true },
    reminded_at: { type: Date, default: null },
    follow_up: { type: String, enum: ['complete', 'lapse', 'overdue', null], default: null },
    closed_by: { type: Object, default: null },
    closed_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    item_check: { type: Object, default: null },
  },
  { collection: 'handovers', versionKey: false },
);
// the day plan; the jobs (booked by time); an application's handovers (privacy, its booking)
handoverSchema.index({ day: 1 });
handoverSchema.index({ status: 1, starts_at: 1 });
handoverSchema.index({ application_id: 1 });
handoverSchema.index({ slot_id: 1 });
// a slot's places across processes (issue 42, handover-seats.ts)
handoverSchema.index({ seat: 1 }, { unique: true });
handoverSchema.index({ follow_up: 1 });
handoverSchema.plugin(outboxPlugin);

export function registerModels(conn: Connection) {
  return {
    Application: conn.model<ApplicationDoc>('Application', applicationSchema),
    Wish: conn.model<WishDoc>('Wish', wishSchema),
    Location: conn.model<LocationDoc>('Location', locationSchema),
    Slot: conn.model<SlotDoc>('Slot', slotSchema),
    Handover: conn.model<HandoverDoc>('Handover', handoverSchema),
  };
}
export type Models = ReturnType<typeof registerModels>;
