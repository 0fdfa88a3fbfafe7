import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PreparedMessages, type Language, type PreparedMessage } from '@furniture/contracts/enums';
import { Modal } from '../../../../components/Modal';
import { errorText } from '../../lib/errors';
import { DialogActions } from '../../ui/DialogActions';
import { ErrorBox } from '../../ui/PageHeader';
import { useToast } from '../../ui/Toasts';
import { useSendPreparedMessageMutation } from '../api/messages-api';

export interface SendTarget {
  to: 'application' | 'wish';
  id: number;
  /** the family's language: the message goes in it */
  language: Language;
}

/**
 * Staff choose one of the prepared messages (issue 30) and send it to the family of an
 * application or a wish; the server answers 202 and the message shows in the list a moment later.
 */
export function SendMessageDialog({
  target,
  onClose,
  onSent,
}: {
  target: SendTarget;
  onClose: () => void;
  onSent: () => void;
}) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const name = useId();
  const [template, setTemplate] = useState<PreparedMessage>(PreparedMessages[0]);
  const [send, { isLoading }] = useSendPreparedMessageMutation();
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (isLoading) return;
    setFailure(null);
    try {
      await send({ to: target.to, id: target.id, template }).unwrap();
      toast('success', t('messages.sent'));
      onSent();
      onClose();
    } catch (error) {
      setFailure(errorText(error, t('messages.sendFailed')));
    }
  };

  return (
    <Modal
      open
      onClose={isLoading ? () => undefined : onClose}
      title={t('messages.sendTitle')}
      description={t('messages.sendIntro', {
        language: t(`messages.languageName.${target.language}`),
      })}
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        {failure && <ErrorBox>{failure}</ErrorBox>}
        <fieldset>
          <legend className="mb-2 font-semibold text-slate-900">{t('messages.sendChoose')}</legend>
          <div className="flex flex-col gap-2">
            {PreparedMessages.map((option) => {
              const id = `${name}-${option}`;
              return (
                <label
                  key={option}
                  htmlFor={id}
                  className={`flex cursor-pointer items-start gap-3 rounded-lg border p-3 ${
                    template === option ? 'border-blue-700 bg-blue-50' : 'border-slate-300'
                  }`}
                >
                  <input
                    id={id}
                    type="radio"
                    name={name}
                    value={option}
                    checked={template === option}
                    onChange={() => setTemplate(option)}
                    aria-labelledby={`${id}-label`}
                    aria-describedby={`${id}-text`}
                    className="mt-1 size-4 shrink-0"
                  />
                  <span>
                    <span id={`${id}-label`} className="block font-medium text-slate-900">
                      {t(`messages.prepared.${option}.label`)}
                    </span>
                    <span id={`${id}-text`} className="block text-sm text-slate-700">
                      {t(`messages.prepared.${option}.text`)}
                    </span>
                  </span>
                </label>
              );
            })}
          </div>
        </fieldset>
        <DialogActions onCancel={onClose} busy={isLoading} label={t('messages.sendButton')} />
      </form>
    </Modal>
  );
}
