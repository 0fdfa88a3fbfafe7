import { Schema, type Connection } from 'mongoose';
import { LotStatuses } from '@furniture/contracts';
import { outboxPlugin } from '@furniture/platform';
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
  },
  { collection: 'lots', versionKey: false },
);
lotSchema.plugin(outboxPlugin);
// one index per filter and sort of the lot lists (newest first = id descending)
lotSchema.index({ category_id: 1, status: 1, id: -1 });
lotSchema.index({ status: 1, id: -1 });
lotSchema.index({ created_at: -1 });

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
    OutboxMessage: conn.model<OutboxMessageDoc>('OutboxMessage', outboxMessageSchema),
  };
}
export type Models = ReturnType<typeof registerModels>;
