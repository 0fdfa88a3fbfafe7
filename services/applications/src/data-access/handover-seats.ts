// A slot's places across processes (issue 42). On FerretDB 1.24 a guarded `$inc` on the slot
// (free > 0) is a read and a separate write: two processes took the last place together (the
// cross-process suite booked 4 of 3). So a booking holds one of its slot's places as a unique key
// of its own document, `seat` = `s:<slot id>#k` with k up to the capacity, written in the same
// insert or update that books, moves or ends it (`h:<id>` once ended): a booking is one decision
// that takes a place or does not, no place is lost to a crash between two writes, and a slot's
// free and booked places are counted from its bookings, never kept beside them.
import type { Collection } from 'mongodb';
import type { HandoverDoc } from './models';

/** The k-th place of a slot. */
export const seatOf = (slotId: number, k: number): string => `s:${slotId}#${k}`;

/** The key of a booking that holds no place (ended). */
export const noSeat = (handoverId: number): string => `h:${handoverId}`;

/** The places of a slot its current bookings leave, first free first. */
export function freeSeats(slot: { id: number; capacity: number }, held: Set<string>): string[] {
  const free: string[] = [];
  for (let k = 1; k <= slot.capacity; k++)
    if (!held.has(seatOf(slot.id, k))) free.push(seatOf(slot.id, k));
  return free;
}

/**
 * At start, before the unique index: bookings stored before the places get theirs (each slot's
 * in id order), ended ones `h:<id>`. Another process doing the same at once writes the same.
 */
export async function backfillSeats(collection: Collection<HandoverDoc>): Promise<number> {
  const missing = await collection
    .find({ seat: { $exists: false } }, { projection: { _id: 1, slot_id: 1 } })
    .toArray();
  let written = 0;
  for (const slotId of new Set(missing.map((m) => m.slot_id))) {
    const all = await collection
      .find({ slot_id: slotId }, { projection: { _id: 1, id: 1, status: 1, seat: 1 } })
      .sort({ id: 1 })
      .toArray();
    const held = new Set(all.map((h) => h.seat).filter((s) => s?.startsWith('s:')));
    let k = 0;
    for (const h of all) {
      if (h.seat !== undefined) continue;
      let seat = noSeat(h.id);
      if (h.status === 'booked') {
        do k += 1;
        while (held.has(seatOf(slotId, k)));
        seat = seatOf(slotId, k);
      }
      await collection.updateOne({ _id: h._id, seat: { $exists: false } }, { $set: { seat } });
      written += 1;
    }
  }
  return written;
}
