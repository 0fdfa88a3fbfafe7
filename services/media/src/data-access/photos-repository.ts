import type { DomainEvent, Photo, PhotoUrls } from '@furniture/contracts';
import {
  isDuplicateKeyError,
  nextId,
  tombstoneUpdate,
  withDocLock,
  withEvents,
  withLock,
  NOT_DELETED,
  type Connection,
} from '@furniture/platform';
import type { Models, PhotoDoc, PhotoKeys } from './models';

/** A claimed slot whose image is still being processed. */
export interface PhotoClaim {
  id: number;
  lot_id: number;
  position: number;
  keys: PhotoKeys;
}

/** Every slot of the lot is taken (ready photos and uploads in progress). */
export class NoFreeSlotError extends Error {
  constructor(readonly taken: number) {
    super('no free photo slot');
  }
}

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

const LIVE = { ...NOT_DELETED };
const READY = { ...NOT_DELETED, status: 'ready' } as const;

export class PhotosRepository {
  constructor(
    private readonly conn: Connection,
    private readonly models: Models,
    private readonly slots: number,
  ) {}

  private get collection() {
    return this.models.Photo.collection;
  }

  /** Slots held by ready photos and by uploads in progress. */
  async countTaken(lotId: number): Promise<number> {
    return this.models.Photo.countDocuments({ ...LIVE, lot_id: lotId });
  }

  /**
   * Claims the lowest free slot with an insert. The in-process lock spares this replica pointless
   * collisions; the unique (lot_id, position) index decides between replicas.
   */
  async claimSlot(
    lotId: number,
    data: { keys: (id: number) => PhotoKeys; created_by_user_id: number },
  ): Promise<PhotoClaim> {
    return withLock(`${this.conn.name}.photo-slots:${lotId}`, async () => {
      for (let attempt = 0; attempt <= this.slots; attempt++) {
        const taken = await this.models.Photo.find(
          { ...LIVE, lot_id: lotId },
          { position: 1, _id: 0 },
        ).lean<{ position: number }[]>();
        const used = new Set(taken.map((t) => t.position));
        const position = [...Array(this.slots).keys()].find((p) => !used.has(p));
        if (position === undefined) throw new NoFreeSlotError(taken.length);
        const id = await nextId(this.conn, 'photos');
        const now = new Date();
        const keys = data.keys(id);
        const doc: PhotoDoc = {
          id,
          lot_id: lotId,
          position,
          status: 'processing',
          keys,
          created_by_user_id: data.created_by_user_id,
          created_at: now,
          updated_at: now,
        };
        try {
          await this.collection.insertOne({ ...doc });
          return { id, lot_id: lotId, position, keys };
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
          // another replica took this slot meanwhile: look again
        }
      }
      throw new NoFreeSlotError(this.slots);
    });
  }

  /** Turns the claim into a ready photo with its event; null when the claim is gone (lot deleted). */
  async finish(
    claim: PhotoClaim,
    data: { urls: PhotoUrls; width: number; height: number; bytes: number },
    events: (photo: Photo) => DomainEvent[],
  ): Promise<Photo | null> {
    return withDocLock(this.collection, claim.id, async () => {
      const doc = await this.models.Photo.findOne({
        ...LIVE,
        id: claim.id,
        status: 'processing',
      }).lean<PhotoDoc>();
      if (!doc) return null;
      const now = new Date();
      const photo = toPhoto({ ...doc, ...data, status: 'ready', updated_at: now });
      const res = await this.collection.updateOne(
        { ...LIVE, id: claim.id, status: 'processing' },
        withEvents({ $set: { ...data, status: 'ready', updated_at: now } }, events(photo)),
      );
      return res.matchedCount === 1 ? photo : null;
    });
  }

  /** Gives a claim's slot back after a failed upload. */
  async releaseClaim(id: number): Promise<void> {
    await withDocLock(this.collection, id, () =>
      this.collection.deleteOne({ id, status: 'processing' }),
    );
  }

  async findReady(lotId: number, id: number): Promise<Photo | null> {
    const doc = await this.models.Photo.findOne({ ...READY, lot_id: lotId, id }).lean<PhotoDoc>();
    return doc ? toPhoto(doc) : null;
  }

  async listReady(lotId: number): Promise<Photo[]> {
    const docs = await this.models.Photo.find({ ...READY, lot_id: lotId })
      .sort({ position: 1 })
      .lean<PhotoDoc[]>();
    return docs.map(toPhoto);
  }

  /** Deletes through a tombstone (the event cannot be lost); the slot is free at once. */
  async delete(photo: Photo, events: DomainEvent[]): Promise<boolean> {
    const res = await withDocLock(this.collection, photo.id, () =>
      this.collection.updateOne(
        { ...READY, id: photo.id },
        tombstoneUpdate(events, { position: -photo.id }),
      ),
    );
    return res.matchedCount === 1;
  }

  /** Every live record of a lot, claims included (a deleted lot takes them all along). */
  async listAllOfLot(lotId: number): Promise<{ id: number; keys: PhotoKeys }[]> {
    return this.models.Photo.find({ ...LIVE, lot_id: lotId }, { id: 1, keys: 1, _id: 0 }).lean<
      { id: number; keys: PhotoKeys }[]
    >();
  }

  /** Removes a record without an event (the lot it belonged to is gone). */
  async purge(id: number): Promise<void> {
    await withDocLock(this.collection, id, () => this.collection.deleteOne({ ...LIVE, id }));
  }

  /** Claims older than `before`: uploads whose process died while working on them. */
  async staleClaims(before: Date): Promise<{ id: number; keys: PhotoKeys }[]> {
    return this.models.Photo.find(
      { ...LIVE, status: 'processing', created_at: { $lt: before } },
      { id: 1, keys: 1, _id: 0 },
    )
      .limit(500)
      .lean<{ id: number; keys: PhotoKeys }[]>();
  }
}
