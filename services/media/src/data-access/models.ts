import { Schema, type Connection } from 'mongoose';
import { LotStatuses, type LotStatus, type PhotoUrls } from '@furniture/contracts';
import { outboxPlugin } from '@furniture/platform';

export type PhotoKeys = PhotoUrls;

/**
 * One photo of a lot. A record is inserted as a `processing` claim on one of the lot's ten slots
 * (`position`, unique per lot: that index is what keeps a lot at ten photos across replicas) and
 * becomes `ready` once its three objects are in the bucket.
 */
export interface PhotoDoc {
  id: number;
  lot_id: number;
  /** slot 0-9; a deleted photo's tombstone moves to -id so the slot is free at once */
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

/** What media knows of a catalog lot (read model fed by lot events). */
export interface LotDoc {
  id: number;
  status: LotStatus;
  version: number;
  updated_at: Date;
  /** set by lot.deleted and kept, so a late event cannot bring the lot back */
  deleted: boolean;
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
    id: { type: Number, required: true, unique: true },
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
photoSchema.index({ lot_id: 1, position: 1 }, { unique: true });
photoSchema.index({ status: 1, created_at: 1 });
photoSchema.plugin(outboxPlugin);

const lotSchema = new Schema<LotDoc>(
  {
    id: { type: Number, required: true, unique: true },
    status: { type: String, enum: LotStatuses, required: true },
    version: { type: Number, required: true },
    updated_at: { type: Date, required: true },
    deleted: { type: Boolean, required: true, default: false },
  },
  { collection: 'lots', versionKey: false },
);

export function registerModels(conn: Connection) {
  return {
    Photo: conn.model<PhotoDoc>('Photo', photoSchema),
    Lot: conn.model<LotDoc>('Lot', lotSchema),
  };
}
export type Models = ReturnType<typeof registerModels>;
