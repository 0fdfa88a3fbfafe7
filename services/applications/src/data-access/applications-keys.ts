// The unique keys that make a submission one decision across processes (issue 42). On FerretDB
// 1.24 an update with a filter is a read and a separate write, so a check before an insert
// ("fewer than 5 open", "the queue holds n") does not hold between two processes; a unique index
// does, there and on MongoDB. So the application's insert itself claims:
// - its ticket in the lot's queue: `queue_ticket`, unique per lot, drawn as the lot's highest
//   ticket + 1. Two submissions that read the same highest ticket collide and the loser draws
//   again, so every ticket below a stored one was stored before it, and the place told (1 + the
//   lot's open applications) is the place the lists show (the queue is in ticket order).
// - one of its phone's MAX_OPEN_APPLICATIONS_PER_PHONE open places: `phone_slot`, unique,
//   `p:<digest of the phone>#k`. A place whose holder was closed since is given back (`a:<id>`)
//   by the next submission of that phone that needs it, so no status change has to know of it.
import { createHash } from 'node:crypto';
import type { Collection } from 'mongodb';
import type { ApplicationStatus } from '@furniture/contracts';
import { isDuplicateKeyError } from '@furniture/platform';
import { OPEN_STATUSES } from '../domain/records';
import type { ApplicationDoc } from './models';

/** A phone as keys name it: a digest, never the number. */
export const phoneDigest = (phone: string): string =>
  createHash('sha256').update(phone, 'utf8').digest('hex').slice(0, 32);

/** The phone's k-th open place (the phone itself never becomes a key: only its digest). */
export function phoneSlot(phone: string, k: number): string {
  return `p:${phoneDigest(phone)}#${k}`;
}

/** The key of an application that holds no open place of its phone. */
export const noPhoneSlot = (id: number): string => `a:${id}`;

/** Whether an application (as stored) holds its lot's queue place and its phone's open place. */
export const holdsOpenPlace = (a: { status: ApplicationStatus; deleted_at?: Date | null }) =>
  OPEN_STATUSES.includes(a.status) && !a.deleted_at;

/**
 * At start, before the unique indexes: applications stored before the keys get theirs (ticket =
 * id, which keeps their queue order; each phone's open ones its first places, in id order).
 * Another process doing the same at the same moment writes the same values.
 */
export async function backfillApplicationKeys(
  collection: Collection<ApplicationDoc>,
  maxOpenPerPhone: number,
): Promise<number> {
  const docs = await collection
    .find(
      { $or: [{ queue_ticket: { $exists: false } }, { phone_slot: { $exists: false } }] },
      { projection: { _id: 1, id: 1, applicant_phone: 1 } },
    )
    .toArray();
  const phones = new Set(docs.map((d) => d.applicant_phone));
  let written = 0;
  for (const phone of phones) {
    const all = await collection
      .find(
        { applicant_phone: phone },
        { projection: { _id: 1, id: 1, status: 1, deleted_at: 1, queue_ticket: 1, phone_slot: 1 } },
      )
      .sort({ id: 1 })
      .toArray();
    const taken = new Set(all.map((a) => a.phone_slot).filter((s) => s?.startsWith('p:')));
    for (const app of all) {
      const set: Partial<ApplicationDoc> = {};
      if (app.queue_ticket === undefined) set.queue_ticket = app.id;
      if (app.phone_slot === undefined) {
        let slot = noPhoneSlot(app.id);
        for (let k = 1; k <= maxOpenPerPhone && holdsOpenPlace(app); k++) {
          const key = phoneSlot(phone, k);
          if (taken.has(key)) continue;
          taken.add(key);
          slot = key;
          break;
        }
        set.phone_slot = slot;
      }
      if (Object.keys(set).length === 0) continue;
      try {
        await collection.updateOne({ _id: app._id }, { $set: set });
        written += 1;
      } catch (err) {
        // another process gave the place to another of the phone's applications meanwhile
        if (!isDuplicateKeyError(err)) throw err;
        await collection.updateOne(
          { _id: app._id },
          { $set: { ...set, phone_slot: noPhoneSlot(app.id) } },
        );
        written += 1;
      }
    }
  }
  return written;
}
