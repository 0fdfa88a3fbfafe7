import type { KeyboardEvent } from 'react';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useTranslation } from 'react-i18next';
import { ChevronLeft, ChevronRight, X } from 'lucide-react';
import { useReturnFocus } from '../../../lib/use-return-focus';

/** The photos over the whole screen: Escape closes, the arrow keys move between photos. */
export function FullscreenViewer({
  open,
  onClose,
  photos,
  index,
  onIndexChange,
  name,
  altOf,
}: {
  open: boolean;
  onClose: () => void;
  photos: string[];
  index: number;
  onIndexChange: (index: number) => void;
  name: string;
  altOf: (index: number) => string;
}) {
  const { t } = useTranslation('public');
  useReturnFocus(open);
  const count = photos.length;
  const go = (delta: number) => onIndexChange((index + delta + count) % count);

  const onKeyDown = (e: KeyboardEvent) => {
    // the dialog is rendered in a portal, but React events still bubble to the gallery
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      e.stopPropagation();
      if (count > 1) go(e.key === 'ArrowLeft' ? -1 : 1);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-slate-950" aria-hidden="true" />
      <DialogPanel className="fixed inset-0 flex flex-col text-white" onKeyDown={onKeyDown}>
        <div className="flex items-center justify-between gap-3 p-3">
          <DialogTitle className="min-w-0 truncate font-semibold">
            {name}
            <span className="ml-2 font-normal text-slate-300">
              {t('gallery.counter', { n: index + 1, count })}
            </span>
          </DialogTitle>
          <button
            type="button"
            onClick={onClose}
            aria-label={t('gallery.closeFullscreen')}
            className="inline-flex size-11 shrink-0 items-center justify-center rounded-full bg-white/10 hover:bg-white/20"
          >
            <X aria-hidden="true" className="size-6" />
          </button>
        </div>
        <div className="relative flex min-h-0 flex-1 items-center justify-center px-2 pb-4">
          <img
            src={photos[index]}
            alt={altOf(index)}
            className="max-h-full max-w-full object-contain"
          />
          {count > 1 && (
            <>
              <button
                type="button"
                onClick={() => go(-1)}
                aria-label={t('gallery.previous')}
                className="absolute top-1/2 left-2 inline-flex size-12 -translate-y-1/2 items-center justify-center rounded-full bg-slate-900/70 ring-1 ring-white/60 hover:bg-slate-900/90"
              >
                <ChevronLeft aria-hidden="true" className="size-7" />
              </button>
              <button
                type="button"
                onClick={() => go(1)}
                aria-label={t('gallery.next')}
                className="absolute top-1/2 right-2 inline-flex size-12 -translate-y-1/2 items-center justify-center rounded-full bg-slate-900/70 ring-1 ring-white/60 hover:bg-slate-900/90"
              >
                <ChevronRight aria-hidden="true" className="size-7" />
              </button>
            </>
          )}
        </div>
      </DialogPanel>
    </Dialog>
  );
}
