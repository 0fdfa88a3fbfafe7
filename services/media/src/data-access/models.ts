import { Schema, type Connection } from 'mongoose';
import type { PhotoUrls } from '@furniture/contracts';
import type { PhotoKeys } from '../domain/records';
import { outboxPlugin } from '@furniture/platform';

export type { PhotoKeys } from '../domain/records';

/** A slot's string `_id` (see the platform's docKey for why every hot lookup goes by one). */
export const slotKey = (lotId: number, position: number): string => `${lotId}:${position}`;

/**
 * One photo of a lot: `processing` while its image is made (its slot is claimed), `ready` once
 * its three objects are in the bucket.
 */
export interface PhotoDoc {
  /** docKey(id) */
  _id: string;
  id: number;
  lot_id: number;
  /** the slot (0-9) this photo holds */
  position: number;
  status: 'processing' | 'ready';
  /** object keys, chosen at claim time (uuid, never repeated) so a crash leaves nothing unknown */
  keys: PhotoKeys;
  urls?: PhotoUrls;
  width?: number;
  height?: number;
  bytes?: number;
  created_by_user_id: number;
  created_at: Date;
  updated_at: Date;
}

/**
 * One of a lot's ten photo slots, taken by inserting this document: the primary key makes two
 * uploads (also on two replicas) unable to take the same slot, which is what keeps a lot at ten
 * photos. Deleted with its photo.
 */
export interface SlotDoc {
  /** slotKey(lot_id, position) */
  _id: string;
  lot_id: number;
  position: number;
  photo_id: number;
  created_at: Date;
}

const keysSchema = new Schema<PhotoKeys>(
  {
    thumbnail: { type: String, required: true },
    medium: { type: String, required: true },
    large: { type: String, required: true },
  },
  { _id: false },
);

const photoSchema = new Schema<PhotoDoc>(
  {
    _id: { type: String, required: true },
    id: { type: Number, required: true },
    lot_id: { type: Number, required: true },
    position: { type: Number, required: true },
    status: { type: String, enum: ['processing', 'ready'], required: true },
    keys: { type: keysSchema, required: true },
    urls: { type: keysSchema },
    width: { type: Number },
    height: { type: Number },
    bytes: { type: Number },
    created_by_user_id: { type: Number, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: 'photos', versionKey: false },
);
photoSchema.index({ status: 1, created_at: 1 });
photoSchema.plugin(outboxPlugin);

const slotSchema = new Schema<SlotDoc>(
  {
    _id: { type: String, required: true },
    lot_id: { type: Number, required: true },
    position: { type: Number, required: true },
    photo_id: { type: Number, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: 'photo_slots', versionKey: false },
);

export function registerModels(conn: Connection) {
  return {
    Photo: conn.model<PhotoDoc>('Photo', photoSchema),
    Slot: conn.model<SlotDoc>('Slot', slotSchema),
  };
}
export type Models = ReturnType<typeof registerModels>;
