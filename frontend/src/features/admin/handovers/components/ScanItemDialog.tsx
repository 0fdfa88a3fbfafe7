import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, Check, CheckCircle2 } from 'lucide-react';
import { Modal } from '../../../../components/Modal';
import { useLanguage } from '../../../../lib/language';
import { localize } from '../../../../lib/localized';
import { apiErrorOf, errorText } from '../../lib/errors';
import { CodeScanner } from '../../ui/CodeScanner';
import { useScanItemMutation, type DayPlanStop } from '../api/handovers-api';

type State =
  | { step: 'scan' }
  | { step: 'warned'; code: string; message: string }
  | { step: 'checked'; match: boolean };

/**
 * The item at a stop (issue 45), before "erledigt": the driver scans or types its label; another
 * lot's code is a warning that names both lots and needs a second confirmation.
 */
export function ScanItemDialog({
  stop,
  onDone,
  onClose,
}: {
  stop: DayPlanStop & { lot: NonNullable<DayPlanStop['lot']> };
  /** the check is recorded: go on to "erledigt" */
  onDone: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [scan, scanning] = useScanItemMutation();
  const [state, setState] = useState<State>({ step: 'scan' });
  const [failure, setFailure] = useState<string | null>(null);
  const lot = localize(stop.lot.name, lang);

  const send = async (code: string, confirm = false) => {
    setFailure(null);
    try {
      const answer = await scan({ id: stop.id, code, confirm }).unwrap();
      setState({ step: 'checked', match: answer.match });
    } catch (error) {
      const api = apiErrorOf(error);
      if (api?.status === 409 && (api.code === 'WRONG_ITEM' || api.code === 'UNKNOWN_ITEM'))
        setState({ step: 'warned', code, message: api.message });
      else setFailure(errorText(error, t('handovers.scan.failed')));
    }
  };

  return (
    <Modal open onClose={onClose} title={t('handovers.scan.title', { name: stop.family.name })}>
      <div className="flex flex-col gap-4">
        <p className="text-slate-900">
          {t('handovers.scan.booked', { id: stop.lot.id })}{' '}
          <span lang={lot.lang} className="font-semibold">
            {lot.text}
          </span>
        </p>
        {state.step === 'scan' && (
          <CodeScanner
            label={t('warehouse.scanner.code')}
            submitLabel={t('handovers.scan.check')}
            busy={scanning.isLoading}
            stopAfterRead
            onCode={(code) => void send(code)}
          />
        )}
        {state.step === 'warned' && (
          <div
            role="alert"
            className="flex flex-col gap-3 rounded-lg border border-amber-400 bg-amber-50 p-3 text-amber-950"
          >
            <p className="flex items-start gap-2 font-semibold">
              <AlertTriangle aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
              {state.message}
            </p>
            <p>{t('handovers.scan.warnedText')}</p>
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                className="btn-primary"
                onClick={() => setState({ step: 'scan' })}
              >
                {t('handovers.scan.again')}
              </button>
              <button
                type="button"
                className="btn border border-red-700 bg-white text-red-800 hover:bg-red-50"
                disabled={scanning.isLoading}
                onClick={() => void send(state.code, true)}
              >
                {t('handovers.scan.confirm')}
              </button>
            </div>
          </div>
        )}
        {state.step === 'checked' && (
          <div role="status" className="flex flex-col gap-3">
            <p
              className={`flex items-center gap-2 font-semibold ${state.match ? 'text-green-800' : 'text-amber-900'}`}
            >
              {state.match ? (
                <CheckCircle2 aria-hidden="true" className="size-5" />
              ) : (
                <AlertTriangle aria-hidden="true" className="size-5" />
              )}
              {state.match ? t('handovers.scan.match') : t('handovers.scan.confirmed')}
            </p>
            <div className="flex flex-wrap gap-2">
              <button
                type="button"
                className="btn bg-green-700 text-white hover:bg-green-800"
                onClick={onDone}
              >
                <Check aria-hidden="true" className="size-4" />
                {t('handovers.scan.toDone')}
              </button>
              <button type="button" className="btn-secondary" onClick={onClose}>
                {t('ui.close')}
              </button>
            </div>
          </div>
        )}
        {failure && (
          <p role="alert" className="font-medium text-red-800">
            {failure}
          </p>
        )}
      </div>
    </Modal>
  );
}
