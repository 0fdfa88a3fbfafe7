import { Router } from 'express';
import { privacyRecordsSchema } from '@furniture/contracts';
import { input, requireAdmin } from '@furniture/platform';
import type { NotificationPrivacy } from '../../domain/privacy-service';

/**
 * /api/v1/privacy/records: the mails and log entries of a family's applications and wishes and of
 * a donor's donations.
 */
export function privacyRouter(privacy: NotificationPrivacy): Router {
  const r = Router();
  r.post('/records', requireAdmin, async (req, res) => {
    res.json(await privacy.records(input.body(req, privacyRecordsSchema)));
  });
  return r;
}
