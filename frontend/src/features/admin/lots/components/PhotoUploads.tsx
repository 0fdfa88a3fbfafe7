import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ImagePlus, Star, Trash2 } from 'lucide-react';
import { Limits, PHOTO_EXTENSIONS, PHOTO_MIME_TYPES } from '@furniture/contracts/limits';
import { UploadRow } from '../../../../components/UploadRow';
import type { QueuedUpload } from '../../../../lib/upload-queue';
import type { PhotoProblem } from '../lib/photo-checks';

const ACCEPT = [...PHOTO_EXTENSIONS, ...PHOTO_MIME_TYPES].join(',');

/** The drop zone of back-office §2 Lot form: a file picker that also takes dropped files. */
export function PhotoDropZone({
  onFiles,
  present,
  disabled = false,
}: {
  onFiles: (files: File[]) => void;
  present: number;
  disabled?: boolean;
}) {
  const { t } = useTranslation('admin');
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const full = present >= Limits.photosPerLot;

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!disabled && !full) onFiles([...e.dataTransfer.files]);
  };

  return (
    <div
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled && !full) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={`flex flex-col items-center gap-2 rounded-xl border-2 border-dashed p-5 text-center ${
        over ? 'border-blue-700 bg-blue-50' : 'border-slate-300 bg-slate-50'
      }`}
    >
      <ImagePlus aria-hidden="true" className="size-8 text-slate-600" />
      <p className="font-medium text-slate-900">{full ? t('photos.full') : t('photos.dropHere')}</p>
      <p className="text-sm text-slate-700">
        {t('photos.rules', { n: present, max: Limits.photosPerLot })}
      </p>
      <label
        className={`btn-secondary ${disabled || full ? 'pointer-events-none opacity-60' : ''}`}
      >
        {t('photos.choose')}
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          className="sr-only"
          disabled={disabled || full}
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            // the same file may be chosen again after a refusal
            e.target.value = '';
            onFiles(files);
          }}
        />
      </label>
    </div>
  );
}

/** The refusals of the browser-side checks and of the server, in the page language. */
export function PhotoProblems({
  problems,
  serverErrors,
}: {
  problems: PhotoProblem[];
  serverErrors: string[];
}) {
  const { t } = useTranslation('admin');
  if (problems.length === 0 && serverErrors.length === 0) return null;
  return (
    <ul
      role="alert"
      className="flex flex-col gap-1 rounded-lg border border-red-300 bg-red-50 p-3 text-red-900"
    >
      {problems.map((p, i) => (
        <li key={`p-${i}`}>{t(`photos.errors.${p.key}`, p.values)}</li>
      ))}
      {serverErrors.map((text, i) => (
        <li key={`s-${i}`}>{text}</li>
      ))}
    </ul>
  );
}

/** A failed upload in the spec's words: 'Fehler beim Hochladen von {file}: …'. */
export function uploadFailure(t: TFunction<'admin'>, upload: QueuedUpload): string {
  const message =
    upload.error ?? (upload.status === 0 ? t('common:upload.network') : t('ui.unexpected'));
  return t('photos.uploadFailed', { file: upload.file.name, message });
}

/**
 * The photos on their way up, each with its bar (back-office §9; a photo that arrived leaves the
 * list a second later). A failed one says why in the spec's words, and can be sent again where
 * that can help (no answer, 429, a server fault) or dismissed.
 */
export function LotUploads({
  uploads,
  onRetry,
  onDismiss,
}: {
  uploads: QueuedUpload[];
  onRetry?: (key: string) => void;
  onDismiss?: (key: string) => void;
}) {
  const { t } = useTranslation('admin');
  if (uploads.length === 0) return null;
  return (
    <ul className="flex flex-col gap-3" aria-label={t('photos.uploads')}>
      {uploads.map((upload) => {
        const file = upload.file.name;
        return (
          <UploadRow
            key={upload.key}
            upload={upload}
            label={file}
            barLabel={t('photos.uploading', { file })}
            failure={uploadFailure(t, upload)}
            onRetry={onRetry && (() => onRetry(upload.key))}
            onDismiss={onDismiss && (() => onDismiss(upload.key))}
          />
        );
      })}
    </ul>
  );
}

/** One tile of the gallery: the picture, a "main photo" mark, set-main and delete. */
export function PhotoTile({
  src,
  index,
  main,
  onSetMain,
  onDelete,
  busy = false,
}: {
  src: string;
  index: number;
  main: boolean;
  onSetMain: () => void;
  onDelete: () => void;
  busy?: boolean;
}) {
  const { t } = useTranslation('admin');
  return (
    <li
      className={`relative overflow-hidden rounded-lg border bg-white ${main ? 'border-blue-800 ring-2 ring-blue-800' : 'border-slate-200'}`}
    >
      <img
        src={src}
        alt={t('photos.photoN', { n: index + 1 })}
        className="aspect-[4/3] w-full object-cover"
        loading="lazy"
      />
      {main && (
        <span className="absolute top-2 left-2 inline-flex items-center gap-1 rounded-full bg-blue-800 px-2 py-0.5 text-xs font-semibold text-white">
          <Star aria-hidden="true" className="size-3" />
          {t('photos.main')}
        </span>
      )}
      <div className="flex gap-1 p-1.5">
        {!main && (
          <button
            type="button"
            className="inline-flex min-h-9 flex-1 items-center justify-center gap-1 rounded-md px-2 text-sm font-medium text-blue-800 hover:bg-blue-50 disabled:opacity-50"
            onClick={onSetMain}
            disabled={busy}
          >
            <Star aria-hidden="true" className="size-4" />
            {t('photos.setMain')}
          </button>
        )}
        <button
          type="button"
          className="ml-auto inline-flex size-9 items-center justify-center rounded-md text-red-700 hover:bg-red-50 disabled:opacity-50"
          onClick={onDelete}
          disabled={busy}
          aria-label={t('photos.deleteN', { n: index + 1 })}
        >
          <Trash2 aria-hidden="true" className="size-4" />
        </button>
      </div>
    </li>
  );
}
