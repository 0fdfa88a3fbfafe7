import { Router } from 'express';
import {
  donationCreateSchema,
  donationItemParamsSchema,
  donationLookupSchema,
  donationLotCreateSchema,
  donationsQuerySchema,
  donationStatusUpdateSchema,
  idParamSchema,
} from '@furniture/contracts';
import {
  AppError,
  input,
  isStaffActor,
  phoneFields,
  requestLanguage,
  requireStaff,
  takeWrite,
  type Limit,
  type WriteLimits,
} from '@furniture/platform';
import type { DonationLots } from '../../domain/donation-lots';
import type { DonationsService } from '../../domain/donations-service';

/**
 * /api/v1/donations: donors offer furniture and look their offers up (anonymous, limited like
 * applications); staff list, read and decide them and make lots of their items. The photo
 * uploads of the same path prefix are the media service's (the gateway routes them there).
 */
export function donationsRouter(deps: {
  donations: DonationsService;
  lots: DonationLots;
  writeLimits?: WriteLimits;
  lookupLimit?: Limit;
}): Router {
  const { donations, writeLimits, lookupLimit } = deps;
  const r = Router();

  // ---- public --------------------------------------------------------------------------------

  r.post('/', async (req, res) => {
    const body = input.body(req, donationCreateSchema);
    const { donor_phone } = phoneFields(req, 'body', {
      donor_phone: { value: body.donor_phone, key: 'invalid_phone' },
    });
    const created = await donations.submit({
      ...body,
      phone: donor_phone!,
      language: body.language ?? requestLanguage(req),
      lang: requestLanguage(req),
      admit: () => takeWrite(writeLimits, req, donor_phone!.e164),
    });
    res.status(201).json(created);
  });

  r.post('/lookup', async (req, res) => {
    const body = input.body(req, donationLookupSchema);
    const { phone } = phoneFields(req, 'body', {
      phone: { value: body.phone, key: 'invalid_phone' },
    });
    // answers keyed by a phone number: nobody may walk through numbers (like check-status)
    if (lookupLimit && !isStaffActor(req.actor)) {
      const wait = await lookupLimit(req.ip ?? 'unknown');
      if (wait > 0) throw new AppError('RATE_LIMITED', { extra: { retry_after: wait } });
    }
    res.json(await donations.lookup(phone!.e164));
  });

  // ---- staff ---------------------------------------------------------------------------------

  r.get('/', requireStaff, async (req, res) => {
    res.json(await donations.list(input.query(req, donationsQuerySchema)));
  });

  r.get('/:id', requireStaff, async (req, res) => {
    res.json(await donations.get(input.params(req, idParamSchema).id));
  });

  r.patch('/:id/status', requireStaff, async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    const body = input.body(req, donationStatusUpdateSchema);
    res.json(await donations.changeStatus(req.actor!, id, body));
  });

  r.post('/:id/items/:itemId/lot', requireStaff, async (req, res) => {
    const { id, itemId } = input.params(req, donationItemParamsSchema);
    const body = input.body(req, donationLotCreateSchema);
    res.status(201).json(await deps.lots.create(req.actor!, id, itemId, body));
  });

  return r;
}
