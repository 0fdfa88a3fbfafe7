import { Schema, type Connection } from 'mongoose';
import {
  ApplicationStatuses,
  ApprovalFailureReasons,
  Languages,
  LotStatuses,
  WishStatuses,
  type Wish,
} from '@furniture/contracts';
import { outboxPlugin } from '@furniture/platform';
import type { ApplicationRecord, ApprovalRecord, NoteOpen } from '../domain/records';

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
  | 'note_open'
  | 'created_at'
  | 'updated_at'
> {
  note_open?: NoteOpen | null;
  approval?: ApprovalDoc | null;
  rejected_for?: number | null;
  request_key?: string | null;
  pickup_by?: string | null;
  pickup_reminded_at?: Date | null;
  pickup_overdue_at?: Date | null;
  next_in_queue_after?: number | null;
  /** the family's data was erased (privacy.ts): on request or after the retention period */
  erased_at?: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface ApprovalDoc extends Omit<ApprovalRecord, 'requested_at' | 'ended_at'> {
  requested_at: Date;
  ended_at: Date | null;
}

/** A wish as stored: the staff's view with dates as dates. */
export interface WishDoc extends Omit<Wish, 'matching_lots' | 'created_at' | 'updated_at'> {
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
    note_open: { type: Object, default: null },
    erased_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: 'applications', versionKey: false },
);
// one application per phone and lot, across processes and replicas
applicationSchema.index({ lot_id: 1, applicant_phone: 1 }, { unique: true });
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
    erased_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: 'wishes', versionKey: false },
);
wishSchema.index({ status: 1, id: -1 });
wishSchema.index({ furniture_category: 1, id: -1 });
// the privacy lookup and the retention job
wishSchema.index({ applicant_whatsapp: 1 });
wishSchema.index({ status: 1, updated_at: 1 });
wishSchema.plugin(outboxPlugin);

export function registerModels(conn: Connection) {
  return {
    Application: conn.model<ApplicationDoc>('Application', applicationSchema),
    Wish: conn.model<WishDoc>('Wish', wishSchema),
  };
}
export type Models = ReturnType<typeof registerModels>;
