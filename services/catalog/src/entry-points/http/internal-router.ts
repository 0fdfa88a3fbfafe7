import { Router } from 'express';
import { lotSnapshotQuerySchema, type LotSnapshotPage } from '@furniture/contracts';
import { input } from '@furniture/platform';
import type { LotsService } from '../../domain/lots-service';

/**
 * /internal: calls of other services (never routed by the gateway; services are reachable only
 * inside the deployment). GET /internal/lots/snapshot pages through every lot by id.
 */
export function internalRouter(lots: LotsService): Router {
  const r = Router();
  r.get('/lots/snapshot', async (req, res) => {
    const q = input.query(req, lotSnapshotQuerySchema);
    const page: LotSnapshotPage = await lots.snapshot(q.after_id, q.limit);
    res.json(page);
  });
  return r;
}
