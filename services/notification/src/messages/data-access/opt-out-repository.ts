import type { MessageChannel, StoredRecord } from '@furniture/contracts';
import { insertedUnlessTaken, type Store, type StoredCollection } from '@furniture/platform';
import type { BudgetWarningDoc, OptOutDoc } from './models';

/** Opt-outs by channel and the number's hash (the number itself is not kept). */
export class OptOutRepository {
  private readonly stored: StoredCollection<OptOutDoc>;

  constructor(store: Store) {
    this.stored = store.collection<OptOutDoc>({ name: 'message_opt_outs', key: '_id' });
  }

  async isOptedOut(channel: MessageChannel, phoneHash: string): Promise<boolean> {
    return this.stored.exists({ _id: `${channel}:${phoneHash}` });
  }

  /** Opts the number out of the channel; false when it was already. */
  optOut(channel: MessageChannel, phoneHash: string, by: OptOutDoc['by']): Promise<boolean> {
    return insertedUnlessTaken(() =>
      this.stored.insert({
        _id: `${channel}:${phoneHash}`,
        channel,
        phone_hash: phoneHash,
        by,
        since: new Date(),
      }),
    );
  }

  /** Opts the number back in; false when it was not opted out. */
  optIn(channel: MessageChannel, phoneHash: string): Promise<boolean> {
    return this.stored.remove({ _id: `${channel}:${phoneHash}` });
  }

  /** The opt-outs of these numbers' hashes (privacy records). */
  async ofHashes(hashes: string[]): Promise<StoredRecord[]> {
    if (hashes.length === 0) return [];
    const docs = await this.stored.find({ phone_hash: { $in: hashes } }, { sort: { since: 1 } });
    return docs.map((d) => ({
      channel: d.channel,
      by: d.by,
      since: d.since.toISOString(),
    }));
  }
}

/** The month's budget warnings: one per channel and month. */
export class BudgetWarningRepository {
  private readonly stored: StoredCollection<BudgetWarningDoc>;

  constructor(store: Store) {
    this.stored = store.collection<BudgetWarningDoc>({
      name: 'message_budget_warnings',
      key: '_id',
    });
  }

  /** True for the one caller (of every replica) that records this channel's month's warning. */
  record(channel: MessageChannel, month: string, used: number, budget: number): Promise<boolean> {
    return insertedUnlessTaken(() =>
      this.stored.insert({
        _id: `${channel}:${month}`,
        channel,
        month,
        used,
        budget,
        created_at: new Date(),
      }),
    );
  }
}
