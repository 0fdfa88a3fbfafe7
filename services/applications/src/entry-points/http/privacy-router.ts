import { Router } from 'express';
import { privacyPhoneSchema } from '@furniture/contracts';
import { input, phoneFields, requireAdmin } from '@furniture/platform';
import type { Privacy } from '../../domain/privacy';

/**
 * /api/v1/privacy: administrators look up, export and erase what is stored about a phone
 * number. The number travels in the body (never in a URL, where proxies and logs keep it).
 */
export function privacyRouter(privacy: Privacy): Router {
  const r = Router();

  const phoneOf = (req: Parameters<typeof input.body>[0]) => {
    const body = input.body(req, privacyPhoneSchema);
    return phoneFields(req, 'body', { phone: { value: body.phone, key: 'invalid_phone' } }).phone!
      .e164;
  };

  r.post('/lookup', requireAdmin, async (req, res) => {
    res.json(await privacy.lookup(phoneOf(req)));
  });

  r.post('/erase', requireAdmin, async (req, res) => {
    res.json(await privacy.erase(req.actor!, phoneOf(req)));
  });

  return r;
}
