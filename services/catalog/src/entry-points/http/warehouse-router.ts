import { Router, type Response } from 'express';
import {
  idParamSchema,
  labelSheetQuerySchema,
  scanParamsSchema,
  stockCountSchema,
  storagePlaceCreateSchema,
  storagePlaceListQuerySchema,
  storagePlaceParamsSchema,
} from '@furniture/contracts';
import { AppError, input, requireStaff } from '@furniture/platform';
import type { Warehouse } from '../../domain/warehouse';

/** A PDF a browser shows in its viewer (and prints), never kept by a shared cache. */
function sendPdf(res: Response, pdf: Buffer, filename: string): void {
  res
    .set('cache-control', 'private, no-store')
    .set('content-disposition', `inline; filename="${filename}"`)
    .type('application/pdf')
    .send(pdf);
}

/** A lot id in the path; anything that cannot be one is a lot that does not exist. */
function lotIdOf(raw: string): number {
  const parsed = idParamSchema.safeParse({ id: raw });
  if (!parsed.success) throw new AppError('LOT_NOT_FOUND');
  return parsed.data.id;
}

/**
 * The warehouse's calls (issue 45), every one staff only: storage places, their labels and
 * counts, the scan of a code, the lots' labels. Mounted on /api/v1.
 */
export function warehouseRouter(warehouse: Warehouse): Router {
  const r = Router();

  r.post('/storage-places', requireStaff, async (req, res) => {
    const body = input.body(req, storagePlaceCreateSchema);
    res.status(201).json(await warehouse.createPlace(req.actor!, body));
  });
  r.get('/storage-places', requireStaff, async (req, res) => {
    const { location_id } = input.query(req, storagePlaceListQuerySchema);
    res.json(await warehouse.listPlaces(location_id));
  });
  r.get('/storage-places/:id/label.pdf', requireStaff, async (req, res) => {
    const { id } = input.params(req, storagePlaceParamsSchema);
    sendPdf(res, await warehouse.placeLabel(id), `lagerplatz-${id}.pdf`);
  });
  r.post('/storage-places/:id/count', requireStaff, async (req, res) => {
    const { id } = input.params(req, storagePlaceParamsSchema);
    res.json(await warehouse.count(id, input.body(req, stockCountSchema).codes));
  });

  r.get('/scan/:code', requireStaff, async (req, res) => {
    const parsed = scanParamsSchema.safeParse(req.params);
    if (!parsed.success) throw new AppError('LABEL_NOT_FOUND');
    res.set('cache-control', 'private, no-store').json(await warehouse.scan(parsed.data.code));
  });

  r.get('/lots/:id/label.pdf', requireStaff, async (req, res) => {
    const id = lotIdOf(String(req.params.id));
    sendPdf(res, await warehouse.lotLabel(id), `lot-${id}.pdf`);
  });
  r.get('/labels.pdf', requireStaff, async (req, res) => {
    const { lot_ids } = input.query(req, labelSheetQuerySchema);
    sendPdf(res, await warehouse.labelSheet(lot_ids), 'etiketten.pdf');
  });
  return r;
}
