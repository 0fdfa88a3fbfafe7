import type { ReactNode } from 'react';
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useReturnFocus } from '../lib/use-return-focus';

/**
 * A dialog with a title and a close button. Headless UI gives it role="dialog", aria-modal,
 * the title as its name, a focus trap, Escape and outside click to close, scroll lock and focus
 * return to the element that opened it (also the first time a lazily loaded dialog opens).
 */
export function Modal({
  open,
  onClose,
  title,
  children,
  description,
  size = 'md',
  role,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  description?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  role?: 'dialog' | 'alertdialog';
}) {
  const { t } = useTranslation('common');
  useReturnFocus(open);
  const width = { sm: 'sm:max-w-md', md: 'sm:max-w-lg', lg: 'sm:max-w-2xl' }[size];
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50" role={role}>
      <DialogBackdrop className="fixed inset-0 bg-slate-950/60" />
      <div className="fixed inset-0 overflow-y-auto">
        <div className="flex min-h-full items-end justify-center sm:items-center sm:p-4">
          <DialogPanel
            className={`relative w-full rounded-t-2xl bg-white p-5 shadow-xl sm:rounded-2xl sm:p-6 ${width}`}
          >
            <div className="flex items-start justify-between gap-4">
              <DialogTitle as="h2" className="text-xl font-bold text-slate-900">
                {title}
              </DialogTitle>
              <button
                type="button"
                onClick={onClose}
                aria-label={t('actions.close')}
                className="-m-2 inline-flex size-11 shrink-0 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100"
              >
                <X aria-hidden="true" className="size-6" />
              </button>
            </div>
            {description && <div className="mt-1 text-slate-700">{description}</div>}
            <div className="mt-4">{children}</div>
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  );
}
