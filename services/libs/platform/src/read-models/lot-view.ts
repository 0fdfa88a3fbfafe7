import type { LotSnapshot, LotSnapshotPage, LotStatus } from '@furniture/contracts';

/*
 * What domain code knows of the lot read model (no database types): the view of a lot, the
 * lookups and updates the services' domains call, and where a snapshot comes from.
 */

/** What a service knows of one of the catalog's lots. */
export interface LotView {
  id: number;
  name: { de: string; uk: string };
  status: LotStatus;
  category_id: number;
  /** the first photo (the card image), null without photos */
  photo: string | null;
  version: number;
  updated_at: string;
  /** lot.deleted arrived: kept so that a late event cannot bring the lot back */
  deleted: boolean;
  /** the lot's label code (issue 45; null until the catalog gave it one) */
  label_code: string | null;
}

/** The lot read model as the domain uses it (platform LotReadModel implements it). */
export interface LotLookup {
  get(id: number): Promise<LotView | null>;
  getMany(ids: number[]): Promise<Map<number, LotView>>;
  /** available lots of each category, oldest first, at most `perCategory` each */
  availableByCategory(categoryIds: number[], perCategory: number): Promise<Map<number, LotView[]>>;
  /** the lot a label code names (issue 45), deleted lots left out */
  byLabelCode(code: string): Promise<LotView | null>;
  apply(lot: LotSnapshot): Promise<boolean>;
  markDeleted(lot: LotSnapshot): Promise<void>;
}

export interface LotSnapshotSource {
  lotSnapshotPage(afterId: number, limit: number): Promise<LotSnapshotPage>;
}

/** One lot straight from the catalog's snapshot (null when it has none with that id). */
export async function findSnapshotLot(
  source: LotSnapshotSource,
  id: number,
): Promise<LotSnapshot | null> {
  const page = await source.lotSnapshotPage(id - 1, 1);
  const lot = page.lots[0];
  return lot && lot.id === id ? lot : null;
}
