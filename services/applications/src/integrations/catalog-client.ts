import { LOT_SNAPSHOT_PATH, lotSnapshotSchema, type LotSnapshotPage } from '@furniture/contracts';
import { z } from 'zod';

const pageSchema = z.object({
  lots: z.array(lotSnapshotSchema),
  next_after_id: z.number().int().nullable(),
});

/** Reads the catalog's internal lot snapshot (never routed by the gateway). */
export class CatalogClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 10000,
  ) {}

  async lotSnapshotPage(afterId: number, limit: number): Promise<LotSnapshotPage> {
    const url = new URL(LOT_SNAPSHOT_PATH, this.baseUrl);
    url.searchParams.set('after_id', String(afterId));
    url.searchParams.set('limit', String(limit));
    const res = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs) });
    if (!res.ok) throw new Error(`catalog snapshot answered ${res.status}`);
    return pageSchema.parse(await res.json());
  }
}
