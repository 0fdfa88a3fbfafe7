import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImagePlus, Trash2 } from 'lucide-react';
import { Limits, PHOTO_EXTENSIONS, PHOTO_MIME_TYPES } from '@furniture/contracts/limits';
import { checkDonorPhotos, type DonorPhotoProblem } from '../lib/photo-checks';
import type { ChosenPhoto } from '../lib/donation-form';

const ACCEPT = [...PHOTO_EXTENSIONS, ...PHOTO_MIME_TYPES].join(',');

let nextKey = 1;

/**
 * The photos of one item: chosen here, checked in the browser (checkDonorPhotos), shown as
 * previews with a remove button; they upload once the donation is stored.
 */
export function PhotoPicker({
  itemNumber,
  photos,
  onChange,
}: {
  itemNumber: number;
  photos: ChosenPhoto[];
  onChange: (photos: ChosenPhoto[]) => void;
}) {
  const { t } = useTranslation('donate');
  const [problems, setProblems] = useState<DonorPhotoProblem[]>([]);
  const [checking, setChecking] = useState(false);
  const full = photos.length >= Limits.donationPhotosPerItem;

  const add = async (files: File[]) => {
    if (files.length === 0) return;
    setChecking(true);
    const checked = await checkDonorPhotos(files, photos.length);
    setChecking(false);
    setProblems(checked.problems);
    onChange([
      ...photos,
      ...checked.accepted.map((file) => ({
        key: `photo-${nextKey++}`,
        file,
        preview: URL.createObjectURL(file),
      })),
    ]);
  };

  const remove = (photo: ChosenPhoto) => {
    URL.revokeObjectURL(photo.preview);
    setProblems([]);
    onChange(photos.filter((p) => p.key !== photo.key));
  };

  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="field-label">
        {t('photos.legend')}{' '}
        <span className="font-normal text-slate-600">({t('common:form.optional')})</span>
      </legend>
      <p className="field-hint -mt-2">
        {t('photos.hint', {
          max: Limits.donationPhotosPerItem,
          side: Limits.photoUploadLongSide,
        })}
      </p>
      {photos.length > 0 && (
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5">
          {photos.map((photo, i) => (
            <li
              key={photo.key}
              className="relative overflow-hidden rounded-lg border border-slate-200"
            >
              <img
                src={photo.preview}
                alt={t('photos.photoOf', { n: i + 1, item: itemNumber })}
                className="aspect-square w-full object-cover"
              />
              <button
                type="button"
                onClick={() => remove(photo)}
                aria-label={t('photos.remove', { n: i + 1, item: itemNumber })}
                className="absolute top-1 right-1 inline-flex size-9 items-center justify-center rounded-full bg-white/90 text-red-800 shadow hover:bg-white"
              >
                <Trash2 aria-hidden="true" className="size-4" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <label
          className={`btn-secondary cursor-pointer focus-within:ring-2 focus-within:ring-blue-700 ${full || checking ? 'pointer-events-none opacity-60' : ''}`}
        >
          <ImagePlus aria-hidden="true" className="size-4" />
          {t('photos.choose')}
          <span className="sr-only"> ({t('item.title', { n: itemNumber })})</span>
          <input
            type="file"
            multiple
            accept={ACCEPT}
            className="sr-only"
            disabled={full || checking}
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              // the same file may be chosen again after a refusal
              e.target.value = '';
              void add(files);
            }}
          />
        </label>
        <span className="text-sm text-slate-700" aria-live="polite">
          {checking
            ? t('photos.checking')
            : t('photos.count', { n: photos.length, max: Limits.donationPhotosPerItem })}
        </span>
      </div>
      {problems.length > 0 && (
        <ul
          role="alert"
          className="flex flex-col gap-1 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900"
        >
          {problems.map((p, i) => (
            <li key={i}>{t(`photos.errors.${p.key}`, p.values)}</li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
