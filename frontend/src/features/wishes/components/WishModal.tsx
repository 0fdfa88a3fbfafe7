import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckCircle2, Send } from 'lucide-react';
import { isApiError } from '../../../app/api';
import { Modal } from '../../../components/Modal';
import {
  HoneypotField,
  SelectField,
  TextAreaField,
  TextField,
} from '../../../components/TextField';
import { useLanguage } from '../../../lib/language';
import { localize } from '../../../lib/localized';
import { useErrorText } from '../../../lib/use-field-errors';
import { firstInvalid, type FieldErrors } from '../../../lib/validation';
import { Limits } from '@furniture/contracts/limits';
import { useCreateWishMutation } from '../api/wishes-api';
import {
  EMPTY_WISH_FORM,
  WISH_FIELDS,
  buildWishPayload,
  classifyWishError,
  validateWishForm,
  type WishField,
  type WishFormValues,
} from '../lib/wish-form';

export interface WishCategoryOption {
  id: number;
  name: { de: string; uk: string };
}

/**
 * The wish form (public-site §2, §5, §8): errors show on submit and clear when their field is
 * edited. Escape, a click outside and the close button close it; scroll lock and focus return
 * come with the dialog.
 */
export default function WishModal({
  open,
  onClose,
  categories,
  categoriesFailed = false,
}: {
  open: boolean;
  onClose: () => void;
  categories: WishCategoryOption[];
  categoriesFailed?: boolean;
}) {
  const { t } = useTranslation('public');
  const lang = useLanguage();
  const errorText = useErrorText();
  const [values, setValues] = useState<WishFormValues>(EMPTY_WISH_FORM);
  const [honeypot, setHoneypot] = useState('');
  const [errors, setErrors] = useState<FieldErrors<WishField>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [createWish, { isLoading }] = useCreateWishMutation();
  const formRef = useRef<HTMLFormElement>(null);

  const change = (field: WishField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _gone, ...rest }) => rest);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (isLoading) return;
    const found = validateWishForm(values);
    setErrors(found);
    setFailure(null);
    const first = firstInvalid(WISH_FIELDS, found);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    try {
      await createWish(buildWishPayload(values, lang, honeypot)).unwrap();
      setSent(true);
      setValues(EMPTY_WISH_FORM);
    } catch (err) {
      const outcome = isApiError(err)
        ? classifyWishError(err)
        : { messageKey: 'generic' as const, message: null, fieldErrors: {} };
      setErrors(outcome.fieldErrors);
      setFailure(outcome.message ?? t(`wish.errors.${outcome.messageKey ?? 'generic'}`));
    }
  };

  const close = () => {
    onClose();
    setSent(false);
  };

  return (
    <Modal open={open} onClose={close} title={t('wish.title')} size="lg">
      {sent ? (
        <div role="status" className="flex flex-col items-center gap-3 py-4 text-center">
          <CheckCircle2 aria-hidden="true" className="size-12 text-green-700" />
          <p className="text-lg font-semibold">{t('wish.successTitle')}</p>
          <p className="text-slate-700">{t('wish.successText')}</p>
          <button type="button" className="btn-primary mt-2" onClick={close}>
            {t('common:actions.close')}
          </button>
        </div>
      ) : (
        <form ref={formRef} onSubmit={onSubmit} noValidate className="relative flex flex-col gap-4">
          <p className="text-slate-700">{t('wish.intro')}</p>
          <TextField
            label={t('wish.fields.applicantName')}
            required
            name="applicantName"
            autoComplete="name"
            value={values.applicantName}
            error={errorText(errors.applicantName)}
            onChange={(e) => change('applicantName', e.target.value)}
          />
          <TextField
            label={t('wish.fields.applicantWhatsApp')}
            required
            name="applicantWhatsApp"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            hint={t('wish.whatsappHint')}
            value={values.applicantWhatsApp}
            error={errorText(errors.applicantWhatsApp)}
            onChange={(e) => change('applicantWhatsApp', e.target.value)}
          />
          <SelectField
            label={t('wish.fields.furnitureCategory')}
            required
            name="furnitureCategory"
            value={values.furnitureCategory}
            error={errorText(errors.furnitureCategory)}
            hint={categoriesFailed ? t('wish.categoriesFailed') : undefined}
            onChange={(e) => change('furnitureCategory', e.target.value)}
          >
            <option value="">{t('wish.chooseCategory')}</option>
            {categories.map((category) => (
              <option key={category.id} value={String(category.id)}>
                {localize(category.name, lang).text}
              </option>
            ))}
          </SelectField>
          <TextAreaField
            label={t('wish.fields.furnitureDescription')}
            required
            name="furnitureDescription"
            rows={4}
            maxLength={Limits.wishDescriptionMax + 50}
            hint={t('wish.descriptionHint', {
              min: Limits.wishDescriptionMin,
              max: Limits.wishDescriptionMax,
              used: values.furnitureDescription.trim().length,
            })}
            value={values.furnitureDescription}
            error={errorText(errors.furnitureDescription)}
            onChange={(e) => change('furnitureDescription', e.target.value)}
          />
          <HoneypotField value={honeypot} onChange={setHoneypot} />
          {failure && (
            <p
              role="alert"
              className="rounded-lg border border-red-300 bg-red-50 p-3 font-medium text-red-900"
            >
              {failure}
            </p>
          )}
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <button type="button" className="btn-secondary justify-center" onClick={close}>
              {t('common:actions.cancel')}
            </button>
            <button
              type="submit"
              className="btn-primary justify-center"
              aria-disabled={isLoading || undefined}
            >
              <Send aria-hidden="true" className="size-4" />
              {isLoading ? t('wish.sending') : t('wish.submit')}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
