import type { ActivityLogEntry } from '@furniture/contracts';
import { localDay } from '@furniture/platform/domain';
import type { ActivityRepository, LogMonth } from '../data-access/activity-repository';
import type { StoredMonth } from '../data-access/export-month-store';
import { csvFingerprint, csvHead, csvText, type CsvFormat } from './activity-csv';
import { unfiltered, type ActivityQuery } from './records';

/** A run of the export's rows as text, with how many rows it holds. */
export interface CsvPiece {
  text: string;
  rows: number;
}

/** months an export stores at a time beside sending them */
const SAVING = 2;

/** rows rendered at a time: a piece stays far below a stored part's limit (rows of ≤ 30 kB) */
const BATCH = 100;

function* pieces(entries: ActivityLogEntry[], f: CsvFormat): Generator<CsvPiece> {
  for (let i = 0; i < entries.length; i += BATCH) {
    const batch = entries.slice(i, i + BATCH);
    yield { text: csvText(batch, f), rows: batch.length };
  }
}

/**
 * The CSV export of the activity log.
 *
 * Unfiltered, the log is written month by month (months by the entries' `day`, the office's
 * calendar day, as the export's local times are). A closed month (before the current one in the
 * office's time zone) is sent from its stored rows (ExportMonthStore) while they are valid: the
 * same format (csvFingerprint), as many rows as the month's kept count, and no erasure since they
 * were rendered. Otherwise it is rendered from its entries and its rows stored for the next
 * export.
 * A late entry of a closed month raises its count, so its stored rows are rendered again; the
 * current month is always rendered. Filtered exports read the matching entries as before.
 */
export class ActivityCsvExport {
  private readonly fingerprint: string;
  /** closed months being rendered in this process (an export and the warm-up share them) */
  private readonly rendering = new Map<string, Promise<CsvPiece[]>>();

  constructor(
    private readonly repo: ActivityRepository,
    private readonly format: CsvFormat,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.fingerprint = csvFingerprint(format);
  }

  private currentMonth(): string {
    return localDay(this.now(), this.format.timeZone).slice(0, 7);
  }

  /** The stored rows of a month when they are valid (see the class). */
  private valid(
    m: LogMonth,
    current: string,
    head: StoredMonth | null | undefined,
    stamps: Map<string, string>,
  ): StoredMonth | undefined {
    return head &&
      m.month < current &&
      head.fingerprint === this.fingerprint &&
      head.rows === m.count &&
      head.erased === (stamps.get(m.month) ?? null)
      ? head
      : undefined;
  }

  /**
   * A month's rows rendered from its entries; one render per month, count and erasure stamp at a
   * time in this process (the same entries give the same rows).
   */
  private render(m: LogMonth, stamp: string | null): Promise<CsvPiece[]> {
    const key = `${m.month}|${m.count}|${stamp}`;
    let running = this.rendering.get(key);
    if (!running) {
      running = this.repo.monthEntries(m).then((entries) => [...pieces(entries, this.format)]);
      this.rendering.set(key, running);
      const forget = () => this.rendering.delete(key);
      running.then(forget, forget);
    }
    return running;
  }

  /** The export as text pieces: the BOM and header, then the rows, newest first. */
  async *pieces(q: ActivityQuery): AsyncGenerator<CsvPiece> {
    const f = this.format;
    yield { text: csvHead(f), rows: 0 };
    const months = unfiltered(q) ? await this.repo.months() : null;
    if (!months) {
      const batch: ActivityLogEntry[] = [];
      for await (const entry of this.repo.stream(q))
        if (batch.push(entry) === BATCH) yield* pieces(batch.splice(0), f);
      yield* pieces(batch, f);
      return;
    }
    const current = this.currentMonth();
    // the erasure stamps are read before any entry: rows rendered from entries an erasure strips
    // while this export runs carry the stamp before it, and are not used again
    const { heads, stamps } = await this.repo.stored.read();
    let saving = 0;
    const read = async (m: LogMonth): Promise<CsvPiece[]> => {
      const head = this.valid(m, current, heads.get(m.month), stamps);
      if (head) {
        const text = await this.repo.stored.text(head);
        if (text !== null) return [{ text, rows: head.rows }];
      }
      const stamp = stamps.get(m.month) ?? null;
      const out = await this.render(m, stamp);
      // stored beside the export, never waited for: at most SAVING months at a time (their rows
      // held until written), the others are left to the background job or the next export
      if (m.month < current && saving < SAVING) {
        saving++;
        void this.repo.stored
          .save(m.month, { fingerprint: this.fingerprint, erased: stamp, pieces: out })
          .catch(() => undefined)
          .finally(() => saving--);
      }
      return out;
    };
    // the next month is read while this one is written out (FerretDB's work overlaps ours); two
    // months in memory at most
    let next = months.length > 0 ? read(months[0]!) : null;
    for (let i = 0; i < months.length; i++) {
      const out = await next!;
      next = i + 1 < months.length ? read(months[i + 1]!) : null;
      next?.catch(() => undefined); // awaited in the next round; an export cut short drops it
      yield* out;
    }
  }

  /**
   * Renders and stores the closed months whose stored rows are missing or stale, one at a time
   * (after a start, an upgrade or a month's end, so that the next export finds them); answers how
   * many. Nothing while the counts are being rebuilt.
   */
  async storeClosedMonths(): Promise<number> {
    const months = await this.repo.months();
    if (!months) return 0;
    const current = this.currentMonth();
    const { heads, stamps } = await this.repo.stored.read();
    let stored = 0;
    for (const m of months) {
      if (m.month >= current) continue;
      if (this.valid(m, current, heads.get(m.month), stamps)) continue;
      // an export may have stored it meanwhile
      if (this.valid(m, current, await this.repo.stored.head(m.month), stamps)) continue;
      const stamp = stamps.get(m.month) ?? null;
      const out = await this.render(m, stamp);
      await this.repo.stored.save(m.month, {
        fingerprint: this.fingerprint,
        erased: stamp,
        pieces: out,
      });
      stored++;
    }
    await this.repo.stored.sweep();
    return stored;
  }
}
