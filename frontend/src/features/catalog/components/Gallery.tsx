import { lazy, Suspense, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronLeft, ChevronRight, ImageOff, Maximize2 } from 'lucide-react';
import { galleryImage, thumbnailOf } from '../lib/photos';

// the viewer (and the dialog library under it) loads when a photo is opened, not with the page
const FullscreenViewer = lazy(() =>
  import('./FullscreenViewer').then((m) => ({ default: m.FullscreenViewer })),
);

export interface GalleryProps {
  /** medium images, shown in the page */
  photos: string[];
  /** large images of the same photos, for the full-screen view */
  large: string[];
  /** the lot's name, for alt texts */
  name: string;
  nameLang?: string;
}

/**
 * Photo, previous/next, counter and thumbnails; the arrow keys move between photos while the
 * gallery has focus; the photo opens a full-screen view (Escape closes it).
 */
export function Gallery({ photos, large, name, nameLang }: GalleryProps) {
  const { t } = useTranslation('public');
  const [index, setIndex] = useState(0);
  const [fullscreen, setFullscreen] = useState(false);
  const count = photos.length;

  if (count === 0) {
    return (
      <div className="flex aspect-[4/3] flex-col items-center justify-center gap-2 rounded-xl bg-slate-100 text-slate-600">
        <ImageOff aria-hidden="true" className="size-10" />
        <span>{t('lot.noPhoto')}</span>
      </div>
    );
  }

  const current = Math.min(index, count - 1);
  const go = (delta: number) => setIndex((i) => (Math.min(i, count - 1) + delta + count) % count);
  // the same sources as the early preload of the first photo (app/early-loads.ts)
  const image = galleryImage(photos[current]!, large[current]);
  const altOf = (i: number) => t('gallery.photoAlt', { name, n: i + 1, count });

  const onKeyDown = (e: KeyboardEvent) => {
    if (count < 2) return;
    if (e.key === 'ArrowLeft') {
      e.preventDefault();
      go(-1);
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      go(1);
    }
  };

  return (
    <section aria-label={t('gallery.label')} onKeyDown={onKeyDown}>
      <div className="relative overflow-hidden rounded-xl bg-slate-100">
        <button
          type="button"
          onClick={() => setFullscreen(true)}
          className="group block aspect-[4/3] w-full"
          aria-label={t('gallery.openFullscreen', { n: current + 1, count })}
        >
          <img
            src={image.src}
            srcSet={image.srcSet}
            sizes={image.sizes}
            // the largest thing on the lot page: fetched before anything else waiting
            fetchPriority="high"
            alt={altOf(current)}
            lang={nameLang}
            className="size-full object-contain"
            decoding="async"
          />
          <span className="absolute top-2 right-2 rounded-full bg-slate-900/70 p-2 text-white">
            <Maximize2 aria-hidden="true" className="size-5" />
          </span>
        </button>
        {count > 1 && (
          <>
            <button
              type="button"
              onClick={() => go(-1)}
              aria-label={t('gallery.previous')}
              className="absolute top-1/2 left-2 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-white/90 text-slate-900 shadow hover:bg-white"
            >
              <ChevronLeft aria-hidden="true" className="size-6" />
            </button>
            <button
              type="button"
              onClick={() => go(1)}
              aria-label={t('gallery.next')}
              className="absolute top-1/2 right-2 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-white/90 text-slate-900 shadow hover:bg-white"
            >
              <ChevronRight aria-hidden="true" className="size-6" />
            </button>
          </>
        )}
        <p
          aria-live="polite"
          className="absolute bottom-2 left-1/2 -translate-x-1/2 rounded-full bg-slate-900/75 px-3 py-1 text-sm font-medium text-white"
        >
          {t('gallery.counter', { n: current + 1, count })}
        </p>
      </div>

      {count > 1 && (
        <ul className="mt-3 flex gap-2 overflow-x-auto pb-1">
          {photos.map((photo, i) => (
            <li key={photo} className="shrink-0">
              <button
                type="button"
                onClick={() => setIndex(i)}
                aria-label={t('gallery.show', { n: i + 1, count })}
                aria-current={i === current ? 'true' : undefined}
                className={`block size-16 overflow-hidden rounded-lg border-2 sm:size-20 ${
                  i === current
                    ? 'border-blue-700'
                    : 'border-transparent opacity-80 hover:opacity-100'
                }`}
              >
                <img
                  src={thumbnailOf(photo)}
                  alt=""
                  loading="lazy"
                  className="size-full object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      )}

      {fullscreen && (
        <Suspense fallback={null}>
          <FullscreenViewer
            open={fullscreen}
            onClose={() => setFullscreen(false)}
            photos={large.length === count ? large : photos}
            index={current}
            onIndexChange={setIndex}
            name={name}
            altOf={altOf}
          />
        </Suspense>
      )}
    </section>
  );
}
