import { Router } from 'express';
import { idParamSchema, lotPhoneQuerySchema, type EligibilityCheck } from '@furniture/contracts';
import {
  input,
  isStaffActor,
  phoneFields,
  requireStaff,
  sendShareableJson,
} from '@furniture/platform';
import { refusals, type PublicApplications } from '../../domain/public-applications';
import type { WishesService } from '../../domain/wishes-service';
import { localized } from './input-helpers';

/**
 * The lot page's queue panel and eligibility check (public), and the wishes a lot matches
 * (staff).
 */
export function lotsRouter(
  publicApplications: PublicApplications,
  wishes: WishesService,
  /** s-maxage of the queue panel every visitor sees (no phone, no token) */
  shareSeconds = 0,
): Router {
  const r = Router();

  const phoneOf = (req: Parameters<typeof input.query>[0]) => {
    const { phone } = input.query(req, lotPhoneQuerySchema);
    return phoneFields(req, 'query', { phone: { value: phone, key: 'invalid_phone' } }).phone?.e164;
  };

  r.get('/:id/can-apply', async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    const e = await publicApplications.eligibility(id, phoneOf(req));
    const data: EligibilityCheck = {
      can_apply: e.can_apply,
      reason: e.reason_code ? localized(req, refusals[e.reason_code], e.reason_params) : null,
      reason_code: e.reason_code,
      total_applications: e.total_applications,
      max_open_applications: e.max_open_applications,
    };
    res.json({ success: true, data });
  });

  r.get('/:id/wish-matches', requireStaff, async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    res.json(await wishes.matchesOfLot(id));
  });

  r.get('/:id/applications-info', async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    const phone = phoneOf(req);
    const answer = { success: true, data: await publicApplications.queueInfo(id, phone) };
    // without a phone the panel is the same for every visitor: the gateway may keep it (dropped
    // when the lot's queue changes); with one it is that family's, never shared
    sendShareableJson(res, answer, phone || isStaffActor(req.actor) ? 0 : shareSeconds);
  });

  return r;
}
