import { randomUUID } from 'node:crypto';
import type { Connection } from '@furniture/platform';
import type { Collection } from 'mongoose';

/**
 * The CSV export's rows of closed months, stored once rendered (the unfiltered export of 100 000
 * entries otherwise has FerretDB decode every entry, about 17 CPU-seconds, on each export).
 *
 * A month is a head (`activity_export_months`, `_id` the month) naming its render and the row
 * count it was rendered from, and the render's text in parts (`activity_export_parts`, `_id`
 * `<month>/<render>/<i>`, each at most PART_BYTES of UTF-8: MongoDB's documents end at 16 MB). A
 * head is written after its parts, in one replace, so that two replicas rendering the same month
 * never mix their parts: the last head wins and names only its own parts. Parts no head names
 * are deleted by the background job after GRACE_MS (an export may still be reading them).
 *
 * An erasure of personal data (privacy-repository.ts) gives the months of the entries it strips a
 * new stamp (`activity_export_erasures`); a head is only used while its stamp is the month's
 * current one. Stamps are random, not counters: FerretDB applies an update as read, change,
 * write, so two replicas' increments could meet at the same number, two random stamps cannot.
 */
export interface StoredMonth {
  _id: string;
  render: string;
  /** the entries the text holds (the month's kept count when it was rendered, or one ahead) */
  rows: number;
  parts: number;
  /** csvFingerprint() of the format it was rendered in */
  fingerprint: string;
  /** the month's erasure stamp read before its entries were, null when it had none */
  erased: string | null;
  bytes: number;
  at: Date;
}

interface StoredPart {
  _id: string;
  month: string;
  render: string;
  text: string;
  at: Date;
}

interface ErasureStamp {
  _id: string;
  stamp: string;
  at: Date;
}

/** a part's limit in UTF-8 bytes, well under MongoDB's 16 MB document limit */
export const PART_BYTES = 4 * 1024 * 1024;
/** parts of a replaced render stay this long for exports still reading them */
const GRACE_MS = 10 * 60 * 1000;

export const EXPORT_MONTHS = 'activity_export_months';
export const EXPORT_PARTS = 'activity_export_parts';
export const EXPORT_ERASURES = 'activity_export_erasures';

export class ExportMonthStore {
  private readonly heads: Collection<StoredMonth>;
  private readonly partsCol: Collection<StoredPart>;
  private readonly erasures: Collection<ErasureStamp>;

  constructor(conn: Connection) {
    this.heads = conn.collection<StoredMonth>(EXPORT_MONTHS);
    this.partsCol = conn.collection<StoredPart>(EXPORT_PARTS);
    this.erasures = conn.collection<ErasureStamp>(EXPORT_ERASURES);
  }

  /** Every stored month's head and every month's erasure stamp (small documents, tens of them). */
  async read(): Promise<{ heads: Map<string, StoredMonth>; stamps: Map<string, string> }> {
    const [heads, stamps] = await Promise.all([
      this.heads.find({}).toArray(),
      this.erasures.find({}).toArray(),
    ]);
    return {
      heads: new Map(heads.map((h) => [h._id, h])),
      stamps: new Map(stamps.map((s) => [s._id, s.stamp])),
    };
  }

  /** One month's head, if stored. */
  head(month: string): Promise<StoredMonth | null> {
    return this.heads.findOne({ _id: month });
  }

  /** A head's text, part by part (each an `_id` lookup); null when a part is gone. */
  async text(head: StoredMonth): Promise<string | null> {
    const texts: string[] = [];
    for (let i = 0; i < head.parts; i++) {
      const part = await this.partsCol.findOne({ _id: `${head._id}/${head.render}/${i}` });
      if (!part) return null;
      texts.push(part.text);
    }
    return texts.join('');
  }

  /**
   * Stores a month's rendered rows: `pieces` are consecutive runs of rows, each with its text,
   * grouped into parts of at most PART_BYTES (a piece larger than that is a part of its own).
   */
  async save(
    month: string,
    render: {
      fingerprint: string;
      erased: string | null;
      pieces: { text: string; rows: number }[];
    },
  ): Promise<void> {
    const id = randomUUID();
    const at = new Date();
    let rows = 0;
    let bytes = 0;
    let parts = 0;
    let current: string[] = [];
    let currentBytes = 0;
    const flush = async () => {
      if (current.length === 0) return;
      await this.partsCol.insertOne({
        _id: `${month}/${id}/${parts}`,
        month,
        render: id,
        text: current.join(''),
        at,
      });
      parts++;
      current = [];
      currentBytes = 0;
    };
    for (const piece of render.pieces) {
      const size = Buffer.byteLength(piece.text);
      if (currentBytes > 0 && currentBytes + size > PART_BYTES) await flush();
      current.push(piece.text);
      currentBytes += size;
      rows += piece.rows;
      bytes += size;
    }
    await flush();
    await this.heads.replaceOne(
      { _id: month },
      {
        render: id,
        rows,
        parts,
        fingerprint: render.fingerprint,
        erased: render.erased,
        bytes,
        at,
      },
      { upsert: true },
    );
  }

  /**
   * Deletes the parts no head names (replaced renders, renders whose head was never written),
   * once older than GRACE_MS; answers how many. Reads every part (FerretDB decodes whole
   * documents whatever the projection, and a filter on `month` would have PostgreSQL unpack every
   * part's text to test it): run by the background job, never by an export.
   */
  async sweep(now = new Date()): Promise<number> {
    const heads = await this.heads.find({}, { projection: { _id: 1, render: 1 } }).toArray();
    const named = new Map(heads.map((h) => [h._id, h.render]));
    const parts = await this.partsCol
      .find({}, { projection: { _id: 1, month: 1, render: 1, at: 1 } })
      .toArray();
    const before = now.getTime() - GRACE_MS;
    let deleted = 0;
    for (const part of parts)
      if (named.get(part.month) !== part.render && part.at.getTime() < before) {
        await this.partsCol.deleteOne({ _id: part._id });
        deleted++;
      }
    return deleted;
  }

  /** Gives these months a new erasure stamp: their stored rows are rendered again. */
  async markErased(months: Iterable<string>): Promise<void> {
    const at = new Date();
    for (const month of new Set(months))
      await this.erasures.updateOne(
        { _id: month },
        { $set: { stamp: randomUUID(), at } },
        { upsert: true },
      );
  }
}
