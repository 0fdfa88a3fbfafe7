import { Router } from 'express';
import {
  donationContactsSchema,
  donationPhotoClaimParamsSchema,
  donationPhotoClaimSchema,
  donationPhotoFinishSchema,
  donationPhotoParamsSchema,
  donorErasureSchema,
  donorPhoneSchema,
  lotSnapshotQuerySchema,
  type DonorRecords,
  type LotSnapshotPage,
} from '@furniture/contracts';
import { input } from '@furniture/platform';
import type { DonationPhotos } from '../../domain/donation-photos';
import type { DonationPrivacy } from '../../domain/donation-privacy';
import type { DonationsService } from '../../domain/donations-service';
import type { LotsService } from '../../domain/lots-service';

/**
 * /internal: calls of other services (never routed by the gateway; services are reachable only
 * inside the deployment). GET /internal/lots/snapshot pages through every lot by id; the photo
 * claims are the media service's, around each donor photo it stores (contracts api/internal.ts).
 */
export function internalRouter(
  lots: LotsService,
  photos: DonationPhotos,
  privacy: DonationPrivacy,
  donations: DonationsService,
): Router {
  const r = Router();
  r.get('/lots/snapshot', async (req, res) => {
    const q = input.query(req, lotSnapshotQuerySchema);
    const page: LotSnapshotPage = await lots.snapshot(q.after_id, q.limit);
    res.json(page);
  });

  const claims = '/donations/:id/items/:itemId/photo-claims';
  r.post(claims, async (req, res) => {
    const { id, itemId } = input.params(req, donationPhotoClaimParamsSchema);
    res.json(await photos.claim(id, itemId, input.body(req, donationPhotoClaimSchema)));
  });

  r.post(`${claims}/:photoId`, async (req, res) => {
    const { id, itemId, photoId } = input.params(req, donationPhotoParamsSchema);
    const photo = { id: photoId, ...input.body(req, donationPhotoFinishSchema) };
    res.json({ outcome: await photos.finish(id, itemId, photo) });
  });

  r.delete(`${claims}/:photoId`, async (req, res) => {
    const { id, itemId, photoId } = input.params(req, donationPhotoParamsSchema);
    res.json(await photos.release(id, itemId, photoId));
  });

  // the applications service's day plan and donor pickups (issue 29)
  r.post('/donations/contacts', async (req, res) => {
    const { ids } = input.body(req, donationContactsSchema);
    res.json(await donations.contacts(ids));
  });

  // the applications service's privacy lookup and erasure by phone (issue 15, 28)
  r.post('/privacy/donations', async (req, res) => {
    const { phone } = input.body(req, donorPhoneSchema);
    const answer: DonorRecords = { donations: await privacy.lookup(phone) };
    res.json(answer);
  });

  r.post('/privacy/donations/erase', async (req, res) => {
    const { phone, actor } = input.body(req, donorErasureSchema);
    res.json(await privacy.erase(phone, actor));
  });
  return r;
}
