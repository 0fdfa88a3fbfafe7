import {
  DonationStatusLabels,
  Events,
  Limits,
  type Actor,
  type AdoptedPhotos,
  type DonationLotCreate,
  type DonationStoredPhoto,
  type Lot,
  type LotCreate,
} from '@furniture/contracts';
import { AppError, createEvent } from '@furniture/platform/domain';
import type { DonationsRepository } from '../data-access/donations-repository';
import type { LotsRepository } from '../data-access/lots-repository';
import type { DonationData, DonationItemData } from './donation-records';
import type { LotsService } from './lots-service';

/** Copies a donated item's photos into a lot (the media service); idempotent. */
export interface LotPhotoCopies {
  adopt(
    lotId: number,
    actor: Actor,
    photos: DonationStoredPhoto[],
  ): Promise<AdoptedPhotos['photos']>;
}

/** A donation's items become lots once it is accepted (and after its pickup). */
const LOT_STATUSES = ['accepted', 'collected'] as const;

/** What a lot made of a donated item names as its donor when the donor did not agree. */
export const ANONYMOUS_DONOR = 'anonym';

/** The beginning of a text, cut at a word, at most `max` characters. */
export function shortened(text: string, max: number): string {
  const line = text.split(/\r?\n/)[0]!.trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > max / 2 ? cut.slice(0, atWord) : cut).trimEnd()}…`;
}

/**
 * The lot form's fields of a lot made of an item: what staff sent, the rest from the item (its
 * text in the donor's language, German always filled as the lot form requires), the donor (their
 * name only with their consent) and the donation (its city as location).
 */
export function lotFormOf(d: DonationData, item: DonationItemData, sent: DonationLotCreate) {
  const text = (max: number) => {
    const t = shortened(item.description, max);
    return { de: t, uk: d.language === 'uk' ? t : '' };
  };
  const full = { de: item.description, uk: d.language === 'uk' ? item.description : '' };
  return {
    name: { ...text(60), ...sent.name },
    description: { ...text(Limits.lotShortTextMax), ...sent.description },
    detailed_description: sent.detailed_description ?? full,
    category_id: sent.category_id ?? item.category_id,
    status: sent.status ?? 'available',
    dimensions: sent.dimensions ?? item.dimensions ?? '',
    condition: sent.condition ?? item.condition ?? '',
    donor: sent.donor ?? (d.donor_name_public ? d.donor_name : ANONYMOUS_DONOR),
    location: sent.location ?? d.city,
  } satisfies LotCreate;
}

/**
 * POST /donations/{id}/items/{itemId}/lot: an item becomes at most one lot, carrying the donor's
 * photos. The item first gets the lot's id (a compare-and-set on the donation: two staff members
 * at once get one id), the media service copies the photos into that lot, then the lot is stored
 * under that id (a second lot with it cannot be stored). A call that stopped halfway (the media
 * service or the database away) is completed by the next one with the same id.
 */
export class DonationLots {
  constructor(
    private readonly deps: {
      donations: DonationsRepository;
      lotsRepo: LotsRepository;
      lots: LotsService;
      photos: LotPhotoCopies;
    },
  ) {}

  async create(
    actor: Actor,
    donationId: number,
    itemId: number,
    sent: DonationLotCreate,
  ): Promise<Lot> {
    const { donations, lotsRepo } = this.deps;
    const found = await donations.findById(donationId);
    if (!found) throw new AppError('DONATION_NOT_FOUND');
    const item = found.items.find((i) => i.id === itemId);
    if (!item) throw new AppError('DONATION_ITEM_NOT_FOUND');
    if (!(LOT_STATUSES as readonly string[]).includes(found.status)) {
      throw new AppError('DONATION_NOT_ACCEPTED', {
        params: { status: DonationStatusLabels[found.status] },
      });
    }
    const hasLot = (lotId: number) =>
      new AppError('DONATION_ITEM_HAS_LOT', {
        params: { lot_id: lotId },
        extra: { lot_id: lotId },
      });
    if (item.lot_id !== null && (await lotsRepo.findById(item.lot_id))) throw hasLot(item.lot_id);

    const lotId = item.lot_id ?? (await this.claimLotId(donationId, itemId));
    const form = lotFormOf(found, item, sent);
    const copies = item.photos.length
      ? await this.deps.photos.adopt(lotId, actor, item.photos)
      : [];
    const lot = await this.deps.lots.createAs(
      actor,
      lotId,
      form,
      copies.map((c) => ({ photo_id: c.photo_id, medium: c.urls.medium, large: c.urls.large })),
      (made) => [
        createEvent(
          Events.DonationItemLotCreated,
          {
            donation_id: donationId,
            item_id: itemId,
            lot_id: made.id,
            lot_name: made.name,
            category_id: made.category_id,
          },
          actor,
        ),
      ],
    );
    if (!lot) throw hasLot(lotId);
    return lot;
  }

  /** The item's lot id: drawn now, unless another call drew one first (then that one). */
  private async claimLotId(donationId: number, itemId: number): Promise<number> {
    const drawn = await this.deps.lotsRepo.nextId();
    const result = await this.deps.donations.mutate(donationId, (d) => {
      const item = d.items.find((i) => i.id === itemId);
      if (!item || item.lot_id !== null) return null;
      return {
        set: {
          items: d.items.map((i) => (i.id === itemId ? { ...i, lot_id: drawn } : i)),
          updated_at: new Date(),
        },
        events: () => [],
      };
    });
    const lotId = result?.after.items.find((i) => i.id === itemId)?.lot_id;
    if (!result || lotId === null || lotId === undefined) throw new AppError('DONATION_NOT_FOUND');
    return lotId;
  }
}
