import type { TFunction } from 'i18next';
import type { Language } from '@furniture/contracts/enums';
import { Limits, NOT_SPECIFIED } from '@furniture/contracts/limits';
import { normalizePhoneInput } from '@furniture/contracts/phone';
import { fieldErrorsOf, type ApiError } from '../../../app/api';
import {
  checkEmail,
  checkPhone,
  checkText,
  serverFieldErrors,
  type FieldErrors,
} from '../../../lib/validation';
import type { ApplicationPayload } from '../api/applications-api';

export interface ApplyFormValues {
  name: string;
  phone: string;
  whatsapp: string;
  email: string;
  city: string;
  address: string;
  needsDeliveryHelp: boolean;
}

export type ApplyField = Exclude<keyof ApplyFormValues, 'needsDeliveryHelp'>;
export const APPLY_FIELDS: readonly ApplyField[] = [
  'name',
  'phone',
  'whatsapp',
  'email',
  'city',
  'address',
];

export const EMPTY_APPLY_FORM: ApplyFormValues = {
  name: '',
  phone: '',
  whatsapp: '',
  email: '',
  city: '',
  address: '',
  needsDeliveryHelp: false,
};

/** Name, phone and WhatsApp required; e-mail, city and address optional (public-site §2, §5). */
export function validateApplyForm(v: ApplyFormValues): FieldErrors<ApplyField> {
  const errors: FieldErrors<ApplyField> = {};
  const set = (field: ApplyField, problem: ReturnType<typeof checkText>) => {
    if (problem) errors[field] = problem;
  };
  set('name', checkText(v.name, { required: true, min: Limits.wishNameMin, max: Limits.nameMax }));
  set('phone', checkPhone(v.phone, { required: true, kind: 'phone' }));
  set('whatsapp', checkPhone(v.whatsapp, { required: true, kind: 'whatsapp' }));
  set('email', checkEmail(v.email, { max: Limits.emailMax }));
  set('city', checkText(v.city, { max: Limits.cityMax }));
  set('address', checkText(v.address, { max: Limits.addressMax }));
  return errors;
}

/**
 * The request body (public-site §3): normalized phones, null for an empty WhatsApp or e-mail,
 * "Не вказано" for a missing city or address, the lot id as an integer, the page language.
 */
export function buildApplicationPayload(
  v: ApplyFormValues,
  lotId: number | string,
  language: Language,
  honeypot = '',
): ApplicationPayload {
  const whatsapp = v.whatsapp.trim();
  return {
    applicant_name: v.name.trim(),
    applicant_phone: normalizePhoneInput(v.phone),
    applicant_whatsapp: whatsapp ? normalizePhoneInput(whatsapp) : null,
    applicant_email: v.email.trim() || null,
    applicant_city: v.city.trim() || NOT_SPECIFIED,
    applicant_address: v.address.trim() || NOT_SPECIFIED,
    needs_delivery_help: v.needsDeliveryHelp,
    lot_id: typeof lotId === 'number' ? Math.trunc(lotId) : Number.parseInt(lotId, 10),
    language,
    website: honeypot,
  };
}

/** Texts in a message that mean "you have applied for this lot before" (public-site §8). */
const DUPLICATE_PHRASES = ['вже подали заявку', 'bereits eine bewerbung', 'already applied'];

const SERVER_FIELDS: Record<string, ApplyField> = {
  applicant_name: 'name',
  applicant_phone: 'phone',
  applicant_whatsapp: 'whatsapp',
  applicant_email: 'email',
  applicant_city: 'city',
  applicant_address: 'address',
};

export type SubmitOutcome =
  { kind: 'duplicate' } | { kind: 'banner'; message: string; fieldErrors: FieldErrors<ApplyField> };

/**
 * What a failed submit shows (public-site §8): the duplicate dialog, or a banner with the 422
 * list ("Помилка валідації: …", each entry tied to its field too), the server's message, or a
 * text with the status.
 */
export function classifySubmitError(error: ApiError, t: TFunction): SubmitOutcome {
  const text =
    `${error.message} ${typeof error.detail === 'string' ? error.detail : ''}`.toLowerCase();
  if (error.code === 'ALREADY_APPLIED' || DUPLICATE_PHRASES.some((p) => text.includes(p))) {
    return { kind: 'duplicate' };
  }
  const banner = (message: string, fieldErrors: FieldErrors<ApplyField> = {}): SubmitOutcome => ({
    kind: 'banner',
    message,
    fieldErrors,
  });

  if (error.status === 422) {
    const { errors, named } = serverFieldErrors(fieldErrorsOf(error), SERVER_FIELDS);
    if (named.length === 0) return banner(error.message || t('apply.errors.generic'));
    const details = named
      .map(({ field, name, msg }) => `${field ? t(`apply.fields.${field}`) : name}: ${msg}`)
      .join('; ');
    return banner(t('apply.errors.validation', { details }), errors);
  }
  if (error.status === 0) return banner(t('apply.errors.network'));
  if (error.status === 400 && error.message) return banner(error.message);
  if (error.message && !error.generic) return banner(error.message);
  return banner(t('apply.errors.status', { status: error.status }));
}
