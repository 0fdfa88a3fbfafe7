import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Check, Copy } from 'lucide-react';

/** Copies a text (a link) to the clipboard and says so for two seconds. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation('admin');
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <>
      <button type="button" className="btn-secondary" onClick={() => void copy()}>
        {state === 'copied' ? (
          <Check aria-hidden="true" className="size-4 text-green-700" />
        ) : (
          <Copy aria-hidden="true" className="size-4" />
        )}
        {label}
      </button>
      <span role="status" className="text-sm text-slate-700">
        {state === 'copied' ? t('ui.copied') : state === 'failed' ? t('ui.copyFailed') : ''}
      </span>
    </>
  );
}
