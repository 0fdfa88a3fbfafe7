import { insertedUnlessTaken, type Store, type StoredCollection } from '@furniture/platform';

interface AnonymousQuotaDoc {
  /**
   * "<SHA-256 of the number>:<YYYY-MM-DD>", or "<share>:<n>" for a slot of a month's share or of
   * its whole budget
   */
  _id: string;
  /** the share a slot belongs to ("anonymous:whatsapp:2026-12"); null for a number's day */
  share: string | null;
  message_id: number;
  created_at: Date;
}

/**
 * What anonymous submissions' messages may use (issue 43), kept as unique keys that one message
 * wins (an insert wins or loses in every replica alike, so no limit is passed by running several):
 * a number's one message of the day (the number kept as its digest only), the numbered slots of
 * a month's share of a channel's budget, and (issue 42) those of the month's whole budget
 * (`budget:<channel>:<month>`: no more messages than the budget, from any number of senders).
 * Gone after 40 days.
 */
export class AnonymousQuotaRepository {
  private readonly stored: StoredCollection<AnonymousQuotaDoc>;

  constructor(store: Store) {
    this.stored = store.collection<AnonymousQuotaDoc>({
      name: 'message_anonymous_quota',
      key: '_id',
      expiry: { field: 'created_at', afterMs: 40 * 24 * 3600 * 1000 },
    });
  }

  private async win(_id: string, share: string | null, messageId: number): Promise<boolean> {
    return insertedUnlessTaken(() =>
      this.stored.insert({ _id, share, message_id: messageId, created_at: new Date() }),
    );
  }

  /** True when this message holds the number's day (it won it now, or earlier: a retry). */
  async takeDay(key: string, messageId: number): Promise<boolean> {
    if (await this.win(key, null, messageId)) return true;
    const held = await this.stored.collection.findOne(
      { _id: key },
      { projection: { message_id: 1 } },
    );
    return held?.message_id === messageId;
  }

  /** True when this message holds one of the share's slots already. */
  async holdsSlot(share: string, messageId: number): Promise<boolean> {
    const c = this.stored.collection;
    return (await c.findOne({ share, message_id: messageId }, { projection: { _id: 1 } })) !== null;
  }

  /** True when this message holds one of the share's `size` slots (now, or from an earlier try). */
  async takeSlot(share: string, size: number, messageId: number): Promise<boolean> {
    const c = this.stored.collection;
    if (await this.holdsSlot(share, messageId)) return true;
    const taken = await c.countDocuments({ share });
    // slots are won from the lowest free one up: below the count every slot is taken
    for (let n = taken; n < size; n++)
      if (await this.win(`${share}:${n}`, share, messageId)) return true;
    return false;
  }
}
