import {
  Events,
  formatLabelCode,
  normalizeLabelCode,
  scanPath,
  type Actor,
  type ScanAnswer,
  type StockCountAnswer,
  type StoragePlace,
  type StoragePlaceCreate,
  type StoragePlaceList,
} from '@furniture/contracts';
import { AppError, createEvent } from '@furniture/platform/domain';
import type { LotsRepository } from '../data-access/lots-repository';
import type { StoragePlacesRepository } from '../data-access/storage-places-repository';
import { lotSnapshot } from './events';
import type { LabelCodes } from './label-codes';
import { toLot, type LotData } from './records';
import { placeNameKey, type StoragePlaceRecord } from './warehouse-records';

/** One printed label: the QR code's address, the code in large letters, what it names. */
export interface Label {
  code: string;
  /** the code as printed ("K7M 4QX") */
  printed: string;
  /** the scan page of the code (the QR code's content) */
  url: string;
  /** the lot's German name, or the place's name */
  title: string;
  /** the lot's Ukrainian name (omitted when it is the same or empty) */
  subtitle: string | null;
  /** "Lot 123", or "Lagerplatz" */
  caption: string;
}

/** Makes the PDF of labels: one label on its own page, or a sheet of A4 pages. */
export interface LabelPrinter {
  single(label: Label): Promise<Buffer>;
  sheet(labels: Label[]): Promise<Buffer>;
}

/** Lots of earlier versions given a code per pass of the labelling job. */
const LABELS_PER_PASS = 200;

const toPlace = (p: StoragePlaceRecord): StoragePlace => ({
  id: p.id,
  name: p.name,
  location_id: p.location_id,
  code: p.code,
});

const unknownCode = () => new AppError('LABEL_NOT_FOUND');

/**
 * The warehouse (issue 45): storage places per pickup location, label codes and printable labels
 * of lots and places, the scan page's answers and stock counts. Moves are lot changes
 * (LotsService.update, PATCH storage_place_id) and so in the activity log (lot.moved).
 */
export class Warehouse {
  constructor(
    private readonly deps: {
      places: StoragePlacesRepository;
      lots: LotsRepository;
      codes: LabelCodes;
      printer: LabelPrinter;
      /** the public site, whose /admin/scan/{code} a label's QR code opens */
      publicBaseUrl: string;
    },
  ) {}

  /**
   * A new place at a pickup location. The location is the applications service's: its id is
   * taken as the back-office sends it (docs/decisions.md "The warehouse").
   */
  async createPlace(actor: Actor, input: StoragePlaceCreate): Promise<StoragePlace> {
    const nameKey = placeNameKey(input.name);
    for (let attempt = 1; attempt <= 5; attempt++) {
      if (await this.deps.places.nameTaken(input.location_id, nameKey))
        throw new AppError('STORAGE_PLACE_DUPLICATE_NAME');
      const id = await this.deps.places.nextId();
      const place: StoragePlaceRecord = {
        id,
        name: input.name,
        name_key: nameKey,
        location_id: input.location_id,
        code: await this.deps.codes.claim('place', id),
        created_at: new Date(),
        created_by_user_id: actor.id,
        rev: 1,
      };
      if (await this.deps.places.insertUnlessTaken(place)) return toPlace(place);
      // lost: the name was taken meanwhile (answered above), or the id (draw another)
    }
    throw new Error('storage place: no free id after 5 attempts');
  }

  async listPlaces(locationId?: number): Promise<StoragePlaceList> {
    const places = await this.deps.places.list(locationId);
    const counts = await Promise.all(places.map((p) => this.deps.lots.countOnPlace(p.id)));
    return {
      storage_places: places.map((p, i) => ({ ...toPlace(p), lot_count: counts[i]! })),
    };
  }

  private async place(id: number): Promise<StoragePlaceRecord> {
    const place = await this.deps.places.get(id);
    if (!place) throw new AppError('STORAGE_PLACE_NOT_FOUND');
    return place;
  }

  /** What a label code names: a lot with its place, or a place with what should be on it. */
  async scan(raw: string): Promise<ScanAnswer> {
    const code = normalizeLabelCode(raw);
    const claim = code && (await this.deps.codes.get(code));
    if (!claim) throw unknownCode();
    if (claim.kind === 'place') {
      const place = await this.deps.places.get(claim.target_id);
      if (!place) throw unknownCode();
      const lots = await this.deps.lots.onPlace(place.id);
      return {
        kind: 'place',
        storage_place: { ...toPlace(place), lot_count: lots.length },
        lots: lots.map((l) => toLot(l, true)),
      };
    }
    const lot = await this.deps.lots.findById(claim.target_id);
    if (!lot) throw unknownCode();
    const place =
      lot.storage_place_id === null ? null : await this.deps.places.get(lot.storage_place_id);
    return { kind: 'lot', lot: { ...toLot(lot, true), storage_place: place && toPlace(place) } };
  }

  /**
   * A stock count: every code scanned on a place against what is recorded there. Missing: on
   * the place, not scanned; unexpected: scanned, recorded elsewhere or nowhere. Staff correct
   * both with moves (PATCH storage_place_id), each in the activity log.
   */
  async count(placeId: number, raw: readonly string[]): Promise<StockCountAnswer> {
    const place = await this.place(placeId);
    const codes = [...new Set(raw.map((c) => normalizeLabelCode(c) ?? c.trim()))];
    const claims = await this.deps.codes.getMany(codes);
    const lotCodes = new Map<number, string>();
    for (const claim of claims) if (claim.kind === 'lot') lotCodes.set(claim.target_id, claim.code);
    const ids = [...lotCodes.keys()];
    const [recorded, scanned] = await Promise.all([
      this.deps.lots.onPlace(place.id),
      Promise.all(ids.map((id) => this.deps.lots.findById(id))),
    ]);
    const found = scanned.filter((l): l is LotData => l !== null);
    const known = new Set(found.map((l) => lotCodes.get(l.id)));
    // a deleted lot's code names no lot any more (its claim stays: it is never reused)
    const unknown = codes.filter((c) => !known.has(c));
    const scannedIds = new Set(found.map((l) => l.id));
    return {
      missing: recorded.filter((l) => !scannedIds.has(l.id)).map((l) => toLot(l, true)),
      unexpected: found.filter((l) => l.storage_place_id !== place.id).map((l) => toLot(l, true)),
      unknown_codes: unknown,
    };
  }

  // ---- labels ----

  /** A lot's code: the one it has, or (a lot of an earlier version) one given now. */
  private async codeOf(lot: LotData): Promise<string> {
    if (lot.label_code) return lot.label_code;
    const code = await this.deps.codes.claim('lot', lot.id);
    await this.deps.lots.mutate(lot.id, (current) =>
      current.label_code
        ? null
        : {
            // updated_at moves: the read models of other services apply the newer snapshot
            set: { label_code: code, updated_at: new Date() },
            events: (after) => [createEvent(Events.LotLabelled, { lot: lotSnapshot(after) }, null)],
          },
    );
    return code;
  }

  private labelOf(lot: LotData, code: string): Label {
    const uk = lot.name.uk.trim();
    return {
      code,
      printed: formatLabelCode(code),
      url: `${this.deps.publicBaseUrl}${scanPath(code)}`,
      title: lot.name.de,
      subtitle: uk && uk !== lot.name.de ? uk : null,
      caption: `Lot ${lot.id}`,
    };
  }

  private async lotOrMissing(id: number): Promise<LotData> {
    const lot = await this.deps.lots.findById(id);
    if (!lot) throw new AppError('LOT_NOT_FOUND');
    return lot;
  }

  async lotLabel(id: number): Promise<Buffer> {
    const lot = await this.lotOrMissing(id);
    return this.deps.printer.single(this.labelOf(lot, await this.codeOf(lot)));
  }

  /** An A4 sheet of the lots' labels, in the order asked (e.g. every lot of one donation). */
  async labelSheet(ids: readonly number[]): Promise<Buffer> {
    const lots = await Promise.all(ids.map((id) => this.lotOrMissing(id)));
    const labels: Label[] = [];
    for (const lot of lots) labels.push(this.labelOf(lot, await this.codeOf(lot)));
    return this.deps.printer.sheet(labels);
  }

  async placeLabel(id: number): Promise<Buffer> {
    const place = await this.place(id);
    return this.deps.printer.single({
      code: place.code,
      printed: formatLabelCode(place.code),
      url: `${this.deps.publicBaseUrl}${scanPath(place.code)}`,
      title: place.name,
      subtitle: null,
      caption: 'Lagerplatz / Місце на складі',
    });
  }

  /**
   * Gives the lots of earlier versions their codes, a batch per pass (a scheduled job of one
   * replica); answers how many it labelled.
   */
  async labelEarlierLots(held: () => boolean = () => true): Promise<number> {
    const lots = await this.deps.lots.withoutLabel(LABELS_PER_PASS);
    let labelled = 0;
    for (const lot of lots) {
      // a pass of one replica: once its lease is lost, the next holder goes on
      if (!held()) break;
      await this.codeOf(lot);
      labelled++;
    }
    return labelled;
  }
}
