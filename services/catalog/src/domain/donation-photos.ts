import {
  Limits,
  type DonationPhotoClaim,
  type DonationPhotoClaimRequest,
  type DonationPhotoRelease,
  type DonationStoredPhoto,
} from '@furniture/contracts';
import type { DonationsRepository } from '../data-access/donations-repository';
import type { DonationData } from './donation-records';
import type { DonationsService } from './donations-service';

/**
 * A claim older than this belongs to an upload that died (an upload is cut off after two
 * minutes and processed within half a minute): it no longer holds its place and goes with the
 * next claim of the donation.
 */
export const STALE_CLAIM_MS = 10 * 60 * 1000;

/**
 * The places among a donated item's photos (at most five), claimed by the media service before it
 * stores a donor's photo and filled or given back after. The claim and the count are one
 * compare-and-set on the donation, so parallel uploads (on any replica) never make a sixth photo;
 * an S3 object is only written under a claim, and removed again when its claim cannot be filled
 * (docs/decisions.md "Donated photos").
 */
export class DonationPhotos {
  constructor(
    private readonly deps: {
      donations: DonationsRepository;
      service: DonationsService;
      now: () => Date;
    },
  ) {}

  private live(d: DonationData) {
    const since = this.deps.now().getTime() - STALE_CLAIM_MS;
    return d.photo_claims.filter((c) => c.claimed_at.getTime() > since);
  }

  async claim(
    donationId: number,
    itemId: number,
    req: DonationPhotoClaimRequest,
  ): Promise<DonationPhotoClaim> {
    const max = Limits.donationPhotosPerItem;
    let outcome: DonationPhotoClaim['outcome'] = 'claimed';
    const result = await this.deps.donations.mutate(donationId, (d) => {
      const item = d.items.find((i) => i.id === itemId);
      if (!this.deps.service.tokenValid(d, req.token)) outcome = 'token_invalid';
      else if (!item) outcome = 'not_found';
      else {
        const claims = this.live(d);
        const taken = item.photos.length + claims.filter((c) => c.item_id === itemId).length;
        if (taken >= max) outcome = 'full';
        else {
          outcome = 'claimed';
          const claim = { id: req.photo_id, item_id: itemId, claimed_at: this.deps.now() };
          return { set: { photo_claims: [...claims, claim] }, events: () => [] };
        }
      }
      return null;
    });
    return { outcome: result ? outcome : 'not_found', max };
  }

  /** The photo is stored: it joins its item. `gone`: its claim is (the donation was erased). */
  async finish(
    donationId: number,
    itemId: number,
    photo: DonationStoredPhoto,
  ): Promise<'stored' | 'gone'> {
    let stored = false;
    await this.deps.donations.mutate(donationId, (d) => {
      const claim = d.photo_claims.find((c) => c.id === photo.id && c.item_id === itemId);
      if (!claim || d.erased_at) return null;
      stored = true;
      return {
        set: {
          photo_claims: d.photo_claims.filter((c) => c !== claim),
          items: d.items.map((i) => (i.id === itemId ? { ...i, photos: [...i.photos, photo] } : i)),
          updated_at: this.deps.now(),
        },
        events: () => [],
      };
    });
    return stored ? 'stored' : 'gone';
  }

  /**
   * A refused or failed upload gives its place back (again: nothing); says whether the item has
   * the photo (then its objects stay).
   */
  async release(
    donationId: number,
    itemId: number,
    photoId: string,
  ): Promise<DonationPhotoRelease> {
    const result = await this.deps.donations.mutate(donationId, (d) => {
      const left = d.photo_claims.filter((c) => !(c.id === photoId && c.item_id === itemId));
      return left.length === d.photo_claims.length
        ? null
        : { set: { photo_claims: left }, events: () => [] };
    });
    const item = result?.after.items.find((i) => i.id === itemId);
    return {
      released: result?.changed ?? false,
      stored: item?.photos.some((p) => p.id === photoId) ?? false,
    };
  }
}
