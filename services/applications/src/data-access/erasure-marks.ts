// Erasure against a new submission of the same phone (issue 42). An erasure on request reads the
// phone's applications and erases them; a submission of that phone landing between the read and
// the end would survive an erasure that reports success. Across processes no lock can order the
// two, so each side writes before it reads the other's write: the erasure stores its mark (the
// phone's digest, never the number) and only then reads the applications; a submission stores its
// application and only then looks for a mark. Whichever write came second, its reader sees the
// first: either the erasure finds the new application (open: it refuses, PRIVACY_OPEN_RECORDS), or
// the submission finds the mark (it erases what it stored and answers 409 ERASURE_RUNNING). An
// erasure may end between the two: its mark stays, saying when it ended, and the submission
// counts every mark that ended after it began (clocks of pods differ by far less than a write).
import { randomUUID } from 'node:crypto';
import type { Store, StoredCollection } from '@furniture/platform';
import { phoneDigest } from './applications-keys';

interface MarkDoc {
  _id: string;
  phone_key: string;
  until: Date;
}

/** An erasure outlasting this is over (its process died): its mark no longer holds anyone up. */
const MARK_MS = 120_000;

export class ErasureMarks {
  private readonly stored: StoredCollection<MarkDoc>;

  constructor(store: Store) {
    this.stored = store.collection<MarkDoc>({
      name: 'erasure_marks',
      key: '_id',
      indexes: [{ phone_key: 1, until: 1 }],
      expiry: { field: 'until' },
    });
  }

  /** Runs an erasure of `e164` under its mark (stored before `erase` reads anything). */
  async during<T>(e164: string, erase: () => Promise<T>): Promise<T> {
    const _id = randomUUID();
    const until = new Date(Date.now() + MARK_MS);
    await this.stored.insert({ _id, phone_key: phoneDigest(e164), until });
    try {
      return await erase();
    } finally {
      // ended: kept until the hourly purge of ended marks, saying when it ended
      await this.stored.collection
        .updateOne({ _id }, { $set: { until: new Date() } })
        .catch(() => undefined);
    }
  }

  /**
   * Did an erasure of this phone run at any moment since `begun` (asked after the submission's
   * write, with the moment the submission began)? An erasure that ended after the submission
   * began may have read the applications before it was stored: an ended mark counts too.
   */
  async ranSince(e164: string, begun: Date): Promise<boolean> {
    const found = await this.stored.collection.findOne(
      { phone_key: phoneDigest(e164), until: { $gt: begun } },
      { projection: { _id: 1 } },
    );
    return found !== null;
  }
}
