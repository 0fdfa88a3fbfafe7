import type { ReactNode } from 'react';
import { AlertTriangle } from 'lucide-react';
import { Modal } from '../../../components/Modal';
import { DialogActions } from './DialogActions';

/** "Really?" before something that cannot be undone; the error of a failed attempt stays inside. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
  busy = false,
  error,
  danger = true,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  busy?: boolean;
  error?: string | null;
  danger?: boolean;
}) {
  return (
    <Modal
      open={open}
      onClose={busy ? () => undefined : onClose}
      title={title}
      size="sm"
      role="alertdialog"
    >
      <div className="flex gap-3 text-slate-800">
        {danger && (
          <AlertTriangle aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-red-700" />
        )}
        <div className="flex-1">{children}</div>
      </div>
      {error && (
        <p
          role="alert"
          className="mt-4 rounded-lg border border-red-300 bg-red-50 p-3 text-red-900"
        >
          {error}
        </p>
      )}
      <DialogActions
        className="mt-6"
        onCancel={onClose}
        onConfirm={onConfirm}
        busy={busy}
        tone={danger ? 'danger' : 'strong'}
        label={confirmLabel}
      />
    </Modal>
  );
}
