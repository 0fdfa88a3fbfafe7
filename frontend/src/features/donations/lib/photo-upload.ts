import type { DonationPhotoUploaded } from '@furniture/contracts/api/donations';
import { env } from '../../../config/env';
import { postWithProgress, uploadOutcome } from '../../../lib/upload';

/** The sizes the media service made of an uploaded photo. */
export type UploadedPhoto = DonationPhotoUploaded['data'];

/**
 * POST /donations/{id}/items/{itemId}/photos: one photo (multipart `file`) with the donation's
 * upload token in X-Donation-Token, through XMLHttpRequest for the progress. Answers the photo
 * or throws the ApiError (401: the token is no longer valid; 413: too big; 422: not an image,
 * too small, or a sixth photo).
 */
export async function uploadDonationPhoto(opts: {
  donationId: number;
  itemId: number;
  token: string;
  file: File;
  onProgress: (percent: number) => void;
}): Promise<UploadedPhoto> {
  const url = new URL(
    `${env.apiBaseUrl}/donations/${opts.donationId}/items/${opts.itemId}/photos`,
    window.location.origin,
  ).toString();
  const form = new FormData();
  form.append('file', opts.file, opts.file.name);
  const outcome = uploadOutcome<UploadedPhoto>(
    await postWithProgress(url, form, { 'X-Donation-Token': opts.token }, opts.onProgress),
  );
  if (!outcome.ok) throw outcome.error;
  opts.onProgress(100);
  return outcome.data;
}
