import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckCircle2, CircleAlert, Plus } from 'lucide-react';
import { UploadRow } from '../../../components/UploadRow';
import { waiting } from '../../../lib/upload-queue';
import type { DonationCreated } from '../api/donations-api';
import type { DonationItemValues } from '../lib/donation-form';
import { usePhotoUploads, type PhotoUpload } from '../lib/use-photo-uploads';

/** The uploads of a stored donation, item by item and photo by photo. */
function uploadsOf(created: DonationCreated, items: DonationItemValues[]): PhotoUpload[] {
  return items.flatMap((item, itemIndex) => {
    const itemId = created.items[itemIndex]?.id;
    if (itemId === undefined) return [];
    return item.photos.map((photo, photoIndex) =>
      waiting<PhotoUpload>({
        key: photo.key,
        itemIndex,
        photoIndex,
        itemId,
        file: photo.file,
        preview: photo.preview,
      }),
    );
  });
}

/**
 * After the donation is stored: its number and what happens next, and each photo on its way
 * up with a progress bar; a failed photo can be sent again.
 */
export function DonationReceived({
  created,
  items,
  withEmail,
  onAnother,
}: {
  created: DonationCreated;
  items: DonationItemValues[];
  withEmail: boolean;
  onAnother: () => void;
}) {
  const { t } = useTranslation('donate');
  const heading = useRef<HTMLHeadingElement>(null);
  const { uploads, retry, finished } = usePhotoUploads(
    { id: created.id, token: created.upload_token },
    () => uploadsOf(created, items),
  );
  const failed = uploads.filter((u) => u.state === 'failed').length;

  // screen readers hear the confirmation; the form it replaces is gone
  useEffect(() => heading.current?.focus(), []);

  return (
    <section aria-labelledby="donation-received" className="card flex flex-col gap-4 p-5">
      <div className="flex items-start gap-3">
        <CheckCircle2 aria-hidden="true" className="size-10 shrink-0 text-green-700" />
        <div>
          <h2
            id="donation-received"
            ref={heading}
            tabIndex={-1}
            className="text-xl font-bold outline-none"
          >
            {t('received.title', { id: created.id })}
          </h2>
          <p className="mt-1 text-slate-700">{t('received.next')}</p>
          {withEmail && <p className="mt-1 text-slate-700">{t('received.email')}</p>}
        </div>
      </div>
      {uploads.length > 0 && (
        <div className="flex flex-col gap-3">
          <h3 className="font-semibold">{t('uploads.title')}</h3>
          <p className="text-sm text-slate-700" aria-live="polite">
            {!finished
              ? t('uploads.keepOpen')
              : failed > 0
                ? t('uploads.someFailed', { n: failed })
                : t('uploads.allDone')}
          </p>
          <ul className="flex flex-col gap-3">
            {uploads.map((upload) => (
              <UploadRow
                key={upload.key}
                upload={upload}
                label={t('uploads.photoLabel', {
                  n: upload.photoIndex + 1,
                  item: upload.itemIndex + 1,
                })}
                preview={upload.preview}
                onRetry={() => retry(upload.key)}
              />
            ))}
          </ul>
        </div>
      )}
      {finished && (
        <div className="flex flex-wrap gap-3">
          {failed > 0 && (
            <p className="flex items-center gap-2 text-sm text-slate-700">
              <CircleAlert aria-hidden="true" className="size-4 shrink-0" />
              {t('uploads.later')}
            </p>
          )}
          <button type="button" className="btn-secondary" onClick={onAnother}>
            <Plus aria-hidden="true" className="size-4" />
            {t('received.another')}
          </button>
        </div>
      )}
    </section>
  );
}
