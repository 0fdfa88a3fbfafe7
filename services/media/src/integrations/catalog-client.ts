import { z } from 'zod';
import {
  lotSnapshotSchema,
  LOT_SNAPSHOT_PATH,
  type LotSnapshot,
  type LotSnapshotPage,
} from '@furniture/contracts';

const pageSchema = z.object({
  lots: z.array(lotSnapshotSchema),
  next_after_id: z.number().int().nullable(),
});

export interface CatalogClient {
  snapshotPage(afterId: number, limit: number): Promise<LotSnapshotPage>;
  /** One lot straight from the catalog (null when it has none with that id). */
  findLot(id: number): Promise<LotSnapshot | null>;
}

/** The catalog's internal snapshot endpoint (contracts api/internal.ts). */
export function httpCatalogClient(opts: { baseUrl: string; timeoutMs?: number }): CatalogClient {
  const snapshotPage = async (afterId: number, limit: number): Promise<LotSnapshotPage> => {
    const url = new URL(LOT_SNAPSHOT_PATH, opts.baseUrl);
    url.searchParams.set('after_id', String(afterId));
    url.searchParams.set('limit', String(limit));
    const res = await fetch(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 10000) });
    if (!res.ok) throw new Error(`catalog snapshot answered ${res.status}`);
    return pageSchema.parse(await res.json());
  };
  return {
    snapshotPage,
    async findLot(id) {
      const page = await snapshotPage(id - 1, 1);
      const lot = page.lots[0];
      return lot && lot.id === id ? lot : null;
    },
  };
}
