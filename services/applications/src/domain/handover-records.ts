import type { Actor, HandoverStatus, SlotKind } from '@furniture/contracts';

/*
 * The records of the handover (issue 29): locations, slots and handovers as the domain sees them
 * (data access maps its documents to these). Times are instants (Date); `day` is the local day of
 * a slot's start in the office's time zone.
 */

export interface LocationRecord {
  id: number;
  name: string;
  address: string;
  city: string;
  notes: string | null;
  active: boolean;
  /** the seed of the location's iCal feed key (the key is derived: link-secrets.ts) */
  feed_seed: string;
  /** the digests of the keys the feed accepts */
  feed_key_hashes: string[];
  created_at: Date;
  updated_at: Date;
}

export interface SlotRecord {
  id: number;
  location_id: number;
  kind: SlotKind;
  starts_at: Date;
  ends_at: Date;
  day: string;
  capacity: number;
  free: number;
  booked: number;
  created_at: Date;
}

/**
 * The last scan of the item at a handover (issue 45): the code, the lot it named, whether it
 * was the booked lot, and whether the driver confirmed a mismatch.
 */
export interface ItemCheck {
  code: string;
  scanned_lot_id: number | null;
  match: boolean;
  confirmed: boolean;
  at: Date;
  by_user_id: number | null;
}

/** What an outcome still has to do to the application, retried until done. */
export type HandoverFollowUp = 'complete' | 'lapse' | 'overdue';

export interface HandoverRecord {
  id: number;
  application_id: number | null;
  donation_id: number | null;
  slot_id: number;
  kind: SlotKind;
  location_id: number;
  starts_at: Date;
  ends_at: Date;
  day: string;
  status: HandoverStatus;
  position: number | null;
  note: string | null;
  by: 'family' | 'staff';
  reminded_at: Date | null;
  follow_up: HandoverFollowUp | null;
  closed_by: Actor | null;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** the item scanned before the outcome (issue 45; null: not scanned) */
  item_check: ItemCheck | null;
}

/** The key that makes one booking per application or donation (unique while booked). */
export const activeKey = (h: { application_id: number | null; donation_id: number | null }) =>
  h.application_id !== null ? `application:${h.application_id}` : `donation:${h.donation_id}`;
