import type { DomainEvent, Photo, PhotoUrls } from '@furniture/contracts';
import {
  docKey,
  insertedUnlessTaken,
  nextId,
  tombstoneUpdate,
  type Connection,
  type Store,
  type StoredCollection,
} from '@furniture/platform';
import { slotKey, type PhotoDoc, type PhotoKeys, type SlotDoc } from './models';
import {
  NoFreeSlotError,
  type NewPhotoClaim,
  type PhotoClaim,
  type SlotsSeen,
} from '../domain/records';

export { NoFreeSlotError, type PhotoClaim } from '../domain/records';

/** A photo record as stored, outbox fields included (raw driver reads select everything). */
type StoredPhoto = PhotoDoc & { deleted_at?: Date | null };

function toPhoto(doc: PhotoDoc): Photo {
  return {
    id: doc.id,
    lot_id: doc.lot_id,
    urls: doc.urls as PhotoUrls,
    width: doc.width ?? 0,
    height: doc.height ?? 0,
    bytes: doc.bytes ?? 0,
    position: doc.position,
    created_by_user_id: doc.created_by_user_id,
    created_at: doc.created_at.toISOString(),
  };
}

const isLive = (doc: StoredPhoto | null): doc is StoredPhoto => !!doc && !doc.deleted_at;
const isReadyOf = (lotId: number, doc: StoredPhoto | null): doc is StoredPhoto =>
  isLive(doc) && doc.status === 'ready' && doc.lot_id === lotId;

/** A live photo record in a state (a tombstone never matches). */
const live = (id: number, status: PhotoDoc['status']) => ({
  _id: docKey(id),
  status,
  deleted_at: null,
});

/**
 * Photo records and the lots' photo slots. Reads go by `_id` only (see models.ts); every write is
 * guarded by the state it was decided on.
 */
export class PhotosRepository {
  private readonly stored: StoredCollection<PhotoDoc>;
  private readonly slotsStored: StoredCollection<SlotDoc>;

  constructor(
    store: Store,
    private readonly conn: Connection,
    private readonly slotsPerLot: number,
  ) {
    this.stored = store.collection<PhotoDoc>({ name: 'photos', key: '_id' });
    this.slotsStored = store.collection<SlotDoc>({ name: 'photo_slots', key: '_id' });
  }

  /** One lot's slot decisions at a time in this process (spares pointless collisions). */
  private inTurnOfLot<T>(lotId: number, fn: () => Promise<T>): Promise<T> {
    return this.slotsStored.inTurnOf(`lot:${lotId}`, fn);
  }

  private findPhoto(id: number): Promise<StoredPhoto | null> {
    return this.stored.collection.findOne({
      _id: docKey(id),
    } as never) as Promise<StoredPhoto | null>;
  }

  /** The lot's taken slots, by position. */
  private async slotsOf(lotId: number): Promise<SlotDoc[]> {
    const found = await Promise.all(
      [...Array(this.slotsPerLot).keys()].map(
        (p) =>
          this.slotsStored.collection.findOne({
            _id: slotKey(lotId, p),
          } as never) as Promise<SlotDoc | null>,
      ),
    );
    return found.filter((s): s is SlotDoc => s !== null);
  }

  /**
   * Slots held by ready photos and by uploads in progress (a full lot is checked for orphans),
   * as positions seen now.
   */
  async slotsTaken(lotId: number): Promise<SlotsSeen> {
    let taken = await this.slotsOf(lotId);
    if (taken.length >= this.slotsPerLot) {
      taken = await this.inTurnOfLot(lotId, async () =>
        this.freeOrphans(await this.slotsOf(lotId)),
      );
    }
    return { lot_id: lotId, taken: taken.map((s) => s.position) };
  }

  /**
   * Takes the lowest free slot (an insert; a collision means another upload, maybe on another
   * replica, took it first) and records the photo as `processing`. With `seen` (the slots the
   * check before the body read, moments ago) the free positions then are tried first and the
   * slots are read again only when all of them were taken meanwhile; a slot freed meanwhile may
   * be passed over for a higher one. The in-process per-lot lock spares this replica pointless
   * collisions.
   */
  async claimSlot(
    lotId: number,
    data: { keys: PhotoKeys; created_by_user_id: number },
    seen?: SlotsSeen,
  ): Promise<NewPhotoClaim> {
    return this.inTurnOfLot(lotId, async () => {
      if (seen?.lot_id === lotId) {
        const claim = await this.claimFree(lotId, data, seen.taken);
        if (claim) return claim;
      }
      let taken = await this.slotsOf(lotId);
      if (taken.length >= this.slotsPerLot) taken = await this.freeOrphans(taken);
      const claim = await this.claimFree(
        lotId,
        data,
        taken.map((s) => s.position),
      );
      if (claim) return claim;
      throw new NoFreeSlotError(this.slotsPerLot);
    });
  }

  /** Claims the first position not in `taken` that no one else holds; null when none was free. */
  private async claimFree(
    lotId: number,
    data: { keys: PhotoKeys; created_by_user_id: number },
    taken: number[],
  ): Promise<NewPhotoClaim | null> {
    const used = new Set(taken);
    const free = [...Array(this.slotsPerLot).keys()].filter((p) => !used.has(p));
    if (free.length === 0) return null;
    const id = await nextId(this.conn, 'photos');
    const now = new Date();
    for (const position of free) {
      const slot = { _id: slotKey(lotId, position), lot_id: lotId, position, photo_id: id };
      const claimed = () => this.slotsStored.insert({ ...slot, created_at: now });
      if (!(await insertedUnlessTaken(claimed))) continue;
      const { keys, created_by_user_id } = data;
      try {
        await this.stored.insert({
          _id: docKey(id),
          id,
          lot_id: lotId,
          position,
          status: 'processing',
          keys,
          created_by_user_id,
          created_at: now,
          updated_at: now,
        });
      } catch (err) {
        await this.freeSlot(lotId, position, id);
        throw err;
      }
      return { id, lot_id: lotId, position, keys, created_by_user_id, created_at: now };
    }
    return null;
  }

  /**
   * A photo adopted into a lot at `position` (a donated item's, copied already): its slot and
   * its ready record with its events. An earlier attempt's photo there (the same objects) is
   * answered as it is, without new events; null when another photo holds the slot.
   */
  async adopt(
    lotId: number,
    position: number,
    data: {
      keys: PhotoKeys;
      urls: PhotoUrls;
      width: number;
      height: number;
      bytes: number;
      created_by_user_id: number;
    },
    events: (photo: Photo) => DomainEvent[],
  ): Promise<Photo | null> {
    return this.inTurnOfLot(lotId, async () => {
      const held = (await this.slotsOf(lotId)).find((s) => s.position === position);
      if (held) {
        const doc = await this.findPhoto(held.photo_id);
        return isReadyOf(lotId, doc) && doc.keys.large === data.keys.large ? toPhoto(doc) : null;
      }
      const id = await nextId(this.conn, 'photos');
      const now = new Date();
      const slot = { _id: slotKey(lotId, position), lot_id: lotId, position, photo_id: id };
      if (!(await insertedUnlessTaken(() => this.slotsStored.insert({ ...slot, created_at: now }))))
        return null;
      const doc: PhotoDoc = {
        _id: docKey(id),
        id,
        lot_id: lotId,
        position,
        status: 'ready',
        ...data,
        created_at: now,
        updated_at: now,
      };
      try {
        await this.stored.insert(doc, events(toPhoto(doc)));
      } catch (err) {
        await this.freeSlot(lotId, position, id);
        throw err;
      }
      return toPhoto(doc);
    });
  }

  /**
   * Slots whose photo record is gone (a process died between taking the slot and writing the
   * record, or between deleting a photo and freeing its slot) are freed once they are a minute
   * old; answers the slots that remain.
   */
  private async freeOrphans(slots: SlotDoc[]): Promise<SlotDoc[]> {
    const remaining: SlotDoc[] = [];
    const minuteAgo = Date.now() - 60_000;
    for (const slot of slots) {
      const orphan =
        slot.created_at.getTime() < minuteAgo && !isLive(await this.findPhoto(slot.photo_id));
      if (orphan) await this.freeSlot(slot.lot_id, slot.position, slot.photo_id);
      else remaining.push(slot);
    }
    return remaining;
  }

  /**
   * Turns the claim into a ready photo with its event, built from the claim without reading the
   * record (the write is guarded by its state); null when the claim is gone (lot deleted).
   */
  async finish(
    claim: NewPhotoClaim,
    data: { urls: PhotoUrls; width: number; height: number; bytes: number },
    events: (photo: Photo) => DomainEvent[],
  ): Promise<Photo | null> {
    const now = new Date();
    const photo = toPhoto({
      _id: docKey(claim.id),
      id: claim.id,
      lot_id: claim.lot_id,
      position: claim.position,
      keys: claim.keys,
      created_by_user_id: claim.created_by_user_id,
      created_at: claim.created_at,
      ...data,
      status: 'ready',
      updated_at: now,
    });
    const done = await this.stored.update(
      live(claim.id, 'processing'),
      { $set: { ...data, status: 'ready', updated_at: now } },
      events(photo),
    );
    return done ? photo : null;
  }

  /** Gives a claim's slot back after a failed upload. */
  async releaseClaim(claim: Pick<PhotoClaim, 'id' | 'lot_id' | 'position'>): Promise<void> {
    await this.stored.remove(live(claim.id, 'processing'));
    await this.freeSlot(claim.lot_id, claim.position, claim.id);
  }

  /** Frees a slot if it is still held by that photo. */
  private async freeSlot(lotId: number, position: number, photoId: number): Promise<void> {
    await this.slotsStored.remove({ _id: slotKey(lotId, position), photo_id: photoId });
  }

  async findReady(lotId: number, id: number): Promise<Photo | null> {
    const doc = await this.findPhoto(id);
    return isReadyOf(lotId, doc) ? toPhoto(doc) : null;
  }

  /** The lot's ready photos by position. */
  async listReady(lotId: number): Promise<Photo[]> {
    const slots = await this.slotsOf(lotId);
    const docs = await Promise.all(slots.map((s) => this.findPhoto(s.photo_id)));
    return docs.filter((d) => isReadyOf(lotId, d)).map(toPhoto);
  }

  /** Deletes through a tombstone (the event cannot be lost), then frees the slot. */
  async delete(photo: Photo, events: DomainEvent[]): Promise<boolean> {
    const deleted = await this.stored.update(live(photo.id, 'ready'), tombstoneUpdate(events));
    if (deleted) await this.freeSlot(photo.lot_id, photo.position, photo.id);
    return deleted;
  }

  /**
   * Removes every record of a lot (ready photos and claims) without events: the lot is gone.
   * Safe to run again.
   */
  async purgeLot(lotId: number): Promise<number> {
    const slots = await this.slotsOf(lotId);
    for (const slot of slots) {
      await this.stored.remove({ _id: docKey(slot.photo_id), deleted_at: null });
      await this.freeSlot(lotId, slot.position, slot.photo_id);
    }
    return slots.length;
  }

  /** Claims older than `before`: uploads whose process died while working on them. */
  async staleClaims(before: Date): Promise<PhotoClaim[]> {
    const claims = (await this.stored.collection
      .find({ status: 'processing', created_at: { $lt: before } } as never)
      .limit(500)
      .toArray()) as unknown as StoredPhoto[];
    return claims
      .filter((c) => !c.deleted_at)
      .map((c) => ({ id: c.id, lot_id: c.lot_id, position: c.position, keys: c.keys }));
  }
}
