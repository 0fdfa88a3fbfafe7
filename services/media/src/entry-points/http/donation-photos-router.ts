import { Router } from 'express';
import {
  DONATION_TOKEN_HEADER,
  donationItemParamsSchema,
  photoUploadFieldsSchema,
  type DonationPhotoUploaded,
} from '@furniture/contracts';
import { AppError, input } from '@furniture/platform';
import type { DonationPhotosService } from '../../domain/donation-photos-service';
import type { Admission } from '../../domain/limits';
import { tooLarge } from '../../domain/photo-intake';
import { fileReceiver, MULTIPART_ALLOWANCE_BYTES } from './receive-file';

const RETRY_AFTER_SECONDS = 5;

/**
 * POST /api/v1/donations/{id}/items/{itemId}/photos: a donor's photo, with the donation's upload
 * token in X-Donation-Token (no account). Bounded like staff uploads (admission, upload timeout).
 */
export function donationPhotosRouter(deps: {
  donationPhotos: DonationPhotosService;
  admission: Admission;
  maxBytes: number;
  uploadTimeoutMs: number;
}): Router {
  const { donationPhotos, admission, maxBytes } = deps;
  const receive = fileReceiver({ maxBytes });
  const r = Router();

  r.post('/:id/items/:itemId/photos', async (req, res) => {
    const { id, itemId } = input.params(req, donationItemParamsSchema);
    const token = req.headers[DONATION_TOKEN_HEADER];
    if (typeof token !== 'string' || token.trim() === '')
      throw new AppError('DONATION_TOKEN_INVALID');
    // a declared body beyond the limit is refused before a byte of it is read
    if (Number(req.headers['content-length'] ?? 0) > maxBytes + MULTIPART_ALLOWANCE_BYTES) {
      res.setHeader('connection', 'close');
      throw tooLarge(maxBytes);
    }
    const release = admission.tryEnter();
    if (!release) {
      res.setHeader('retry-after', String(RETRY_AFTER_SECONDS));
      throw new AppError('PHOTO_UPLOADS_BUSY', { extra: { retry_after: RETRY_AFTER_SECONDS } });
    }
    // a body that trickles in forever must not hold its admission slot forever
    const cutOff = setTimeout(() => {
      if (!req.complete) req.destroy();
    }, deps.uploadTimeoutMs);
    try {
      const urls = await donationPhotos.upload(id, itemId, token.trim(), async () => {
        const file = await receive(req, res);
        input.body(req, photoUploadFieldsSchema);
        return file && { name: file.originalname, type: file.mimetype, data: file.buffer };
      });
      const answer: DonationPhotoUploaded = { success: true, data: { urls } };
      res.status(201).json(answer);
    } finally {
      clearTimeout(cutOff);
      release();
    }
  });

  return r;
}
