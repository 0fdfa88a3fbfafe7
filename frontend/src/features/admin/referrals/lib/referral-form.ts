import type { Language } from '@furniture/contracts/enums';
import { Limits, NOT_SPECIFIED } from '@furniture/contracts/limits';
import { normalizePhoneInput } from '@furniture/contracts/phone';
import type { ReferralCreate } from '@furniture/contracts/api/referrals';
import { fieldErrorsOf, type ApiError } from '../../../../app/api';
import {
  checkEmail,
  checkPhone,
  checkText,
  serverFieldErrors,
  type FieldErrors,
} from '../../../../lib/validation';

/** What the referrer types for the family (issue 44): for a lot or as a wish. */
export interface ReferralFormValues {
  kind: 'lot' | 'wish';
  lotId: string;
  categoryId: string;
  description: string;
  name: string;
  phone: string;
  whatsapp: string;
  email: string;
  city: string;
  address: string;
  householdSize: string;
  language: Language;
  needsDeliveryHelp: boolean;
  note: string;
}

export const REFERRAL_FIELDS = [
  'lotId',
  'categoryId',
  'description',
  'name',
  'phone',
  'whatsapp',
  'email',
  'city',
  'address',
  'householdSize',
  'note',
] as const;
export type ReferralField = (typeof REFERRAL_FIELDS)[number];

export const EMPTY_REFERRAL: ReferralFormValues = {
  kind: 'lot',
  lotId: '',
  categoryId: '',
  description: '',
  name: '',
  phone: '',
  whatsapp: '',
  email: '',
  city: '',
  address: '',
  householdSize: '',
  language: 'uk',
  needsDeliveryHelp: false,
  note: '',
};

const positiveInt = (v: string) => /^\d+$/.test(v.trim()) && Number(v) > 0;

/**
 * The family's own form's rules (name, phone, e-mail, city, address) plus the household and the
 * choice of lot or wish; a wish needs the family's WhatsApp (its messages go there).
 */
export function validateReferralForm(v: ReferralFormValues): FieldErrors<ReferralField> {
  const errors: FieldErrors<ReferralField> = {};
  const set = (field: ReferralField, problem: ReturnType<typeof checkText>) => {
    if (problem) errors[field] = problem;
  };
  if (v.kind === 'lot') {
    if (!positiveInt(v.lotId)) errors.lotId = { key: 'required' };
  } else {
    if (!positiveInt(v.categoryId)) errors.categoryId = { key: 'required' };
    set(
      'description',
      checkText(v.description, {
        required: true,
        min: Limits.wishDescriptionMin,
        max: Limits.wishDescriptionMax,
      }),
    );
  }
  set('name', checkText(v.name, { required: true, min: Limits.wishNameMin, max: Limits.nameMax }));
  set('phone', checkPhone(v.phone, { required: true, kind: 'phone' }));
  set('whatsapp', checkPhone(v.whatsapp, { required: v.kind === 'wish', kind: 'whatsapp' }));
  set('email', checkEmail(v.email, { max: Limits.emailMax }));
  set('city', checkText(v.city, { max: Limits.cityMax }));
  set('address', checkText(v.address, { max: Limits.addressMax }));
  const size = v.householdSize.trim();
  if (size === '') errors.householdSize = { key: 'required' };
  else if (!positiveInt(size) || Number(size) > Limits.householdMax)
    errors.householdSize = 'householdRange';
  set('note', checkText(v.note, { max: Limits.notesMax }));
  return errors;
}

/** The request body of POST /referrals/: normalized phones, null for what was left empty. */
export function buildReferralPayload(v: ReferralFormValues): ReferralCreate {
  const whatsapp = v.whatsapp.trim();
  const note = v.note.trim();
  const family: ReferralCreate['family'] = {
    name: v.name.trim(),
    phone: normalizePhoneInput(v.phone),
    whatsapp: whatsapp ? normalizePhoneInput(whatsapp) : null,
    email: v.email.trim() || null,
    city: v.city.trim() || NOT_SPECIFIED,
    address: v.address.trim() || NOT_SPECIFIED,
    household_size: Number(v.householdSize.trim()),
    language: v.language,
    needs_delivery_help: v.needsDeliveryHelp,
  };
  const base = { family, ...(note ? { note } : {}) };
  return v.kind === 'lot'
    ? { ...base, lot_id: Number(v.lotId) }
    : {
        ...base,
        wish: { category_id: Number(v.categoryId), description: v.description.trim() },
      };
}

/** The API's names of the form's fields (`loc` after 'body'). */
const SERVER_FIELDS: Record<string, ReferralField> = {
  lot_id: 'lotId',
  'wish.category_id': 'categoryId',
  'wish.description': 'description',
  'family.name': 'name',
  'family.phone': 'phone',
  'family.whatsapp': 'whatsapp',
  'family.email': 'email',
  'family.city': 'city',
  'family.address': 'address',
  'family.household_size': 'householdSize',
  note: 'note',
};

/** What a refused referral shows: a message key of admin:referrals.errors, or the server's text. */
export interface ReferralFailure {
  /** a key of admin:referrals.errors, when the page has its own words for it */
  key?: 'alreadyApplied' | 'tooMany' | 'lotGone' | 'validation' | 'network';
  /** the server's text (in the page's language: the request said it) */
  message: string;
  fieldErrors: FieldErrors<ReferralField>;
}

/**
 * A failed POST /referrals/: the family already applied for the lot (nothing is said about
 * where), too many requests, the lot no longer open, the 422's fields, or the server's message.
 */
export function referralFailureOf(error: ApiError): ReferralFailure {
  const none = {};
  if (error.code === 'ALREADY_APPLIED')
    return { key: 'alreadyApplied', message: error.message, fieldErrors: none };
  if (error.status === 429) return { key: 'tooMany', message: error.message, fieldErrors: none };
  if (error.status === 0) return { key: 'network', message: error.message, fieldErrors: none };
  if (error.code === 'LOT_NOT_AVAILABLE' || error.code === 'LOT_NOT_FOUND')
    return { key: 'lotGone', message: error.message, fieldErrors: none };
  if (error.status === 422) {
    const { errors } = serverFieldErrors(fieldErrorsOf(error), SERVER_FIELDS);
    return { key: 'validation', message: error.message, fieldErrors: errors };
  }
  return { message: error.message, fieldErrors: none };
}
