import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Camera, CameraOff, ScanLine } from 'lucide-react';
import { normalizeLabelCode } from '@furniture/contracts/label-codes';

/** A started camera decoder (@zxing/browser's controls). */
interface Controls {
  stop(): void;
}

/**
 * The code a label's QR code or a typed text names: the last part of a scan page's address
 * (`…/admin/scan/K7M4QX`), or the text itself; null when it cannot be a code.
 */
export function codeFromScan(text: string): string | null {
  const fromUrl = /\/admin\/scan\/([A-Za-z0-9 -]+)\/?$/.exec(text.trim());
  return normalizeLabelCode(fromUrl ? fromUrl[1]! : text);
}

/** The same code read again within this long is the same label still in front of the camera. */
const SAME_LABEL_MS = 2500;

/**
 * A label code from the phone's camera (the QR code, decoded in the browser by @zxing/browser,
 * loaded only when the camera starts) or typed by hand. `onCode` gets the code, normalized.
 */
export function CodeScanner({
  onCode,
  label,
  submitLabel,
  busy = false,
  stopAfterRead = false,
}: {
  onCode: (code: string) => void;
  /** the camera stops once it read a code (a scan that opens a page); else it reads on */
  /** the typed code's field label */
  label: string;
  /** the typed code's button */
  submitLabel: string;
  busy?: boolean;
  stopAfterRead?: boolean;
}) {
  const { t } = useTranslation('admin');
  const id = useId();
  const video = useRef<HTMLVideoElement>(null);
  const controls = useRef<Controls | null>(null);
  const last = useRef<{ code: string; at: number } | null>(null);
  const handler = useRef(onCode);
  handler.current = onCode;
  const [cameraOn, setCameraOn] = useState(false);
  const [cameraError, setCameraError] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string | null>(null);

  const stop = () => {
    controls.current?.stop();
    controls.current = null;
    setCameraOn(false);
  };
  useEffect(() => () => controls.current?.stop(), []);

  const start = async () => {
    setCameraError(null);
    setCameraOn(true);
    try {
      const { BrowserQRCodeReader } = await import('@zxing/browser');
      const reader = new BrowserQRCodeReader(undefined, { delayBetweenScanAttempts: 150 });
      controls.current = await reader.decodeFromConstraints(
        { video: { facingMode: 'environment' } },
        video.current!,
        (result) => {
          if (!result) return;
          const code = codeFromScan(result.getText());
          if (!code) return;
          const now = Date.now();
          if (last.current?.code === code && now - last.current.at < SAME_LABEL_MS) return;
          last.current = { code, at: now };
          if (stopAfterRead) stop();
          handler.current(code);
        },
      );
    } catch {
      setCameraOn(false);
      setCameraError(t('warehouse.scanner.cameraFailed'));
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = codeFromScan(typed);
    if (!code) {
      setTypedError(t('warehouse.scanner.invalidCode'));
      return;
    }
    setTypedError(null);
    setTyped('');
    onCode(code);
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-2">
        {cameraOn ? (
          <button type="button" className="btn-secondary" onClick={stop}>
            <CameraOff aria-hidden="true" className="size-4" />
            {t('warehouse.scanner.stop')}
          </button>
        ) : (
          <button type="button" className="btn-primary" onClick={() => void start()}>
            <Camera aria-hidden="true" className="size-4" />
            {t('warehouse.scanner.start')}
          </button>
        )}
      </div>
      {cameraError && (
        <p role="alert" className="rounded-lg bg-amber-50 px-3 py-2 text-amber-950">
          {cameraError}
        </p>
      )}
      <div className={cameraOn ? 'block' : 'hidden'}>
        <video
          ref={video}
          muted
          playsInline
          aria-label={t('warehouse.scanner.preview')}
          className="aspect-[4/3] w-full max-w-md rounded-lg bg-slate-900 object-cover"
        />
        <p className="mt-1 text-sm text-slate-700">{t('warehouse.scanner.hint')}</p>
      </div>
      <form noValidate onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={`${id}-code`} className="field-label">
            {label}
          </label>
          <input
            id={`${id}-code`}
            className="field-input font-mono uppercase"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
            value={typed}
            aria-invalid={typedError ? true : undefined}
            aria-describedby={typedError ? `${id}-error` : `${id}-hint`}
            onChange={(e) => setTyped(e.target.value)}
          />
          {typedError ? (
            <p id={`${id}-error`} className="field-error">
              {typedError}
            </p>
          ) : (
            <p id={`${id}-hint`} className="field-hint">
              {t('warehouse.scanner.typedHint')}
            </p>
          )}
        </div>
        <button type="submit" className="btn-secondary mb-6" disabled={busy}>
          <ScanLine aria-hidden="true" className="size-4" />
          {submitLabel}
        </button>
      </form>
    </div>
  );
}
