import { Router } from 'express';
import { impactQuerySchema } from '@furniture/contracts';
import { input, requireAdmin } from '@furniture/platform';
import type { ImpactService } from '../../domain/impact-service';

/** /api/v1/impact: the impact dashboard's figures, for administrators. */
export function impactRouter(impact: ImpactService): Router {
  const r = Router();
  r.get('/', requireAdmin, async (req, res) => {
    res.json(await impact.report(input.query(req, impactQuerySchema)));
  });
  return r;
}
