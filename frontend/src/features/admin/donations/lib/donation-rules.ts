import { DonationTransitions, type DonationStatus } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { EMPTY_LOT, type LotFormValues } from '../../lots';
import type { PhotoUrls } from '@furniture/contracts/api/media';
import type { Donation, DonationItem } from '../api/donations-api';

/** What staff may change a donation to (the expiry job alone sets `expired`). */
export const nextStatuses = (status: DonationStatus): readonly DonationStatus[] =>
  DonationTransitions[status] ?? [];

/** The reasons a decline offers as a start, each a text in the donor's language. */
export const DECLINE_REASONS = ['storage', 'condition', 'notNeeded'] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** The donor's own name on the lot only with their consent; "anonym" otherwise (issue 28). */
export const ANONYMOUS_DONOR = 'anonym';

/** An item can become a lot once the donation is accepted, and stays one. */
export const canMakeLot = (donation: Donation, item: DonationItem): boolean =>
  (donation.status === 'accepted' || donation.status === 'collected') && !item.lot_id;

/** A photo's addresses for a tile (thumbnail) and for the full view (large). */
export function photoUrls(photo: PhotoUrls): { thumbnail: string; large: string } {
  const any = photo.medium || photo.large || photo.thumbnail;
  return { thumbnail: photo.thumbnail || any, large: photo.large || any };
}

/** A text cut at a word to `max` characters, with an ellipsis when cut. */
export function shortened(text: string, max: number): string {
  const v = text.trim();
  if (v.length <= max) return v;
  const cut = v.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * The lot form filled from an item (issue 28): its category, description (in the donor's
 * language: the short description, cut to its limit, and the whole text as the detailed one),
 * dimensions, condition, the donor by consent, the donation's city as location. Names are left
 * to staff.
 */
export function lotValuesOf(donation: Donation, item: DonationItem): LotFormValues {
  const description = item.description.trim();
  const short = shortened(description, Limits.lotShortTextMax);
  const detailed = short === description ? '' : description;
  return {
    ...EMPTY_LOT,
    ...(donation.language === 'uk'
      ? { descriptionUk: short, detailedUk: detailed }
      : { descriptionDe: short, detailedDe: detailed }),
    categoryId: String(item.category_id),
    dimensions: item.dimensions?.trim() ?? '',
    condition: item.condition ?? '',
    donor: donation.donor_name_public ? donation.donor_name : ANONYMOUS_DONOR,
    location: donation.city,
  };
}
