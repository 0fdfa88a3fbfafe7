import type { PhotoUrls } from '@furniture/contracts';

/*
 * The records and errors of the media domain. Data access and the image integration use them;
 * the domain never sees a document or a sharp object.
 */

/** The three object keys of a photo, one per size. */
export type PhotoKeys = PhotoUrls;

/** A claimed slot whose image is still being processed. */
export interface PhotoClaim {
  id: number;
  lot_id: number;
  position: number;
  keys: PhotoKeys;
}

/** A claim as it was just made: what its ready photo is built from, without reading it again. */
export interface NewPhotoClaim extends PhotoClaim {
  created_by_user_id: number;
  created_at: Date;
}

/**
 * The lot's slots as the check before the body saw them: the claim tries the positions free then
 * first instead of reading the ten slots once more (a collision moves on to the next).
 */
export interface SlotsSeen {
  lot_id: number;
  taken: number[];
}

/** Every slot of the lot is taken (ready photos and uploads in progress). */
export class NoFreeSlotError extends Error {
  constructor(readonly taken: number) {
    super('no free photo slot');
  }
}

/** The bytes do not decode as an image (corrupt, truncated, not an image). */
export class ImageDecodeError extends Error {}
/** Decoding and encoding took longer than allowed. */
export class ImageTimeoutError extends Error {}
/** More pixels than allowed (found while decoding; the header check usually catches it first). */
export class ImagePixelLimitError extends Error {}

/** A donor's photo upload in progress (its claim in the catalog, its objects in the bucket). */
export interface DonationUpload {
  photo_id: string;
  donation_id: number;
  item_id: number;
  keys: PhotoKeys;
  started_at: Date;
}
