import type { Store, StoredCollection } from '@furniture/platform';
import type { DonationUpload } from '../domain/records';

type UploadDoc = DonationUpload & { _id: string };

/**
 * Donor photo uploads in progress, each recorded before its claim and its objects and removed
 * after: what a process killed mid-upload leaves behind is found here (the housekeeping removes
 * the objects and gives the claim back).
 */
export class DonationUploadsRepository {
  private readonly stored: StoredCollection<UploadDoc>;

  constructor(store: Store) {
    this.stored = store.collection<UploadDoc>({ name: 'donation_uploads', key: '_id' });
  }

  async begin(upload: DonationUpload): Promise<void> {
    await this.stored.insert({ _id: upload.photo_id, ...upload });
  }

  async end(photoId: string): Promise<void> {
    await this.stored.remove({ _id: photoId });
  }

  /** Uploads begun before `before`: their process died while working on them. */
  async staleSince(before: Date): Promise<DonationUpload[]> {
    const docs = await this.stored.collection
      .find({ started_at: { $lt: before } } as never)
      .limit(500)
      .toArray();
    return docs.map(({ _id, ...upload }) => upload as DonationUpload);
  }
}
