import { Schema, type Connection } from 'mongoose';
import {
  ApplicationStatuses,
  Languages,
  LotStatuses,
  WishStatuses,
  type ApplicationStatus,
  type Language,
  type LotStatus,
  type WishStatus,
} from '@furniture/contracts';
import { outboxPlugin } from '@furniture/platform';

interface Localized {
  de: string;
  uk: string;
}
const localized = { de: { type: String, default: '' }, uk: { type: String, default: '' } };

export interface ApplicationDoc {
  id: number;
  lot_id: number;
  status: ApplicationStatus;
  applicant_name: string;
  /** E.164: the key that makes 0176…, +49 176… and 0049 176… one applicant */
  applicant_phone: string;
  applicant_phone_raw: string;
  applicant_whatsapp: string | null;
  applicant_email: string | null;
  applicant_city: string;
  applicant_address: string;
  needs_delivery_help: boolean;
  language: Language;
  /** the lot's name when the family applied (the read model's current name is preferred) */
  lot_name: Localized;
  /** internal notes, one line each, oldest first */
  notes: string[];
  created_at: Date;
  updated_at: Date;
}

/**
 * String `_id`s: FerretDB 1.24 on SQLite answers a filter that is exactly `{_id: '<string>'}` from
 * its primary key and scans the whole collection for every other filter (we measured 8 ms against
 * 250 ms for 3000 documents), so the documents read on every public call are keyed that way.
 */
export const keyOf = (id: number): string => String(id);

/** One reservation slot per lot: held by the approved application (`_id` = the lot id). */
export interface ReservationDoc {
  _id: string;
  lot_id: number;
  application_id: number;
  created_at: Date;
}

/** The read model of the catalog's lots, fed by lot events and the snapshot endpoint. */
export interface LotDoc {
  /** keyOf(id) */
  _id: string;
  id: number;
  name: Localized;
  status: LotStatus;
  category_id: number;
  photo: string | null;
  version: number;
  updated_at: Date;
  /** lot.deleted arrived: kept so that a late event cannot bring the lot back */
  deleted: boolean;
}

export interface WishDoc {
  id: number;
  status: WishStatus;
  admin_notes: string | null;
  applicant_name: string;
  /** E.164 */
  applicant_whatsapp: string;
  applicant_whatsapp_raw: string;
  applicant_email: string | null;
  furniture_category: number;
  furniture_description: string;
  language: Language;
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
applicationSchema.plugin(outboxPlugin);

const reservationSchema = new Schema<ReservationDoc>(
  {
    _id: { type: String, required: true },
    lot_id: { type: Number, required: true, unique: true },
    application_id: { type: Number, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: 'reservations', versionKey: false },
);

const lotSchema = new Schema<LotDoc>(
  {
    _id: { type: String, required: true },
    id: { type: Number, required: true, unique: true },
    name: localized,
    status: { type: String, enum: LotStatuses, required: true },
    category_id: { type: Number, required: true },
    photo: { type: String, default: null },
    version: { type: Number, required: true },
    updated_at: { type: Date, required: true },
    deleted: { type: Boolean, default: false },
  },
  { collection: 'lots', versionKey: false },
);

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
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: 'wishes', versionKey: false },
);
wishSchema.index({ status: 1, id: -1 });
wishSchema.index({ furniture_category: 1, id: -1 });
wishSchema.plugin(outboxPlugin);

export function registerModels(conn: Connection) {
  return {
    Application: conn.model<ApplicationDoc>('Application', applicationSchema),
    Reservation: conn.model<ReservationDoc>('Reservation', reservationSchema),
    Lot: conn.model<LotDoc>('Lot', lotSchema),
    Wish: conn.model<WishDoc>('Wish', wishSchema),
  };
}
export type Models = ReturnType<typeof registerModels>;
