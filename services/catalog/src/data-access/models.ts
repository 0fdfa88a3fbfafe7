import { Schema, type Connection } from 'mongoose';
import { DonationStatuses, ItemConditions, Languages, LotStatuses } from '@furniture/contracts';
import { outboxPlugin } from '@furniture/platform';
import type { DonationData } from '../domain/donation-records';
import type { CategoryData, LotData } from '../domain/records';

const localized = { de: { type: String, default: '' }, uk: { type: String, default: '' } };

/** Stored category: the data plus normalized names that unique indexes keep apart. */
export interface CategoryDoc extends CategoryData {
  _id: string;
  name_key_de: string;
  name_key_uk: string;
  deleted_at?: Date | null;
}

export interface LotDoc extends LotData {
  _id: string;
  deleted_at?: Date | null;
}

const categorySchema = new Schema<CategoryDoc>(
  {
    _id: { type: String, required: true },
    id: { type: Number, required: true, unique: true },
    name: localized,
    description: localized,
    icon: { type: String, required: true },
    // "Sofas" and " sofas " are the same name to a volunteer: one per language
    name_key_de: { type: String, required: true, unique: true },
    name_key_uk: { type: String, required: true, unique: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    created_by_user_id: { type: Number, default: null },
    version: { type: Number, required: true },
    rev: { type: Number, required: true },
  },
  { collection: 'categories', versionKey: false },
);
categorySchema.plugin(outboxPlugin);

const lotSchema = new Schema<LotDoc>(
  {
    _id: { type: String, required: true },
    id: { type: Number, required: true, unique: true },
    name: localized,
    description: localized,
    detailed_description: localized,
    status: { type: String, enum: LotStatuses, required: true },
    category_id: { type: Number, required: true },
    photos: { type: [String], default: [] },
    gallery_photos: { type: [String], default: [] },
    dimensions: { type: String, default: '' },
    condition: { type: String, default: '' },
    donor: { type: String, default: '' },
    location: { type: String, default: '' },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    status_changed_at: { type: Date, required: true },
    created_by_user_id: { type: Number, default: null },
    version: { type: Number, required: true },
    rev: { type: Number, required: true },
    reserved_application_id: { type: Number, default: null },
    photo_refs: {
      type: [{ photo_id: Number, medium: String, large: String, _id: false }],
      default: [],
    },
    deleted_photo_ids: { type: [Number], default: [] },
    label_code: { type: String, default: null },
    storage_place_id: { type: Number, default: null },
  },
  { collection: 'lots', versionKey: false },
);
lotSchema.plugin(outboxPlugin);
// one index per filter and sort of the lot lists (newest first = id descending)
lotSchema.index({ category_id: 1, status: 1, id: -1 });
lotSchema.index({ status: 1, id: -1 });
lotSchema.index({ created_at: -1 });
// the warehouse (issue 45): the lots of a place; the lots of earlier versions without a code
lotSchema.index({ storage_place_id: 1, id: -1 });
lotSchema.index({ label_code: 1, id: 1 });

export interface DonationDoc extends DonationData {
  _id: string;
}

const photoUrls = { thumbnail: String, medium: String, large: String };

const donationSchema = new Schema<DonationDoc>(
  {
    _id: { type: String, required: true },
    id: { type: Number, required: true, unique: true },
    status: { type: String, enum: DonationStatuses, required: true },
    donor_name: { type: String, default: '' },
    donor_phone: { type: String, required: true },
    donor_phone_raw: { type: String, default: '' },
    donor_email: { type: String, default: null },
    donor_name_public: { type: Boolean, default: false },
    language: { type: String, enum: Languages, required: true },
    city: { type: String, default: '' },
    address: { type: String, default: '' },
    floor: { type: Number, default: null },
    has_elevator: { type: Boolean, default: null },
    available_until: { type: String, required: true },
    items: {
      type: [
        {
          _id: false,
          id: Number,
          category_id: Number,
          description: String,
          dimensions: { type: String, default: null },
          condition: { type: String, enum: [...ItemConditions, null], default: null },
          can_disassemble: { type: Boolean, default: null },
          photos: {
            type: [
              {
                _id: false,
                id: String,
                urls: photoUrls,
                width: Number,
                height: Number,
                bytes: Number,
              },
            ],
            default: [],
          },
          lot_id: { type: Number, default: null },
        },
      ],
      default: [],
    },
    history: {
      type: [
        {
          _id: false,
          at: Date,
          from: { type: String, default: null },
          to: String,
          cause: String,
          by: {
            type: { _id: false, id: Number, name: String, email: String, role: String },
            default: null,
          },
          note: { type: String, default: null },
          reason: { type: String, default: null },
        },
      ],
      default: [],
    },
    photo_claims: {
      type: [{ _id: false, id: String, item_id: Number, claimed_at: Date }],
      default: [],
    },
    upload_token_hash: { type: String, default: null },
    upload_token_expires_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    status_changed_at: { type: Date, required: true },
    erased_at: { type: Date, default: null },
    rev: { type: Number, required: true },
  },
  { collection: 'donations', versionKey: false },
);
donationSchema.plugin(outboxPlugin);
// the donor's lookup and the privacy lookup by number; the expiry and retention jobs
donationSchema.index({ donor_phone: 1 });
donationSchema.index({ status: 1, available_until: 1 });
donationSchema.index({ status: 1, updated_at: 1 });

/** Events that belong to no document (a reservation for a lot that does not exist). */
export interface OutboxMessageDoc {
  _id: string;
  id: string;
}
const outboxMessageSchema = new Schema<OutboxMessageDoc>(
  { _id: { type: String, required: true }, id: { type: String, required: true } },
  { collection: 'outbox_messages', versionKey: false },
);
outboxMessageSchema.plugin(outboxPlugin);

export function registerModels(conn: Connection) {
  return {
    Category: conn.model<CategoryDoc>('Category', categorySchema),
    Lot: conn.model<LotDoc>('Lot', lotSchema),
    Donation: conn.model<DonationDoc>('Donation', donationSchema),
    OutboxMessage: conn.model<OutboxMessageDoc>('OutboxMessage', outboxMessageSchema),
  };
}
export type Models = ReturnType<typeof registerModels>;
