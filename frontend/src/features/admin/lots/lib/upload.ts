import type { Dispatch } from '@reduxjs/toolkit';
import type { Photo } from '@furniture/contracts/api/media';
import { callWithSession } from '../../../../app/api';
import { env } from '../../../../config/env';
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
 * The name of a photo drawn anew in the browser before its upload (back-office §7: a local blob
 * goes up as photo_{timestamp}.webp; .jpg where the browser encodes no WebP).
 */
export const lotPhotoName = (extension: string): string => `photo_${Date.now()}${extension}`;
