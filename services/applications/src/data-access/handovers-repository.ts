import type { DomainEvent, HandoverStatus, SlotKind } from '@furniture/contracts';
import {
  insertedUnlessTaken,
  isDuplicateKeyError,
  nextId,
  type Connection,
  type Store,
  type StoredCollection,
} from '@furniture/platform';
import type { QueryFilter } from 'mongoose';
import {
  activeKey,
  type HandoverFollowUp,
  type HandoverRecord,
  type ItemCheck,
  type LocationRecord,
  type SlotRecord,
} from '../domain/handover-records';
import { freeSeats, noSeat } from './handover-seats';
import type { HandoverDoc, LocationDoc, SlotDoc } from './models';

function toLocation(d: LocationDoc): LocationRecord {
  return {
    id: d.id,
    name: d.name,
    address: d.address,
    city: d.city,
    notes: d.notes ?? null,
    active: d.active ?? true,
    feed_seed: d.feed_seed,
    feed_key_hashes: d.feed_key_hashes ?? [],
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

/** A slot with its places counted from its bookings (handover-seats.ts). */
function toSlot(d: SlotDoc, booked: number): SlotRecord {
  return {
    id: d.id,
    location_id: d.location_id,
    kind: d.kind,
    starts_at: d.starts_at,
    ends_at: d.ends_at,
    day: d.day,
    capacity: d.capacity,
    free: Math.max(0, d.capacity - booked),
    booked,
    created_at: d.created_at,
  };
}

function toHandover(d: HandoverDoc): HandoverRecord {
  return {
    id: d.id,
    application_id: d.application_id ?? null,
    donation_id: d.donation_id ?? null,
    slot_id: d.slot_id,
    kind: d.kind,
    location_id: d.location_id,
    starts_at: d.starts_at,
    ends_at: d.ends_at,
    day: d.day,
    status: d.status,
    position: d.position ?? null,
    note: d.note ?? null,
    by: d.by,
    reminded_at: d.reminded_at ?? null,
    follow_up: d.follow_up ?? null,
    closed_by: d.closed_by ?? null,
    closed_at: d.closed_at ?? null,
    created_at: d.created_at,
    updated_at: d.updated_at,
    item_check: d.item_check ?? null,
  };
}

/** The slot fields a handover copies (it outlives a deleted slot). */
const slotFields = (slot: SlotRecord) => ({
  slot_id: slot.id,
  kind: slot.kind,
  location_id: slot.location_id,
  starts_at: slot.starts_at,
  ends_at: slot.ends_at,
  day: slot.day,
});

export type NewHandover = Pick<
  HandoverRecord,
  'application_id' | 'donation_id' | 'by' | 'position'
> & { slot: SlotRecord };

/**
 * Locations, slots and handovers (issue 29), written through the store (each write in its
 * document's turn, guarded by what it was decided on; events in the same write). A booking holds
 * one of its slot's places as the unique `seat` of its own document (handover-seats.ts), so a
 * slot never holds more bookings than its capacity, across processes too; one booking per
 * application or donation rests on the unique `active_key`.
 */
export class HandoversRepository {
  private readonly locations: StoredCollection<LocationDoc>;
  private readonly slots: StoredCollection<SlotDoc>;
  private readonly handovers: StoredCollection<HandoverDoc>;

  constructor(
    store: Store,
    private readonly conn: Connection,
  ) {
    this.locations = store.collection<LocationDoc>({ name: 'locations' });
    this.slots = store.collection<SlotDoc>({ name: 'slots' });
    this.handovers = store.collection<HandoverDoc>({ name: 'handovers' });
  }

  // ---- locations ----

  async insertLocation(
    data: Omit<LocationRecord, 'id' | 'created_at' | 'updated_at'>,
  ): Promise<LocationRecord> {
    const now = new Date();
    const doc: LocationDoc = {
      ...data,
      id: await nextId(this.conn, 'locations'),
      created_at: now,
      updated_at: now,
    };
    await this.locations.insert({ ...doc });
    return toLocation(doc);
  }

  /** Locations whose feed key is stored in clear (before issue 43): id and key. */
  async clearFeedKeys(): Promise<{ id: number; key: string }[]> {
    const docs = await this.locations.find(
      { feed_key: { $type: 'string' } },
      { projection: { id: 1, feed_key: 1 } },
    );
    // a field of the version before issue 43, not of LocationDoc
    return docs.map((d) => ({ id: d.id, key: (d as { feed_key?: string }).feed_key! }));
  }

  /** A clear feed key replaced by a seed and the digests of the keys the feed accepts. */
  async replaceClearFeedKey(id: number, key: string, seed: string, hashes: string[]) {
    await this.locations.update(
      { id, feed_key: key },
      { $set: { feed_seed: seed, feed_key_hashes: hashes }, $unset: { feed_key: '' } },
    );
  }

  async findLocation(id: number): Promise<LocationRecord | null> {
    const doc = await this.locations.findOne({ id });
    return doc ? toLocation(doc) : null;
  }

  async listLocations(): Promise<LocationRecord[]> {
    const docs = await this.locations.find({}, { sort: { id: 1 } });
    return docs.map(toLocation);
  }

  async updateLocation(
    id: number,
    set: Partial<Omit<LocationRecord, 'id' | 'created_at' | 'feed_seed' | 'feed_key_hashes'>>,
  ): Promise<LocationRecord | null> {
    const done = await this.locations.update({ id }, { $set: { ...set, updated_at: new Date() } });
    return done ? this.findLocation(id) : null;
  }

  // ---- slots ----

  async insertSlot(
    data: Omit<SlotRecord, 'id' | 'free' | 'booked' | 'created_at'>,
  ): Promise<SlotRecord> {
    const doc: SlotDoc = {
      ...data,
      id: await nextId(this.conn, 'slots'),
      free: data.capacity,
      booked: 0,
      created_at: new Date(),
    };
    await this.slots.insert({ ...doc });
    return toSlot(doc, 0);
  }

  async findSlot(id: number): Promise<SlotRecord | null> {
    const doc = await this.slots.findOne({ id });
    return doc ? toSlot(doc, (await this.heldSeats(id)).size) : null;
  }

  /** The places of a slot its bookings hold. */
  private async heldSeats(slotId: number): Promise<Set<string>> {
    const docs = await this.handovers.find(
      { slot_id: slotId, status: 'booked' },
      { projection: { _id: 0, seat: 1 } },
    );
    return new Set(docs.map((d) => d.seat ?? ''));
  }

  /** Slots starting in [from, to), earliest first; `freeOnly`: those with a free place. */
  async listSlots(q: {
    from: Date;
    to: Date;
    location_id?: number;
    kinds?: readonly SlotKind[];
    freeOnly?: boolean;
  }): Promise<SlotRecord[]> {
    const filter: QueryFilter<SlotDoc> = { starts_at: { $gte: q.from, $lt: q.to } };
    if (q.location_id !== undefined) filter.location_id = q.location_id;
    if (q.kinds) filter.kind = { $in: [...q.kinds] };
    const [docs, bookings] = await Promise.all([
      this.slots.find(filter, {
        sort: { starts_at: 1, id: 1 },
        limit: 2000,
      }),
      // a booking copies its slot's start: the bookings of these slots in one read
      this.handovers.find(
        { status: 'booked', starts_at: { $gte: q.from, $lt: q.to } },
        { projection: { _id: 0, slot_id: 1 } },
      ),
    ]);
    const booked = new Map<number, number>();
    for (const b of bookings) booked.set(b.slot_id, (booked.get(b.slot_id) ?? 0) + 1);
    const slots = docs.map((d) => toSlot(d, booked.get(d.id) ?? 0));
    return q.freeOnly ? slots.filter((s) => s.free > 0) : slots;
  }

  /**
   * Deletes a slot nobody is booked on; false when it has bookings (or is gone). A booking that
   * lands between the count and the removal keeps its copy of the slot (docs/decisions.md).
   */
  async removeSlot(id: number): Promise<boolean> {
    if ((await this.heldSeats(id)).size > 0) return false;
    return this.slots.remove({ id });
  }

  // ---- handovers ----

  /**
   * Stores a new booking with its events and one place of its slot, in one insert (the unique
   * seat, handover-seats.ts); `full` when the slot has no place left, null when the application
   * or donation already holds a booking (the unique active key).
   */
  async insertHandover(
    data: NewHandover,
    events: (h: HandoverRecord) => DomainEvent[],
  ): Promise<HandoverRecord | 'full' | null> {
    const now = new Date();
    const { slot, ...rest } = data;
    const id = await nextId(this.conn, 'handovers');
    for (let attempt = 1; ; attempt++) {
      const [seat] = freeSeats(slot, await this.heldSeats(slot.id));
      if (!seat) return 'full';
      const doc: HandoverDoc = {
        ...rest,
        ...slotFields(slot),
        id,
        active_key: activeKey(data),
        seat,
        status: 'booked',
        note: null,
        reminded_at: null,
        follow_up: null,
        closed_by: null,
        closed_at: null,
        created_at: now,
        updated_at: now,
      };
      const record = toHandover(doc);
      if (await insertedUnlessTaken(() => this.handovers.insert({ ...doc }, events(record)))) {
        return record;
      }
      const holder = await this.handovers.findOne(
        { active_key: doc.active_key },
        { projection: { _id: 0, id: 1 } },
      );
      if (holder) return null;
      // another booking took the place first: the places are counted again
      if (attempt >= 50)
        throw new Error(`slot ${slot.id}: no place decided after ${attempt} tries`);
    }
  }

  async findHandover(id: number): Promise<HandoverRecord | null> {
    const doc = await this.handovers.findOne({ id });
    return doc ? toHandover(doc) : null;
  }

  /** The booking an application or donation holds now, if any. */
  async bookedOf(
    of:
      | { application_id: number; donation_id?: null }
      | { donation_id: number; application_id?: null },
  ): Promise<HandoverRecord | null> {
    const key = activeKey({
      application_id: of.application_id ?? null,
      donation_id: of.donation_id ?? null,
    });
    const doc = await this.handovers.findOne({ active_key: key });
    return doc && doc.status === 'booked' ? toHandover(doc) : null;
  }

  /**
   * Moves a booking to a place of another slot (reminder to come again), giving its old place
   * back in the same write; `full` when the slot has none left, null when the booking changed
   * meanwhile.
   */
  async moveHandover(
    h: HandoverRecord,
    slot: SlotRecord,
    by: 'family' | 'staff',
    events: (after: HandoverRecord) => DomainEvent[],
  ): Promise<HandoverRecord | 'full' | null> {
    for (let attempt = 1; ; attempt++) {
      const [seat] = freeSeats(slot, await this.heldSeats(slot.id));
      if (!seat) return 'full';
      const set = {
        ...slotFields(slot),
        seat,
        by,
        reminded_at: null,
        position: null,
        updated_at: new Date(),
      };
      const { seat: _seat, ...moved } = set;
      const after: HandoverRecord = { ...h, ...moved };
      try {
        const done = await this.write(
          h.id,
          { status: 'booked', slot_id: h.slot_id },
          { $set: set },
          events(after),
        );
        return done ? after : null;
      } catch (err) {
        // another booking took the place first
        if (!isDuplicateKeyError(err) || attempt >= 50) throw err;
      }
    }
  }

  /**
   * Ends a booking (cancelled, done, absent, missed) with its events; its active key is freed.
   * null when it was no longer booked.
   */
  async endHandover(
    h: HandoverRecord,
    status: Exclude<HandoverStatus, 'booked'>,
    extra: Partial<Pick<HandoverRecord, 'note' | 'follow_up' | 'closed_by'>>,
    events: (after: HandoverRecord) => DomainEvent[],
  ): Promise<HandoverRecord | null> {
    const now = new Date();
    const set = {
      ...extra,
      status,
      active_key: `ended:${h.id}`,
      seat: noSeat(h.id),
      closed_at: now,
      updated_at: now,
    };
    const after: HandoverRecord = { ...h, ...set };
    const done = await this.write(
      h.id,
      { status: 'booked', slot_id: h.slot_id },
      { $set: set },
      events(after),
    );
    return done ? after : null;
  }

  /** The item's scan at a booked stop (issue 45), with its event; false once it is closed. */
  recordItemCheck(h: HandoverRecord, check: ItemCheck, events: DomainEvent[]): Promise<boolean> {
    return this.write(
      h.id,
      { status: 'booked' },
      { $set: { item_check: check, updated_at: new Date() } },
      events,
    );
  }

  /** The reminder of a booking is given, once (still booked on the same slot), with its event. */
  markReminded(h: HandoverRecord, events: DomainEvent[]): Promise<boolean> {
    return this.write(
      h.id,
      { status: 'booked', slot_id: h.slot_id, reminded_at: null },
      { $set: { reminded_at: new Date() } },
      events,
    );
  }

  /** The outcome's follow-up is done (or no longer applies). */
  async clearFollowUp(id: number, followUp: HandoverFollowUp): Promise<void> {
    await this.handovers.update({ id, follow_up: followUp }, { $set: { follow_up: null } });
  }

  /** The day plan's order: each stop's position (only stops of that day). */
  async setPositions(day: string, ids: number[]): Promise<void> {
    for (const [i, id] of ids.entries())
      await this.handovers.update(
        { id, day },
        { $set: { position: i + 1, updated_at: new Date() } },
      );
  }

  /** The stops of a day (cancelled ones left out), in no particular order. */
  async ofDay(day: string): Promise<HandoverRecord[]> {
    const docs = await this.handovers.find({ day });
    return docs.map(toHandover).filter((h) => h.status !== 'cancelled');
  }

  /** A location's stops starting from `from` (its iCal feed), earliest first. */
  async ofLocationFrom(locationId: number, from: Date, limit = 1000): Promise<HandoverRecord[]> {
    const docs = await this.handovers.find(
      { location_id: locationId, starts_at: { $gte: from } },
      { sort: { starts_at: 1 }, limit },
    );
    return docs.map(toHandover);
  }

  /** Booked stops starting before `before` (the reminders and the missed look), earliest first. */
  async bookedBefore(field: 'starts_at' | 'ends_at', before: Date, limit = 500) {
    const docs = await this.handovers.find(
      { status: 'booked', [field]: { $lt: before } } as QueryFilter<HandoverDoc>,
      { sort: { starts_at: 1 }, limit },
    );
    return docs.map(toHandover);
  }

  /** Every booked family stop (the job's look for bookings of applications that ended). */
  async bookedOfApplications(limit = 2000): Promise<HandoverRecord[]> {
    const docs = await this.handovers.find(
      { status: 'booked', application_id: { $ne: null } },
      { limit },
    );
    return docs.map(toHandover);
  }

  /** Closed stops whose follow-up is still to do, last changed before `before`. */
  async pendingFollowUps(before: Date, limit = 200): Promise<HandoverRecord[]> {
    const docs = await this.handovers.find(
      { follow_up: { $ne: null }, updated_at: { $lt: before } },
      { limit },
    );
    return docs.map(toHandover);
  }

  // ---- data protection ----

  /** An application's handovers as stored (the privacy lookup), oldest first. */
  async storedOfApplications(ids: number[]): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    for (const id of ids) {
      const docs = await this.handovers.find(
        { application_id: id },
        { projection: { _id: 0 }, sort: { id: 1 } },
      );
      for (const d of docs)
        out.push(
          Object.fromEntries(
            Object.entries(d).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
          ),
        );
    }
    return out;
  }

  /** The outcome notes of an application's handovers are cleared (its erasure). */
  async clearNotesOf(applicationId: number): Promise<void> {
    const docs = await this.handovers.find(
      { application_id: applicationId, note: { $ne: null } },
      { projection: { id: 1 } },
    );
    for (const d of docs) await this.handovers.update({ id: d.id }, { $set: { note: null } });
  }

  /** Notes of stops closed before `before` are cleared (retention); answers how many. */
  async clearNotesClosedBefore(before: Date, limit = 500): Promise<number> {
    const docs = await this.handovers.find(
      { note: { $ne: null }, closed_at: { $lt: before } },
      { limit, projection: { id: 1 } },
    );
    for (const d of docs) await this.handovers.update({ id: d.id }, { $set: { note: null } });
    return docs.length;
  }

  private async write(
    id: number,
    guard: Record<string, unknown>,
    update: Record<string, unknown>,
    events: DomainEvent[],
  ): Promise<boolean> {
    const done = await this.handovers.update(
      { id, ...guard },
      update,
      events.length > 0 ? events : undefined,
    );
    return done;
  }
}
