import { useEffect, useState } from 'react';

/** The opener of the dialog that is open now (a dialog opened from inside a dialog goes back to it). */
let outerOpener: HTMLElement | null = null;

function focusedOpener(): HTMLElement | null {
  const active = typeof document === 'undefined' ? null : document.activeElement;
  if (!(active instanceof HTMLElement) || active === document.body) return null;
  // a dialog that replaces another one (apply → "already applied") returns to the first opener
  if (active.closest('[role="dialog"],[role="alertdialog"]')) return outerOpener;
  return active;
}

/**
 * Focus goes back to the element that opened a dialog once it closes or unmounts. Headless UI
 * does this from a history of focused elements that starts when its code loads, so a dialog
 * loaded lazily on its first opening left focus on <body>; the opener is taken here while the
 * dialog renders open for the first time, before any of its effects moves focus into it.
 */
export function useReturnFocus(open: boolean): void {
  const [opener, setOpener] = useState<HTMLElement | null>(null);
  const [wasOpen, setWasOpen] = useState(false);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setOpener(focusedOpener());
  }
  useEffect(() => {
    if (!open || !opener) return;
    outerOpener = opener;
    return () => {
      // after Headless UI's own attempt (a microtask): only when focus was lost
      setTimeout(() => {
        const active = document.activeElement;
        if (opener.isConnected && (!active || active === document.body)) opener.focus();
        if (outerOpener === opener) outerOpener = null;
      }, 0);
    };
  }, [open, opener]);
}
