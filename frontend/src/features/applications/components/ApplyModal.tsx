import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Send } from 'lucide-react';
import type { ApplicationCreated, EligibilityCheck } from '@furniture/contracts/api/applications';
import { Limits } from '@furniture/contracts/limits';
import { isPhoneShaped, normalizePhoneInput } from '@furniture/contracts/phone';
import { isApiError } from '../../../app/api';
import { ErrorBanner } from '../../../components/Banner';
import { Modal } from '../../../components/Modal';
import { HoneypotField, TextField } from '../../../components/TextField';
import { useLanguage } from '../../../lib/language';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useErrorText } from '../../../lib/use-field-errors';
import { firstInvalid, type FieldErrors } from '../../../lib/validation';
import { useCanApplyQuery, useSubmitApplicationMutation } from '../api/applications-api';
import { loadDraft, saveDraft, useDevicePhone } from '../lib/applicant-memory';
import {
  APPLY_FIELDS,
  buildApplicationPayload,
  classifySubmitError,
  validateApplyForm,
  type ApplyField,
  type ApplyFormValues,
} from '../lib/apply-form';
import { RememberCheckbox } from './RememberPhone';

/** Why the family cannot apply, in the page language (the server's text as a fallback). */
function useReasonText() {
  const { t } = useTranslation('public');
  return useCallback(
    (check: EligibilityCheck) =>
      check.reason_code
        ? t(`apply.reasons.${check.reason_code}`, {
            count: check.total_applications,
            max: check.max_open_applications,
          })
        : check.reason || t('apply.cannotApply'),
    [t],
  );
}

/**
 * The apply form (public-site §2, §5, §8). A phone-based eligibility check runs while the family
 * types; while it says no, submitting is blocked and the reason is shown.
 */

/** A random key (crypto.randomUUID exists only on https and localhost pages). */
function newRequestKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export default function ApplyModal({
  open,
  onClose,
  lotId,
  lotName,
  onApplied,
  onDuplicate,
}: {
  open: boolean;
  onClose: () => void;
  lotId: number;
  lotName: string;
  /** `remember`: the family ticked "remember my number on this device" */
  onApplied: (created: ApplicationCreated, phone: string, remember: boolean) => void;
  onDuplicate: () => void;
}) {
  const { t } = useTranslation('public');
  const lang = useLanguage();
  const errorText = useErrorText();
  const reasonText = useReasonText();
  const [values, setValues] = useState<ApplyFormValues>(loadDraft);
  const [honeypot, setHoneypot] = useState('');
  // off unless this device already remembers a number (the family chose it before)
  const devicePhone = useDevicePhone();
  const [remember, setRemember] = useState(devicePhone !== null);
  const [errors, setErrors] = useState<FieldErrors<ApplyField>>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [submit, { isLoading: submitting }] = useSubmitApplicationMutation();
  const formRef = useRef<HTMLFormElement>(null);
  // one key per opened form: a resend of the same application is recognised by the server
  const [requestKey] = useState(newRequestKey);

  // nothing typed is lost: the draft survives closing the modal and the next lot
  useEffect(() => saveDraft(values), [values]);

  const phone = isPhoneShaped(values.phone) ? normalizePhoneInput(values.phone) : '';
  const checkedPhone = useDebouncedValue(phone, Limits.searchDebounceMs);
  const eligibility = useCanApplyQuery(
    { lotId, phone: checkedPhone },
    { skip: !open || !checkedPhone, refetchOnMountOrArgChange: true },
  );
  const check = checkedPhone === phone ? eligibility.currentData : undefined;
  const blocked = check?.can_apply === false;
  const checkFailed = checkedPhone === phone && eligibility.isError && !eligibility.isFetching;

  const dismissBanner = useCallback(() => setBanner(null), []);

  const change = (field: keyof ApplyFormValues, value: string | boolean) => {
    setValues((v) => ({ ...v, [field]: value }));
    // a field's error goes away as soon as it is edited
    if (field !== 'needsDeliveryHelp' && errors[field]) {
      setErrors(({ [field]: _gone, ...rest }) => rest);
    }
  };

  const focusField = (field: ApplyField) =>
    formRef.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    const found = validateApplyForm(values);
    setErrors(found);
    const first = firstInvalid(APPLY_FIELDS, found);
    if (first) {
      focusField(first);
      return;
    }
    if (blocked) {
      // "you applied for this lot before" gets the duplicate dialog, whether the check or the
      // server (when sent before the check answered) says it first (public-site §8)
      if (check?.reason_code === 'already_applied') {
        onDuplicate();
        return;
      }
      setBanner(check ? reasonText(check) : t('apply.cannotApply'));
      return;
    }
    setBanner(null);
    const payload = buildApplicationPayload(values, lotId, lang, honeypot);
    try {
      const created = await submit({ body: payload, key: requestKey }).unwrap();
      onApplied(created, payload.applicant_phone, remember);
    } catch (err) {
      const outcome = isApiError(err)
        ? classifySubmitError(err, t)
        : ({ kind: 'banner', message: t('apply.errors.generic'), fieldErrors: {} } as const);
      if (outcome.kind === 'duplicate') {
        onDuplicate();
        return;
      }
      setErrors(outcome.fieldErrors);
      setBanner(outcome.message);
    }
  };

  const field = (name: ApplyField) => ({
    name,
    value: values[name],
    error: errorText(errors[name]),
    onChange: (e: { target: { value: string } }) => change(name, e.target.value),
  });

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('apply.title')}
      description={<span>{lotName}</span>}
      size="lg"
    >
      <form ref={formRef} onSubmit={onSubmit} noValidate className="relative flex flex-col gap-4">
        <p className="text-sm text-slate-700">{t('apply.intro')}</p>
        <p className="text-sm text-slate-700">
          <span aria-hidden="true" className="text-red-800">
            *
          </span>{' '}
          {t('common:form.requiredNote')}
        </p>
        <TextField label={t('apply.fields.name')} required autoComplete="name" {...field('name')} />
        <TextField
          label={t('apply.fields.phone')}
          required
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          hint={t('apply.phoneHint')}
          {...field('phone')}
        />
        {checkedPhone && checkedPhone === phone && (
          <div aria-live="polite">
            {eligibility.isFetching ? (
              <p className="text-sm text-slate-700">{t('apply.checking')}</p>
            ) : blocked && check ? (
              <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm font-medium text-amber-950">
                {reasonText(check)}
              </p>
            ) : checkFailed ? (
              <p className="text-sm text-slate-700">{t('apply.eligibilityError')}</p>
            ) : check?.can_apply ? (
              <p className="text-sm font-medium text-green-800">{t('apply.canApply')}</p>
            ) : null}
          </div>
        )}
        <TextField
          label={t('apply.fields.whatsapp')}
          required
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          {...field('whatsapp')}
        />
        {values.phone.trim() !== '' && values.whatsapp.trim() === '' && (
          <button
            type="button"
            className="-mt-2 self-start text-sm font-medium text-blue-800 underline underline-offset-4"
            onClick={() => change('whatsapp', values.phone)}
          >
            {t('apply.sameAsPhone')}
          </button>
        )}
        <TextField
          label={t('apply.fields.email')}
          type="email"
          inputMode="email"
          autoComplete="email"
          hint={t('apply.emailHint')}
          {...field('email')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('apply.fields.city')}
            autoComplete="address-level2"
            {...field('city')}
          />
          <TextField
            label={t('apply.fields.address')}
            autoComplete="street-address"
            {...field('address')}
          />
        </div>
        <label className="flex items-start gap-3 rounded-lg border border-slate-300 p-3">
          <input
            type="checkbox"
            name="needsDeliveryHelp"
            checked={values.needsDeliveryHelp}
            onChange={(e) => change('needsDeliveryHelp', e.target.checked)}
            className="mt-1 size-5 shrink-0 accent-blue-800"
          />
          <span>
            <span className="font-medium">{t('apply.fields.needsDeliveryHelp')}</span>
            <span className="block text-sm text-slate-700">{t('apply.deliveryHint')}</span>
          </span>
        </label>
        <RememberCheckbox checked={remember} onChange={setRemember} />
        <HoneypotField value={honeypot} onChange={setHoneypot} />

        {banner && (
          <ErrorBanner
            message={banner}
            onDismiss={dismissBanner}
            durationMs={Limits.errorBannerMs}
          />
        )}

        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className="btn-secondary justify-center" onClick={onClose}>
            {t('common:actions.cancel')}
          </button>
          <button
            type="submit"
            className="btn-primary justify-center aria-disabled:cursor-not-allowed aria-disabled:opacity-60"
            aria-disabled={blocked || submitting || undefined}
          >
            <Send aria-hidden="true" className="size-4" />
            {submitting ? t('apply.submitting') : t('apply.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
