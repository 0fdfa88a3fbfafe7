import { insertedUnlessTaken, type Store, type StoredCollection } from '@furniture/platform';

interface ReferralQuotaDoc {
  /** "<day's share>:<n>": one numbered place of a referrer's day */
  _id: string;
  /** "<referrer id>:<YYYY-MM-DD>" (the office's day) */
  share: string;
  created_at: Date;
}

/** A day's places are kept two days (the office day ends within one in any time zone). */
const KEPT_MS = 2 * 24 * 3600 * 1000;

/**
 * The referrals a referrer may make in a day (issue 44), as numbered places that one referral
 * wins: an insert wins or loses in every replica alike (a unique `_id`), so several processes
 * together never let a referrer pass the limit (an `$inc` would not hold on FerretDB, see
 * "Invariants across processes" in docs/decisions.md). Places are won from the lowest free one
 * up, and kept: a referral refused after its place (a duplicate, a lot gone) still counts.
 */
export class ReferralQuotaRepository {
  private readonly stored: StoredCollection<ReferralQuotaDoc>;

  constructor(store: Store) {
    this.stored = store.collection<ReferralQuotaDoc>({
      name: 'referral_quota',
      key: '_id',
      indexes: [{ share: 1 }],
      expiry: { field: 'created_at', afterMs: KEPT_MS },
    });
  }

  /** True when a place of the share's `size` was won now; false when all are taken. */
  async take(share: string, size: number): Promise<boolean> {
    const taken = await this.stored.collection.countDocuments({ share });
    // below the count every place is taken (none is ever given back within its day)
    for (let n = taken; n < size; n++) {
      const won = await insertedUnlessTaken(() =>
        this.stored.insert({ _id: `${share}:${n}`, share, created_at: new Date() }),
      );
      if (won) return true;
    }
    return false;
  }
}
