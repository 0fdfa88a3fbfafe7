import { Router } from 'express';
import { idParamSchema, referralCreateSchema, referralsQuerySchema } from '@furniture/contracts';
import { input, phoneFields, requireReferrer, requireRole } from '@furniture/platform';
import type { Referrals } from '../../domain/referrals';

/**
 * /api/v1/referrals (issue 44): a partner agency's referrer applies for a family and follows its
 * agency's families; admins and volunteers read every agency's.
 */
export function referralsRouter(referrals: Referrals): Router {
  const r = Router();
  const readers = requireRole('referrer', 'admin', 'volunteer');

  r.post('/', requireReferrer, async (req, res) => {
    const body = input.body(req, referralCreateSchema);
    const phones = phoneFields(req, 'body', {
      phone: { value: body.family.phone, key: 'invalid_phone' },
      whatsapp: { value: body.family.whatsapp, key: 'invalid_whatsapp' },
    });
    const created = await referrals.create(req.actor!, body, {
      phone: phones.phone!,
      whatsapp: phones.whatsapp,
    });
    res.status(201).json(created);
  });

  r.get('/', readers, async (req, res) => {
    const { agency_id } = input.query(req, referralsQuerySchema);
    res.json(await referrals.list(req.actor!, agency_id));
  });

  r.get('/:id', readers, async (req, res) => {
    res.json(await referrals.get(req.actor!, input.params(req, idParamSchema).id));
  });

  return r;
}
