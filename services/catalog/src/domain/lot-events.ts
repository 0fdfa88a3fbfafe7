import { Events, Limits, type DomainEvent, type LotStatus } from '@furniture/contracts';
import type { LotsRepository } from '../data-access/lots-repository';
import type { OutboxMessages } from '../data-access/outbox-messages';
import { causedEvent, changesOf, lotSnapshot } from './events';
import type { LotChange, LotData } from './records';

type Cause<N extends DomainEvent['name']> = DomainEvent<N>;

/** Deleted photo ids remembered per lot (enough to outlast any redelivery). */
const DELETED_PHOTO_MEMORY = 100;

/** Whether the lot is reserved for that application: the one place the catalog answers it. */
function reservedFor(lot: LotData, applicationId: number): boolean {
  return lot.status === 'reserved' && lot.reserved_application_id === applicationId;
}

function withUrl(list: string[], url: string): string[] {
  if (list.includes(url) || list.length >= Limits.photosPerLot) return list;
  return [...list, url];
}

/**
 * What other services' events do to lots: the approval flow (ARCHITECTURE.md "Events") and the
 * photos the media service stores. Every handler is idempotent: the consumer skips event ids it
 * has processed, and each transition is guarded by the lot's current state (a redelivered or
 * repeated cause changes nothing and emits nothing new).
 */
export class LotEvents {
  constructor(
    private readonly deps: {
      lots: LotsRepository;
      outbox: OutboxMessages;
    },
  ) {}

  /** A status move caused by an application, with its lot.status_changed. */
  private move(
    cause: DomainEvent,
    lot: LotData,
    to: LotStatus,
    why: 'reservation' | 'reservation_cancelled' | 'completed' | 'pickup_lapsed',
    applicationId: number,
    extra: Partial<LotData> = {},
    more: (after: LotData) => DomainEvent[] = () => [],
  ): LotChange {
    const now = new Date();
    return {
      set: {
        ...extra,
        status: to,
        // a volunteer's open lot form must not overwrite this: it is a new edit version
        version: lot.version + 1,
        updated_at: now,
        status_changed_at: now,
      },
      events: (after) => [
        ...more(after),
        causedEvent(cause, Events.LotStatusChanged, {
          lot: lotSnapshot(after),
          old_status: lot.status,
          new_status: to,
          cause: why,
          application_id: applicationId,
        }),
      ],
    };
  }

  /**
   * Staff asked to approve an application: available → reserved for it (lot.reserved), or
   * lot.reservation_failed with why, so that the request ends without an approval. A repeated
   * request for a lot already reserved for this very application changes nothing.
   */
  async approvalRequested(cause: Cause<typeof Events.ApplicationApprovalRequested>): Promise<void> {
    const { application_id: applicationId, lot_id: lotId } = cause.payload;
    const failed = (lotStatus: LotStatus | null, reason: 'not_available' | 'not_found') =>
      causedEvent(cause, Events.LotReservationFailed, {
        lot_id: lotId,
        application_id: applicationId,
        lot_status: lotStatus,
        reason,
      });
    const result = await this.deps.lots.mutate(lotId, (lot) => {
      if (reservedFor(lot, applicationId)) return null;
      if (lot.status !== 'available')
        return { set: {}, events: () => [failed(lot.status, 'not_available')] };
      return this.move(
        cause,
        lot,
        'reserved',
        'reservation',
        applicationId,
        { reserved_application_id: applicationId },
        (after) => [
          causedEvent(cause, Events.LotReserved, {
            lot: lotSnapshot(after),
            application_id: applicationId,
          }),
        ],
      );
    });
    if (!result) await this.deps.outbox.add([failed(null, 'not_found')]);
  }

  /**
   * The reservation is given back: staff cancelled the approval, it was made for a request that
   * had already ended, or the family did not pick the lot up (its approved application was
   * rejected as lapsed). reserved → available, but only when the lot is reserved for that very
   * application, so that it never frees a lot someone else holds. A rejected application that
   * did not hold the lot (`lot_held: false`: the rivals rejected when a lot is reserved, most
   * rejections) has nothing to give back: the lot is not even read.
   */
  async reservationReleased(
    cause:
      | Cause<typeof Events.ApplicationReservationCancelled>
      | Cause<typeof Events.ApplicationApprovalWithdrawn>
      | Cause<typeof Events.ApplicationRejected>,
  ): Promise<void> {
    const { application_id: applicationId, lot_id: lotId } = cause.payload;
    if ('lot_held' in cause.payload && cause.payload.lot_held === false) return;
    const lapsed = 'reason' in cause.payload && cause.payload.reason === 'pickup_lapsed';
    await this.deps.lots.mutate(lotId, (lot) =>
      reservedFor(lot, applicationId)
        ? this.move(
            cause,
            lot,
            'available',
            lapsed ? 'pickup_lapsed' : 'reservation_cancelled',
            applicationId,
            { reserved_application_id: null },
          )
        : null,
    );
  }

  /** The family received the lot: reserved → taken, for the application it is reserved for. */
  async applicationCompleted(cause: Cause<typeof Events.ApplicationCompleted>): Promise<void> {
    const { application_id: applicationId, lot_id: lotId } = cause.payload;
    await this.deps.lots.mutate(lotId, (lot) =>
      reservedFor(lot, applicationId)
        ? // handed over: it left the hall, and its place (issue 45)
          this.move(cause, lot, 'taken', 'completed', applicationId, { storage_place_id: null })
        : null,
    );
  }

  /**
   * A photo was stored: its medium URL joins photos, its large URL gallery_photos (no duplicate,
   * at most 10). Not a new edit version: an open lot form stays valid.
   */
  async photoUploaded(cause: Cause<typeof Events.PhotoUploaded>): Promise<void> {
    const { photo_id: photoId, lot_id: lotId, urls } = cause.payload;
    await this.deps.lots.mutate(lotId, (lot) => {
      if (lot.deleted_photo_ids.includes(photoId)) return null;
      if (lot.photo_refs.some((r) => r.photo_id === photoId)) return null;
      const next = {
        photos: withUrl(lot.photos, urls.medium),
        gallery_photos: withUrl(lot.gallery_photos, urls.large),
      };
      return this.photoChange(cause, lot, {
        ...next,
        photo_refs: [
          ...lot.photo_refs,
          { photo_id: photoId, medium: urls.medium, large: urls.large },
        ],
      });
    });
  }

  /** A photo was deleted in the media service: its URLs leave the lot. */
  async photoDeleted(cause: Cause<typeof Events.PhotoDeleted>): Promise<void> {
    const { photo_id: photoId, lot_id: lotId } = cause.payload;
    await this.deps.lots.mutate(lotId, (lot) => {
      if (lot.deleted_photo_ids.includes(photoId)) return null;
      const ref = lot.photo_refs.find((r) => r.photo_id === photoId);
      return this.photoChange(cause, lot, {
        photos: ref ? lot.photos.filter((u) => u !== ref.medium) : lot.photos,
        gallery_photos: ref
          ? lot.gallery_photos.filter((u) => u !== ref.large)
          : lot.gallery_photos,
        photo_refs: lot.photo_refs.filter((r) => r.photo_id !== photoId),
        deleted_photo_ids: [...lot.deleted_photo_ids, photoId].slice(-DELETED_PHOTO_MEMORY),
      });
    });
  }

  private photoChange(
    cause: DomainEvent,
    lot: LotData,
    set: Pick<LotData, 'photos' | 'gallery_photos' | 'photo_refs'> &
      Partial<Pick<LotData, 'deleted_photo_ids'>>,
  ): LotChange {
    const changes = changesOf(lot, set, ['photos', 'gallery_photos']);
    const visible = Object.keys(changes).length > 0;
    return {
      set: visible ? { ...set, updated_at: new Date() } : set,
      events: (after) =>
        visible
          ? [causedEvent(cause, Events.LotUpdated, { lot: lotSnapshot(after), changes })]
          : [],
    };
  }
}
