import { useEffect, useMemo, useRef, useState } from 'react';
import type { Photo } from '@furniture/contracts/api/media';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppStore } from '../../../../app/hooks';
import { errorText } from '../../lib/errors';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import {
  lotsApi,
  useDeleteLotPhotoMutation,
  useGetLotPhotosQuery,
  useSetLotPhotosMutation,
  type AdminLot,
} from '../api/lots-api';
import { useUploadQueue, waiting, type QueuedUpload } from '../../../../lib/upload-queue';
import { checkPhotoFiles, type PhotoProblem } from '../lib/photo-checks';
import { galleryItems, withMainFirst, type GalleryItem } from '../lib/photo-list';
import { lotPhotoName, uploadLotPhoto } from '../lib/upload';
import { LotUploads, PhotoDropZone, PhotoProblems, PhotoTile } from './PhotoUploads';

/** A photo chosen on the new-lot form, uploaded once the lot exists. */
export interface PendingPhoto {
  key: string;
  file: File;
  preview: string;
}

let nextKey = 1;

/**
 * The gallery of an existing lot (edit mode): files upload at once, one after the other, each
 * shrunk in the browser first and shown with its progress; a failed one can be sent again (also
 * those the new-lot form hands over); set main reorders the lot's photos; delete removes the
 * photo in media (back-office §2 Lot form).
 */
export function EditLotPhotos({
  lot,
  handedOver,
}: {
  lot: AdminLot;
  /** uploads of the new-lot form that failed, to be sent again from here */
  handedOver?: QueuedUpload[];
}) {
  const { t } = useTranslation('admin');
  const store = useAppStore();
  const dispatch = useAppDispatch();
  const media = useGetLotPhotosQuery(lot.id);
  const [setPhotos, ordering] = useSetLotPhotosMutation();
  const [deletePhoto, deletion] = useDeleteLotPhotoMutation();
  const uploads = useUploadQueue<QueuedUpload, Photo>({
    initial: () => handedOver ?? [],
    send: (_upload, file, onProgress) => uploadLotPhoto(store, lot.id, file, onProgress),
    onDone: () =>
      dispatch(
        lotsApi.util.invalidateTags([
          { type: 'LotPhotos', id: lot.id },
          { type: 'AdminLot', id: lot.id },
        ]),
      ),
    nameOf: lotPhotoName,
    removeDoneAfterMs: 1000,
  });
  const [problems, setProblems] = useState<PhotoProblem[]>([]);
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const [deleting, setDeleting] = useState<GalleryItem | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const items = useMemo(() => galleryItems(lot.photos, media.data), [lot.photos, media.data]);
  const present = items.length + uploads.pending;

  const onFiles = async (files: File[]) => {
    const checked = await checkPhotoFiles(files, { present });
    setProblems(checked.problems);
    setServerErrors([]);
    uploads.add(checked.accepted.map((file) => waiting({ key: `upload-${nextKey++}`, file })));
  };

  const onSetMain = async (index: number) => {
    const ordered = withMainFirst(items, index);
    setServerErrors([]);
    try {
      await setPhotos({
        id: lot.id,
        photos: ordered.map((i) => i.url),
        gallery_photos: ordered.map((i) => i.large),
      }).unwrap();
    } catch (error) {
      setServerErrors([errorText(error, t('photos.orderFailed'))]);
    }
  };

  const onDelete = async () => {
    if (!deleting?.photo) return;
    setDeleteError(null);
    try {
      await deletePhoto({ lotId: lot.id, photoId: deleting.photo.id }).unwrap();
      setDeleting(null);
    } catch (error) {
      setDeleteError(errorText(error, t('photos.deleteFailed')));
    }
  };

  return (
    <section aria-labelledby="lot-photos" className="flex flex-col gap-3">
      <h2 id="lot-photos" className="text-lg font-bold text-slate-900">
        {t('photos.title')}
      </h2>
      <PhotoDropZone onFiles={(files) => void onFiles(files)} present={present} />
      <PhotoProblems problems={problems} serverErrors={serverErrors} />
      <LotUploads uploads={uploads.uploads} onRetry={uploads.retry} onDismiss={uploads.dismiss} />
      {items.length === 0 ? (
        <p className="text-slate-700">{t('photos.none')}</p>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {items.map((item, index) => (
            <PhotoTile
              key={item.key}
              src={item.thumbnail}
              index={index}
              main={index === 0}
              busy={ordering.isLoading || !item.photo}
              onSetMain={() => void onSetMain(index)}
              onDelete={() => {
                setDeleteError(null);
                setDeleting(item);
              }}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('photos.deleteTitle')}
        confirmLabel={t('ui.delete')}
        onConfirm={() => void onDelete()}
        onClose={() => setDeleting(null)}
        busy={deletion.isLoading}
        error={deleteError}
      >
        {t('photos.deleteText')}
      </ConfirmDialog>
    </section>
  );
}

/**
 * The gallery of a new lot: photos are checked and kept in the browser, and uploaded after the
 * lot was created (back-office §4 Photo upload).
 */
export function PendingLotPhotos({
  pending,
  onChange,
  uploads,
}: {
  pending: PendingPhoto[];
  onChange: (next: PendingPhoto[]) => void;
  /** the chosen photos on their way up once the lot is created */
  uploads: QueuedUpload[];
}) {
  const { t } = useTranslation('admin');
  const [problems, setProblems] = useState<PhotoProblem[]>([]);

  // the previews live as long as the form
  const latest = useRef(pending);
  useEffect(() => {
    latest.current = pending;
  }, [pending]);
  useEffect(() => () => latest.current.forEach((p) => URL.revokeObjectURL(p.preview)), []);

  const onFiles = async (files: File[]) => {
    const taken = new Set(pending.map((p) => p.file.name));
    const clash = files.filter((f) => taken.has(f.name)).map((f) => f.name);
    if (clash.length > 0) {
      setProblems([{ key: 'duplicateNames', values: { names: clash.join(', ') } }]);
      return;
    }
    const checked = await checkPhotoFiles(files, { present: pending.length });
    setProblems(checked.problems);
    onChange([
      ...pending,
      ...checked.accepted.map((file) => ({
        key: `${file.name}-${file.size}-${file.lastModified}`,
        file,
        preview: URL.createObjectURL(file),
      })),
    ]);
  };

  return (
    <section aria-labelledby="lot-photos" className="flex flex-col gap-3">
      <h2 id="lot-photos" className="text-lg font-bold text-slate-900">
        {t('photos.title')}
      </h2>
      <p className="text-sm text-slate-700">{t('photos.afterCreate')}</p>
      <PhotoDropZone onFiles={(files) => void onFiles(files)} present={pending.length} />
      <PhotoProblems problems={problems} serverErrors={[]} />
      <LotUploads uploads={uploads} />
      {pending.length > 0 && (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {pending.map((item, index) => (
            <PhotoTile
              key={item.key}
              src={item.preview}
              index={index}
              main={index === 0}
              onSetMain={() => onChange(withMainFirst(pending, index))}
              onDelete={() => {
                URL.revokeObjectURL(item.preview);
                onChange(pending.filter((p) => p.key !== item.key));
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
