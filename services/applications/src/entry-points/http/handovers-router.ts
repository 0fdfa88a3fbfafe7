import { Router, type Request, type Response } from 'express';
import {
  bookingSchema,
  dayPlanOrderSchema,
  dayPlanQuerySchema,
  donorPickupSchema,
  handoverIdParamsSchema,
  handoverOutcomeSchema,
  handoverScanSchema,
  handoverTokenParamsSchema,
  idParamSchema,
  locationCreateSchema,
  locationFeedQuerySchema,
  FEED_KEY_HEADER,
  locationPatchSchema,
  slotCreateSchema,
  slotListQuerySchema,
  slotPatternSchema,
} from '@furniture/contracts';
import {
  AppError,
  input,
  isStaffActor,
  requireAdmin,
  requireStaff,
  type WriteLimits,
} from '@furniture/platform';
import type { Handovers } from '../../domain/handovers';

/** A family's write counts against the public writes of its address (staff are not limited). */
async function takeIpWrite(limits: WriteLimits | undefined, req: Request): Promise<void> {
  if (!limits || isStaffActor(req.actor)) return;
  const wait = await limits.perIp(req.ip ?? 'unknown');
  if (wait > 0) throw new AppError('RATE_LIMITED', { extra: { retry_after: wait } });
}

/** A token that cannot be one is unknown (404), never a validation error naming it. */
function tokenOf(req: Request): string {
  const parsed = handoverTokenParamsSchema.safeParse(req.params);
  if (!parsed.success) throw new AppError('HANDOVER_NOT_FOUND');
  return parsed.data.token;
}

const ICS = 'text/calendar; charset=utf-8';

/** /api/v1/locations (issue 29): pickup locations; their iCal feeds by secret key. */
export function locationsRouter(handovers: Handovers): Router {
  const r = Router();
  r.post('/', requireAdmin, async (req, res) => {
    res.status(201).json(await handovers.createLocation(input.body(req, locationCreateSchema)));
  });
  r.get('/', requireStaff, async (_req, res) => {
    res.json(await handovers.listLocations());
  });
  r.patch('/:id', requireAdmin, async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    res.json(await handovers.patchLocation(id, input.body(req, locationPatchSchema)));
  });
  r.get('/:id/calendar.ics', async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    const { key } = input.query(req, locationFeedQuerySchema);
    const header = req.get(FEED_KEY_HEADER);
    const ics = await handovers.locationFeed(id, header || key || '');
    res.set('cache-control', 'private, no-store').type(ICS).send(ics);
  });
  return r;
}

/** /api/v1/slots (issue 29): staff create, list and delete slots. */
export function slotsRouter(handovers: Handovers): Router {
  const r = Router();
  r.post('/', requireStaff, async (req, res) => {
    res.status(201).json(await handovers.createSlot(input.body(req, slotCreateSchema)));
  });
  r.post('/pattern', requireStaff, async (req, res) => {
    res.status(201).json(await handovers.createPattern(input.body(req, slotPatternSchema)));
  });
  r.get('/', requireStaff, async (req, res) => {
    res.json(await handovers.listSlots(input.query(req, slotListQuerySchema)));
  });
  r.delete('/:id', requireStaff, async (req, res) => {
    await handovers.deleteSlot(input.params(req, idParamSchema).id);
    res.status(204).end();
  });
  return r;
}

/**
 * /api/v1/handovers (issue 29): the family's booking by its personal token (no account, limited
 * per address), the staff's day plan, donor pickups and outcomes.
 */
export function handoversRouter(handovers: Handovers, writeLimits?: WriteLimits): Router {
  const r = Router();

  // ---- staff ----
  r.get('/', requireStaff, async (req, res) => {
    res.json(await handovers.dayPlan(input.query(req, dayPlanQuerySchema).date));
  });
  r.post('/', requireStaff, async (req, res) => {
    res
      .status(201)
      .json(await handovers.donorPickup(req.actor!, input.body(req, donorPickupSchema)));
  });
  r.put('/order', requireStaff, async (req, res) => {
    const { date, ids } = input.body(req, dayPlanOrderSchema);
    res.json(await handovers.order(date, ids));
  });
  r.patch('/:id', requireStaff, async (req, res) => {
    const { id } = input.params(req, handoverIdParamsSchema);
    res.json(await handovers.outcome(req.actor!, id, input.body(req, handoverOutcomeSchema)));
  });
  // the item before "erledigt" (issue 45)
  r.post('/:id/scan', requireStaff, async (req, res) => {
    const { id } = input.params(req, handoverIdParamsSchema);
    res.json(await handovers.scanItem(req.actor!, id, input.body(req, handoverScanSchema)));
  });

  // ---- the family (its token) ----
  const personal = (res: Response) => res.set('cache-control', 'private, no-store');
  r.get('/:token', async (req, res) => {
    personal(res).json(await handovers.familyView(tokenOf(req)));
  });
  r.post('/:token/booking', async (req, res) => {
    const token = tokenOf(req);
    const { slot_id } = input.body(req, bookingSchema);
    await takeIpWrite(writeLimits, req);
    personal(res).json({ booking: await handovers.book(token, slot_id) });
  });
  r.delete('/:token/booking', async (req, res) => {
    const token = tokenOf(req);
    await takeIpWrite(writeLimits, req);
    await handovers.cancelBooking(token);
    personal(res).status(204).end();
  });
  r.get('/:token/calendar.ics', async (req, res) => {
    const ics = await handovers.familyCalendar(tokenOf(req));
    personal(res)
      .type(ICS)
      .set('content-disposition', 'attachment; filename="moebelbruecke-termin.ics"')
      .send(ics);
  });
  return r;
}
