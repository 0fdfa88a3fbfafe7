import {
  categorySlug,
  type Category,
  type DomainEvent,
  type LocalizedTextValue,
  type Lot,
  type LotStatus,
} from '@furniture/contracts';
import { AppError } from '@furniture/platform/domain';

/** A photo the media service reported for a lot (photo.uploaded), to undo it on photo.deleted. */
export interface PhotoRef {
  photo_id: number;
  medium: string;
  large: string;
}

/** Everything the catalog keeps of a lot (what the repository reads and writes). */
export interface LotData {
  id: number;
  name: LocalizedTextValue;
  description: LocalizedTextValue;
  detailed_description: LocalizedTextValue;
  status: LotStatus;
  category_id: number;
  photos: string[];
  gallery_photos: string[];
  dimensions: string;
  condition: string;
  donor: string;
  location: string;
  created_at: Date;
  updated_at: Date;
  status_changed_at: Date;
  created_by_user_id: number | null;
  /** edit version: bumped by every change a lot form could overwrite (not by photo changes) */
  version: number;
  /** write revision: bumped by every write, the compare-and-set guard of the repository */
  rev: number;
  /** the approved application the lot is reserved for (set by application.approved) */
  reserved_application_id: number | null;
  photo_refs: PhotoRef[];
  /** photos already deleted: a late photo.uploaded for them is ignored */
  deleted_photo_ids: number[];
  /** the lot's label code (issue 45); null for a lot of an earlier version until it gets one */
  label_code: string | null;
  /** the storage place the lot is recorded on (issue 45) */
  storage_place_id: number | null;
}

/** Fields a change may set (id, creation data and rev belong to the repository). */
export type LotSet = Partial<Omit<LotData, 'id' | 'created_at' | 'created_by_user_id' | 'rev'>>;

/** A change decided on a record as it was read: fields set with their events, or removal. */
export type Change<T, S = Partial<T>> =
  { set: S; events: (after: T) => DomainEvent[] } | { remove: true; events: DomainEvent[] };

export type LotChange = Change<LotData, LotSet>;

export interface CategoryData {
  id: number;
  name: LocalizedTextValue;
  description: LocalizedTextValue;
  icon: string;
  created_at: Date;
  updated_at: Date;
  created_by_user_id: number | null;
  version: number;
  rev: number;
}

export type CategorySet = Partial<
  Pick<CategoryData, 'name' | 'description' | 'icon' | 'version'>
> & {
  updated_at?: Date;
};

export type CategoryChange = Change<CategoryData, CategorySet>;

/** A localized text with the languages sent replacing the kept ones. */
export const mergedText = (kept: LocalizedTextValue, sent?: Partial<LocalizedTextValue>) => ({
  de: sent?.de ?? kept.de,
  uk: sent?.uk ?? kept.uk,
});

/**
 * The answer shape of a lot (internal fields never leave the service); staff answers also carry
 * the warehouse's fields (issue 45).
 */
export function toLot(d: LotData, staff = false): Lot {
  const lot: Lot = {
    id: d.id,
    name: d.name,
    description: d.description,
    detailed_description: d.detailed_description,
    status: d.status,
    category_id: d.category_id,
    photos: d.photos,
    gallery_photos: d.gallery_photos,
    dimensions: d.dimensions,
    condition: d.condition,
    donor: d.donor,
    location: d.location,
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
    created_by_user_id: d.created_by_user_id,
    version: d.version,
  };
  if (staff) {
    lot.label_code = d.label_code;
    lot.storage_place_id = d.storage_place_id;
  }
  return lot;
}

export function toCategory(d: CategoryData, lotCount: number, archivedCount: number): Category {
  return {
    id: d.id,
    slug: categorySlug(d.id),
    name: d.name,
    description: d.description,
    icon: d.icon,
    lot_count: lotCount,
    archived_lot_count: archivedCount,
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
    version: d.version,
  };
}

/** Another category already has this name (the unique index said so). */
export const duplicateCategoryName = () => new AppError('CATEGORY_DUPLICATE_NAME');
