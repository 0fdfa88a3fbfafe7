import type { Language } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { fieldErrorsOf, type ApiError } from '../../../app/api';
import {
  checkPhone,
  checkText,
  serverFieldErrors,
  type FieldErrors,
} from '../../../lib/validation';
import type { WishPayload } from '../api/wishes-api';

export interface WishFormValues {
  applicantName: string;
  applicantWhatsApp: string;
  furnitureCategory: string;
  furnitureDescription: string;
}

export type WishField = keyof WishFormValues;
export const WISH_FIELDS: readonly WishField[] = [
  'applicantName',
  'applicantWhatsApp',
  'furnitureCategory',
  'furnitureDescription',
];

export const EMPTY_WISH_FORM: WishFormValues = {
  applicantName: '',
  applicantWhatsApp: '',
  furnitureCategory: '',
  furnitureDescription: '',
};

/** public-site §5: all four required, values trimmed before checking. */
export function validateWishForm(v: WishFormValues): FieldErrors<WishField> {
  const errors: FieldErrors<WishField> = {};
  const name = checkText(v.applicantName, {
    required: true,
    min: Limits.wishNameMin,
    max: Limits.wishNameMax,
  });
  const whatsapp = checkPhone(v.applicantWhatsApp, { required: true, kind: 'whatsapp' });
  const category = checkText(v.furnitureCategory, { required: true });
  const description = checkText(v.furnitureDescription, {
    required: true,
    min: Limits.wishDescriptionMin,
    max: Limits.wishDescriptionMax,
  });
  if (name) errors.applicantName = name;
  if (whatsapp) errors.applicantWhatsApp = whatsapp;
  if (category) errors.furnitureCategory = category;
  if (description) errors.furnitureDescription = description;
  return errors;
}

export function buildWishPayload(
  v: WishFormValues,
  language: Language,
  honeypot = '',
): WishPayload {
  return {
    applicant_name: v.applicantName.trim(),
    applicant_whatsapp: v.applicantWhatsApp.trim(),
    furniture_category: Number.parseInt(v.furnitureCategory, 10),
    furniture_description: v.furnitureDescription.trim(),
    language,
    website: honeypot,
  };
}

const SERVER_FIELDS: Record<string, WishField> = {
  applicant_name: 'applicantName',
  applicant_whatsapp: 'applicantWhatsApp',
  furniture_category: 'furnitureCategory',
  furniture_description: 'furnitureDescription',
};

/**
 * public-site §8: no answer is a connection error, a 422 asks to check the input (and marks the
 * fields the server named), a refusal the server explains (too many requests) shows its text,
 * anything else the generic message.
 */
export function classifyWishError(error: ApiError): {
  messageKey: 'network' | 'validation' | 'generic' | null;
  message: string | null;
  fieldErrors: FieldErrors<WishField>;
} {
  if (error.status === 0) return { messageKey: 'network', message: null, fieldErrors: {} };
  if (error.status === 422) {
    const { errors } = serverFieldErrors(fieldErrorsOf(error), SERVER_FIELDS);
    return { messageKey: 'validation', message: null, fieldErrors: errors };
  }
  if (error.status >= 400 && error.status < 500 && error.code !== 'HTTP_ERROR' && error.message) {
    return { messageKey: null, message: error.message, fieldErrors: {} };
  }
  return { messageKey: 'generic', message: null, fieldErrors: {} };
}
