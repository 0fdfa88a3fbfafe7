import { Router, type Request } from 'express';
import {
  lotCreateSchema,
  lotPatchSchema,
  lotSearchQuerySchema,
  lotsOfCategoryQuerySchema,
  lotsQuerySchema,
  lotUpdateSchema,
  TOTAL_COUNT_HEADER,
  type DeletedAnswer,
  type LotCount,
} from '@furniture/contracts';
import {
  AppError,
  input,
  isStaffActor,
  requireStaff,
  sendShareableJson,
} from '@furniture/platform';
import type { LotsService } from '../../domain/lots-service';
import { message } from './messages';

/** A lot id in the path; anything that cannot be one is a lot that does not exist. */
function lotId(req: Request): number {
  const raw = String(req.params.id);
  const id = /^\d{1,12}$/.test(raw) ? Number(raw) : 0;
  if (id < 1) throw new AppError('LOT_NOT_FOUND');
  return id;
}

/**
 * /api/v1/lots: reads are public (anonymous callers never see archived lots), writes need a
 * staff token. Lists answer plain arrays, a single lot is the lot itself (public-site §7 accepts
 * both shapes).
 */
/** Staff see archived lots and staff fields; a referrer's token (issue 44) is not staff. */
const staffOf = (req: Request) => (isStaffActor(req.actor) ? req.actor : undefined);

export function lotsRouter(lots: LotsService, shareSeconds = 0): Router {
  const r = Router();

  r.get('/', async (req, res) => {
    res.json(await lots.list(staffOf(req), input.query(req, lotsQuerySchema)));
  });

  r.get('/count', async (req, res) => {
    const answer: LotCount = {
      count: await lots.count(staffOf(req), input.query(req, lotsQuerySchema)),
    };
    res.json(answer);
  });

  r.get('/search', async (req, res) => {
    res.json(await lots.search(staffOf(req), input.query(req, lotSearchQuerySchema)));
  });

  r.get('/category/:ref', async (req, res) => {
    const page = await lots.byCategory(
      staffOf(req),
      String(req.params.ref),
      input.query(req, lotsOfCategoryQuerySchema),
    );
    // staff lists hold archived lots: never shared
    sendShareableJson(res, page.lots, staffOf(req) ? 0 : shareSeconds, {
      [TOTAL_COUNT_HEADER]: String(page.total),
    });
  });

  r.get('/:id', async (req, res) => {
    // a lot as every visitor sees it: the gateway may keep it (dropped when the lot changes);
    // staff see archived lots and more, never shared
    sendShareableJson(
      res,
      await lots.get(staffOf(req), lotId(req)),
      staffOf(req) ? 0 : shareSeconds,
    );
  });

  r.post('/', requireStaff, async (req, res) => {
    res.status(201).json(await lots.create(req.actor!, input.body(req, lotCreateSchema)));
  });

  r.put('/:id', requireStaff, async (req, res) => {
    const id = lotId(req);
    res.json(await lots.update(req.actor!, id, input.body(req, lotUpdateSchema)));
  });

  r.patch('/:id', requireStaff, async (req, res) => {
    const id = lotId(req);
    res.json(await lots.update(req.actor!, id, input.body(req, lotPatchSchema)));
  });

  r.delete('/:id', requireStaff, async (req, res) => {
    await lots.delete(req.actor!, lotId(req));
    const answer: DeletedAnswer = { success: true, message: message(req, 'lot_deleted') };
    res.json(answer);
  });

  return r;
}
