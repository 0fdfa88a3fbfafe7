import type { Express } from 'express';
import {
  authenticate,
  createServiceApp,
  finishApp,
  type ServiceAppDeps,
} from '@furniture/platform';
import type { DonationPhotosService } from './domain/donation-photos-service';
import type { Admission } from './domain/limits';
import type { PhotosService } from './domain/photos-service';
import { donationPhotosRouter } from './entry-points/http/donation-photos-router';
import { internalRouter } from './entry-points/http/internal-router';
import { mediaRouter } from './entry-points/http/media-router';
import { photosRouter } from './entry-points/http/photos-router';

export interface MediaAppDeps extends ServiceAppDeps {
  photos: PhotosService;
  donationPhotos: DonationPhotosService;
  admission: Admission;
  maxBytes: number;
  uploadTimeoutMs: number;
}

/** The media service's HTTP app (no listen: start.ts and tests do that). */
export function createApp(deps: MediaAppDeps): Express {
  const app = createServiceApp({ name: 'media', ...deps });
  app.use('/internal', internalRouter(deps.photos));
  // a token that is sent is checked on every call, the public image bytes too (a revoked one: 401)
  app.use(['/media', '/api/v1'], authenticate(deps.verifier));
  app.use('/media', mediaRouter(deps.photos));
  app.use(
    '/api/v1/lots',
    photosRouter({
      photos: deps.photos,
      admission: deps.admission,
      maxBytes: deps.maxBytes,
      uploadTimeoutMs: deps.uploadTimeoutMs,
    }),
  );
  // a donor's photos: no account, the donation's upload token instead
  app.use(
    '/api/v1/donations',
    donationPhotosRouter({
      donationPhotos: deps.donationPhotos,
      admission: deps.admission,
      maxBytes: deps.maxBytes,
      uploadTimeoutMs: deps.uploadTimeoutMs,
    }),
  );
  return finishApp(app, deps.logger);
}
