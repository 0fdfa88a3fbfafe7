import { Router } from 'express';
import { adoptedPhotosSchema, idParamSchema, type AdoptedPhotos } from '@furniture/contracts';
import { input } from '@furniture/platform';
import type { PhotosService } from '../../domain/photos-service';

/**
 * /internal: calls of other services (never routed by the gateway). The catalog has a lot made
 * of a donated item take the item's photos.
 */
export function internalRouter(photos: PhotosService): Router {
  const r = Router();
  r.post('/lots/:id/adopted-photos', async (req, res) => {
    const { id } = input.params(req, idParamSchema);
    const { actor, photos: sources } = input.body(req, adoptedPhotosSchema);
    const answer: AdoptedPhotos = { photos: await photos.adopt(actor, id, sources) };
    res.json(answer);
  });
  return r;
}
