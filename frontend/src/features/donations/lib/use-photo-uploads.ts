import { useUploadQueue, type QueuedUpload } from '../../../lib/upload-queue';
import { uploadDonationPhoto } from './photo-upload';

/** One photo on its way to the donation's item. */
export interface PhotoUpload extends QueuedUpload {
  /** 0-based place of the item in the form, and of the photo in the item */
  itemIndex: number;
  photoIndex: number;
  itemId: number;
  preview: string;
}

/**
 * Uploads the photos one after the other, each shrunk first and sent with the donation's upload
 * token, its progress reported (lib/upload-queue). A failed photo stays failed until `retry`
 * queues it again.
 */
export function usePhotoUploads(
  donation: { id: number; token: string },
  initial: () => PhotoUpload[],
) {
  const { uploads, retry, finished } = useUploadQueue<PhotoUpload>({
    initial,
    send: (upload, file, onProgress) =>
      uploadDonationPhoto({
        donationId: donation.id,
        itemId: upload.itemId,
        token: donation.token,
        file,
        onProgress,
      }),
  });
  return { uploads, retry, finished };
}
