import type { Dispatch } from '@reduxjs/toolkit';
import type { Photo } from '@furniture/contracts/api/media';
import { callWithSession } from '../../../../app/api';
import { env } from '../../../../config/env';
import { decodeImage, encodeImage } from '../../../../lib/shrink-photo';
import { postWithProgress, uploadOutcome } from '../../../../lib/upload';

/**
 * POST /lots/{id}/photos with one file (multipart `file`, generate_thumbnails 'true'), through
 * XMLHttpRequest for the upload progress and with the staff session like every other call
 * (refresh before expiry, one refresh-and-retry on 401). Answers the photo or throws an ApiError.
 */
export async function uploadLotPhoto(
  store: { dispatch: Dispatch; getState: () => unknown },
  lotId: number,
  file: File,
  onProgress: (percent: number) => void,
): Promise<Photo> {
  const url = new URL(`${env.apiBaseUrl}/lots/${lotId}/photos`, window.location.origin).toString();
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('generate_thumbnails', 'true');
  const answer = await callWithSession(
    store,
    (token) =>
      postWithProgress(url, form, token ? { Authorization: `Bearer ${token}` } : {}, onProgress),
    (r) => r.status === 401,
  );
  const outcome = uploadOutcome<Photo>(answer);
  if (!outcome.ok) throw outcome.error;
  onProgress(100);
  return outcome.data;
}

/**
 * Re-encodes a photo from the browser as WebP (photo_{timestamp}.webp, back-office §7), at most
 * 2048 px on its longest side: a phone's 12-megapixel JPEG travels as a fraction of its size. The
 * server makes its own sizes anyway (1600 px at most). Where the browser cannot encode WebP (or
 * has no canvas), the file goes as it is.
 */
export async function reencodeAsWebp(file: File, maxSide = 2048): Promise<File> {
  try {
    const image = await decodeImage(file);
    if (!image) return file;
    try {
      const scale = Math.min(1, maxSide / Math.max(image.width, image.height));
      const blob = await encodeImage(
        image,
        Math.round(image.width * scale),
        Math.round(image.height * scale),
        'image/webp',
      );
      // without WebP (Safari) or when it came out bigger, the original is the better upload
      if (!blob || blob.size >= file.size) return file;
      return new File([blob], `photo_${Date.now()}.webp`, { type: 'image/webp' });
    } finally {
      image.close();
    }
  } catch {
    return file;
  }
}
