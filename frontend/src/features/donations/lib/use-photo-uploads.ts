import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../../app/api';
import { shrinkForUpload } from '../../../lib/shrink-photo';
import { uploadDonationPhoto } from './photo-upload';

export type UploadState = 'waiting' | 'preparing' | 'uploading' | 'done' | 'failed';

/** One photo on its way to the donation's item. */
export interface PhotoUpload {
  key: string;
  /** 0-based place of the item in the form, and of the photo in the item */
  itemIndex: number;
  photoIndex: number;
  itemId: number;
  file: File;
  preview: string;
  state: UploadState;
  percent: number;
  /** the server's message (in the page language), or null for "no connection" */
  error: string | null;
  /** whether sending it again can help (no answer, a server fault, too many requests) */
  canRetry: boolean;
}

/**
 * Uploads the photos one after the other (a phone's connection does not get faster with two at
 * once): each is shrunk first (shrinkForUpload), then sent with the donation's upload token,
 * its progress reported. A failed photo stays failed until `retry` queues it again.
 */
export function usePhotoUploads(
  donation: { id: number; token: string },
  initial: () => PhotoUpload[],
) {
  const [uploads, setUploads] = useState<PhotoUpload[]>(initial);
  const [turn, setTurn] = useState(0);
  const running = useRef(false);

  useEffect(() => {
    if (running.current) return;
    const next = uploads.find((u) => u.state === 'waiting');
    if (!next) return;
    running.current = true;
    const update = (patch: Partial<PhotoUpload>) =>
      setUploads((all) => all.map((u) => (u.key === next.key ? { ...u, ...patch } : u)));
    void (async () => {
      update({ state: 'preparing', percent: 0, error: null });
      try {
        const file = await shrinkForUpload(next.file);
        update({ state: 'uploading' });
        await uploadDonationPhoto({
          donationId: donation.id,
          itemId: next.itemId,
          token: donation.token,
          file,
          onProgress: (percent) => update({ percent }),
        });
        update({ state: 'done', percent: 100 });
      } catch (error) {
        const status = isApiError(error) ? error.status : 0;
        update({
          state: 'failed',
          error: isApiError(error) && status !== 0 && !error.generic ? error.message : null,
          canRetry: status === 0 || status === 429 || status >= 500,
        });
      } finally {
        running.current = false;
        // the next photo starts on the next render
        setTurn((n) => n + 1);
      }
    })();
  }, [uploads, turn, donation.id, donation.token]);

  const retry = (key: string) =>
    setUploads((all) =>
      all.map((u) => (u.key === key && u.state === 'failed' ? { ...u, state: 'waiting' } : u)),
    );

  const finished = uploads.every((u) => u.state === 'done' || u.state === 'failed');
  return { uploads, retry, finished };
}
