import { z } from 'zod';
import { lotSnapshotSchema } from '../events';

/**
 * Internal calls between services (never routed by the gateway).
 *
 * GET {CATALOG_URL}/internal/lots/snapshot?after_id=0&limit=500 → LotSnapshotPage, lots ordered by
 * id, including archived lots; services that keep a read model of lots rebuild it from here when
 * it is empty at start, then follow the lot events.
 */
export const LOT_SNAPSHOT_PATH = '/internal/lots/snapshot';

export const lotSnapshotPageAnswer = z.object({
  lots: z.array(lotSnapshotSchema),
  /** pass as after_id for the next page; null after the last page */
  next_after_id: z.number().int().nullable(),
});
export type LotSnapshotPage = z.infer<typeof lotSnapshotPageAnswer>;
