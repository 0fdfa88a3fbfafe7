import type {
  Actor,
  Donation,
  DonationStatus,
  DonationStoredPhoto,
  ItemCondition,
  Language,
} from '@furniture/contracts';
import type { Change } from './records';

/** A stored photo of a donated item (its three sizes in the bucket, named by its uuid). */
export type DonationPhoto = DonationStoredPhoto;

/**
 * A place among an item's photos, taken by an upload in progress (the media service stores the
 * image meanwhile); it becomes a photo, or is given back.
 */
export interface PhotoClaim {
  /** the photo's uuid */
  id: string;
  item_id: number;
  claimed_at: Date;
}

export interface DonationItemData {
  id: number;
  category_id: number;
  description: string;
  dimensions: string | null;
  condition: ItemCondition | null;
  can_disassemble: boolean | null;
  photos: DonationPhoto[];
  /** the lot made of the item, from the moment its making began (at most one) */
  lot_id: number | null;
}

export interface DonationHistoryData {
  at: Date;
  from: DonationStatus | null;
  to: DonationStatus;
  cause: 'donor' | 'staff' | 'expired';
  by: Actor | null;
  note: string | null;
  reason: string | null;
}

/** Everything the catalog keeps of a donation: the donation and its items are one document. */
export interface DonationData {
  id: number;
  status: DonationStatus;
  donor_name: string;
  /** E.164 (`erased:<id>` once erased) */
  donor_phone: string;
  donor_phone_raw: string;
  donor_email: string | null;
  donor_name_public: boolean;
  language: Language;
  city: string;
  address: string;
  floor: number | null;
  has_elevator: boolean | null;
  /** YYYY-MM-DD, a day in Germany */
  available_until: string;
  items: DonationItemData[];
  history: DonationHistoryData[];
  photo_claims: PhotoClaim[];
  /** SHA-256 of the upload token (the token itself is only ever in the submit answer) */
  upload_token_hash: string | null;
  upload_token_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  status_changed_at: Date;
  erased_at: Date | null;
  /** write revision: the compare-and-set guard of the repository */
  rev: number;
}

export type DonationSet = Partial<Omit<DonationData, 'id' | 'created_at' | 'rev'>>;
export type DonationChange = Change<DonationData, DonationSet>;

/** Open donations: the donor still has the furniture and expects an answer or a pickup. */
export const OPEN_DONATION_STATUSES: readonly DonationStatus[] = ['submitted', 'accepted'];
/** Closed donations: the retention period runs from their last change. */
export const CLOSED_DONATION_STATUSES: readonly DonationStatus[] = [
  'declined',
  'collected',
  'cancelled',
  'expired',
];

const staffOf = (a: Actor | null) => a && { id: a.id, name: a.name, email: a.email, role: a.role };

/** The answer shape of a donation (internal fields never leave the service). */
export function toDonation(d: DonationData): Donation {
  return {
    id: d.id,
    status: d.status,
    donor_name: d.donor_name,
    donor_phone: d.donor_phone,
    donor_phone_raw: d.donor_phone_raw,
    donor_email: d.donor_email,
    donor_name_public: d.donor_name_public,
    language: d.language,
    city: d.city,
    address: d.address,
    floor: d.floor,
    has_elevator: d.has_elevator,
    available_until: d.available_until,
    items: d.items.map((i) => ({
      id: i.id,
      category_id: i.category_id,
      description: i.description,
      dimensions: i.dimensions,
      condition: i.condition,
      can_disassemble: i.can_disassemble,
      photos: i.photos.map((p) => p.urls),
      lot_id: i.lot_id,
    })),
    history: d.history.map((h) => ({
      at: h.at.toISOString(),
      from: h.from,
      to: h.to,
      cause: h.cause,
      by: staffOf(h.by),
      note: h.note,
      reason: h.reason,
    })),
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
    erased: d.erased_at !== null,
  };
}
