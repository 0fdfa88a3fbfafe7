import type { Dispatch } from '@reduxjs/toolkit';
import type { Photo } from '@furniture/contracts/api/media';
import { callWithSession, type ApiError } from '../../../../app/api';
import { currentLanguage } from '../../../../app/i18n';
import { env } from '../../../../config/env';

interface XhrResult {
  status: number;
  body: unknown;
}

function send(
  url: string,
  form: FormData,
  token: string | null,
  onProgress: (percent: number) => void,
) {
  return new Promise<XhrResult>((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', currentLanguage());
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      // the last few percent wait for the server's processing
      if (e.lengthComputable) onProgress(Math.min(95, Math.round((e.loaded / e.total) * 95)));
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = xhr.responseText;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => resolve({ status: 0, body: null });
    xhr.ontimeout = () => resolve({ status: 0, body: null });
    xhr.send(form);
  });
}

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
  const result = await callWithSession(
    store,
    (token) => send(url, form, token, onProgress),
    (r) => r.status === 401,
  );
  const body = (
    typeof result.body === 'object' && result.body !== null ? result.body : {}
  ) as Record<string, unknown>;
  if (result.status >= 200 && result.status < 300 && body.data) {
    onProgress(100);
    return body.data as Photo;
  }
  const error: ApiError = {
    status: result.status,
    code:
      typeof body.code === 'string'
        ? body.code
        : result.status === 0
          ? 'NETWORK_ERROR'
          : 'HTTP_ERROR',
    message: typeof body.message === 'string' ? body.message : `Upload failed: ${result.status}`,
    detail: body.detail,
  };
  throw error;
}

/**
 * Re-encodes a photo from the browser as WebP (photo_{timestamp}.webp, back-office §7), at most
 * 2048 px on its longest side: a phone's 12-megapixel JPEG travels as a fraction of its size. The
 * server makes its own sizes anyway (1600 px at most). Where the browser cannot encode WebP (or
 * has no canvas), the file goes as it is.
 */
export async function reencodeAsWebp(file: File, maxSide = 2048): Promise<File> {
  try {
    if (typeof createImageBitmap !== 'function' || typeof document === 'undefined') return file;
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    const context = canvas.getContext('2d');
    if (!context) return file;
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) =>
      canvas.toBlob(resolve, 'image/webp', 0.9),
    );
    // Safari answers PNG for an unsupported type: then the original is the better upload
    if (!blob || blob.type !== 'image/webp' || blob.size >= file.size) return file;
    return new File([blob], `photo_${Date.now()}.webp`, { type: 'image/webp' });
  } catch {
    return file;
  }
}
