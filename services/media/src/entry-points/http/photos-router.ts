import { Router } from 'express';
import {
  MediaMessages,
  lotPhotoParamsSchema,
  lotPhotosParamsSchema,
  photoUploadFieldsSchema,
} from '@furniture/contracts';
import { AppError, input, requestLanguage, requireStaff } from '@furniture/platform';
import type { Admission } from '../../domain/limits';
import { tooLarge } from '../../domain/photo-intake';
import type { PhotosService } from '../../domain/photos-service';
import { fileReceiver, MULTIPART_ALLOWANCE_BYTES } from './receive-file';

const RETRY_AFTER_SECONDS = 5;

/** /api/v1/lots/{id}/photos: staff only (volunteers and admins alike). */
export function photosRouter(deps: {
  photos: PhotosService;
  admission: Admission;
  maxBytes: number;
  uploadTimeoutMs: number;
}): Router {
  const { photos, admission, maxBytes } = deps;
  const receive = fileReceiver({ maxBytes });
  const r = Router();

  r.post('/:id/photos', requireStaff, async (req, res) => {
    const { id } = input.params(req, lotPhotosParamsSchema);
    // a declared body beyond the limit is refused before a byte of it is read
    if (Number(req.headers['content-length'] ?? 0) > maxBytes + MULTIPART_ALLOWANCE_BYTES) {
      res.setHeader('connection', 'close');
      throw tooLarge(maxBytes);
    }
    const room = await photos.checkRoom(id);
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
      const file = await receive(req, res);
      input.body(req, photoUploadFieldsSchema);
      const photo = await photos.upload(
        req.actor!,
        id,
        file && { name: file.originalname, type: file.mimetype, data: file.buffer },
        room,
      );
      res.status(201).json({
        success: true,
        message: MediaMessages.photo_uploaded[requestLanguage(req)],
        data: photo,
      });
    } finally {
      clearTimeout(cutOff);
      release();
    }
  });

  r.get('/:id/photos', requireStaff, async (req, res) => {
    const { id } = input.params(req, lotPhotosParamsSchema);
    res.json({ success: true, data: await photos.list(id) });
  });

  r.delete('/:id/photos/:photoId', requireStaff, async (req, res) => {
    const { id, photoId } = input.params(req, lotPhotoParamsSchema);
    await photos.delete(req.actor!, id, photoId);
    res.json({ success: true, message: MediaMessages.photo_deleted[requestLanguage(req)] });
  });

  return r;
}
