import { Router } from 'express';
import {
  donationPhotoClaimParamsSchema,
  donationPhotoClaimSchema,
  donationPhotoFinishSchema,
  donationPhotoParamsSchema,
  lotSnapshotQuerySchema,
  type LotSnapshotPage,
} from '@furniture/contracts';
import { input } from '@furniture/platform';
import type { DonationPhotos } from '../../domain/donation-photos';
import type { LotsService } from '../../domain/lots-service';

/**
 * /internal: calls of other services (never routed by the gateway; services are reachable only
 * inside the deployment). GET /internal/lots/snapshot pages through every lot by id; the photo
 * claims are the media service's, around each donor photo it stores (contracts api/internal.ts).
 */
export function internalRouter(lots: LotsService, photos: DonationPhotos): Router {
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
  return r;
}
