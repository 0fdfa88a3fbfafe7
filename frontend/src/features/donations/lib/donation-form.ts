import type { Language } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { normalizePhoneInput } from '@furniture/contracts/phone';
import { fieldErrorsOf, type ApiError } from '../../../app/api';
import type { LotCondition } from '../../../lib/lot-condition';
import {
  checkEmail,
  checkPhone,
  checkText,
  serverFieldErrors,
  type FieldProblem,
} from '../../../lib/validation';
import type { DonationPayload } from '../api/donations-api';

/** A photo the donor chose for an item; it uploads once the donation is stored. */
export interface ChosenPhoto {
  key: string;
  file: File;
  /** an object URL for the preview (revoked when the photo is removed) */
  preview: string;
}

export interface DonationItemValues {
  key: string;
  categoryId: string;
  description: string;
  dimensions: string;
  condition: LotCondition | '';
  canDisassemble: boolean;
  photos: ChosenPhoto[];
}

export interface DonationFormValues {
  name: string;
  phone: string;
  email: string;
  language: Language;
  city: string;
  address: string;
  floor: string;
  hasElevator: boolean;
  /** YYYY-MM-DD or '' */
  availableUntil: string;
  items: DonationItemValues[];
  consent: boolean;
  namePublic: boolean;
}

/**
 * What is wrong with a field: the shared validation messages (common:validation), or one of
 * the donation form's own (donate:errors).
 */
export interface DonationProblem {
  key: FieldProblem['key'] | 'invalidFloor' | 'pastDate' | 'consent';
  count?: number;
}

/** Field names: the donor's fields, and `items.{i}.{field}` for an item's. */
export type DonationErrors = Record<string, DonationProblem | string>;

export const DONOR_FIELDS = ['name', 'phone', 'email', 'city', 'address', 'floor'] as const;
const ITEM_FIELDS = ['categoryId', 'description', 'dimensions'] as const;

/** The lowest and highest floor a donor can give (0 the ground floor, a cellar below). */
export const FLOOR_MIN = -5;
export const FLOOR_MAX = 100;

let nextKey = 1;
const newKey = () => `item-${nextKey++}`;

export function emptyItem(): DonationItemValues {
  return {
    key: newKey(),
    categoryId: '',
    description: '',
    dimensions: '',
    condition: '',
    canDisassemble: false,
    photos: [],
  };
}

export function emptyDonation(language: Language): DonationFormValues {
  return {
    name: '',
    phone: '',
    email: '',
    language,
    city: '',
    address: '',
    floor: '',
    hasElevator: false,
    availableUntil: '',
    items: [emptyItem()],
    consent: false,
    namePublic: false,
  };
}

/** The form's fields in reading order, for focusing the first with an error. */
export function fieldOrder(values: DonationFormValues): string[] {
  return [
    ...DONOR_FIELDS.slice(0, 3),
    'language',
    ...DONOR_FIELDS.slice(3),
    'availableUntil',
    ...values.items.flatMap((_, i) => ITEM_FIELDS.map((f) => `items.${i}.${f}`)),
    'consent',
  ];
}

/** A whole number of a floor, or null for anything else. */
export function floorOf(text: string): number | null {
  const v = text.trim();
  if (!/^-?\d{1,3}$/.test(v)) return null;
  const n = Number(v);
  return n >= FLOOR_MIN && n <= FLOOR_MAX ? n : null;
}

/**
 * Issue 28: name, phone, city, address, the available-until day (today or later) and, per item,
 * category and a description of 10 to 500 characters are required; e-mail, floor and dimensions
 * are checked when given; the privacy terms must be agreed to. `today` is YYYY-MM-DD.
 */
export function validateDonation(values: DonationFormValues, today: string): DonationErrors {
  const errors: DonationErrors = {};
  const set = (field: string, problem: DonationProblem | null) => {
    if (problem) errors[field] = problem;
  };
  set(
    'name',
    checkText(values.name, { required: true, min: Limits.wishNameMin, max: Limits.nameMax }),
  );
  set('phone', checkPhone(values.phone, { required: true }));
  set('email', checkEmail(values.email, { max: Limits.emailMax }));
  set('city', checkText(values.city, { required: true, max: Limits.cityMax }));
  set('address', checkText(values.address, { required: true, max: Limits.addressMax }));
  if (values.floor.trim() !== '' && floorOf(values.floor) === null) {
    set('floor', { key: 'invalidFloor' });
  }
  if (!values.availableUntil) set('availableUntil', { key: 'required' });
  else if (values.availableUntil < today) set('availableUntil', { key: 'pastDate' });
  values.items.forEach((item, i) => {
    set(`items.${i}.categoryId`, checkText(item.categoryId, { required: true }));
    set(
      `items.${i}.description`,
      checkText(item.description, {
        required: true,
        min: Limits.donationDescriptionMin,
        max: Limits.donationDescriptionMax,
      }),
    );
    set(`items.${i}.dimensions`, checkText(item.dimensions, { max: Limits.lotShortTextMax }));
  });
  if (!values.consent) set('consent', { key: 'consent' });
  return errors;
}

/** The request body: trimmed texts, the phone normalized, optional parts left out when empty. */
export function buildDonationPayload(values: DonationFormValues): DonationPayload {
  const email = values.email.trim();
  const floor = floorOf(values.floor);
  return {
    donor_name: values.name.trim(),
    donor_phone: normalizePhoneInput(values.phone),
    ...(email ? { donor_email: email } : {}),
    language: values.language,
    city: values.city.trim(),
    address: values.address.trim(),
    ...(floor !== null ? { floor } : {}),
    has_elevator: values.hasElevator,
    available_until: values.availableUntil,
    items: values.items.map((item) => {
      const dimensions = item.dimensions.trim();
      return {
        category_id: Number.parseInt(item.categoryId, 10),
        description: item.description.trim(),
        ...(dimensions ? { dimensions } : {}),
        ...(item.condition ? { condition: item.condition } : {}),
        can_disassemble: item.canDisassemble,
      };
    }),
    consent: true,
    donor_name_public: values.namePublic,
  };
}

const SERVER_DONOR_FIELDS: Record<string, string> = {
  donor_name: 'name',
  donor_phone: 'phone',
  donor_email: 'email',
  city: 'city',
  address: 'address',
  floor: 'floor',
  available_until: 'availableUntil',
  consent: 'consent',
};

const SERVER_ITEM_FIELDS: Record<string, string> = {
  category_id: 'categoryId',
  description: 'description',
  dimensions: 'dimensions',
};

/**
 * What a refused submit shows: a 422's entries tied to their fields (the server's text, in the
 * page language) and a message for the banner: the server's own, or a key of donate:errors.
 */
export function classifySubmitError(
  error: ApiError,
  itemCount: number,
): {
  fieldErrors: DonationErrors;
  message: string | null;
  messageKey: 'network' | 'validation' | 'generic' | null;
} {
  if (error.status === 0) return { fieldErrors: {}, message: null, messageKey: 'network' };
  if (error.status === 422) {
    const fields: Record<string, string> = { ...SERVER_DONOR_FIELDS };
    for (let i = 0; i < itemCount; i += 1) {
      for (const [server, field] of Object.entries(SERVER_ITEM_FIELDS)) {
        fields[`items.${i}.${server}`] = `items.${i}.${field}`;
      }
    }
    const { errors } = serverFieldErrors(fieldErrorsOf(error), fields);
    return {
      fieldErrors: errors as DonationErrors,
      message: Object.keys(errors).length === 0 && !error.generic ? error.message : null,
      messageKey: Object.keys(errors).length > 0 || error.generic ? 'validation' : null,
    };
  }
  if (error.status >= 400 && error.status < 500 && !error.generic && error.message) {
    return { fieldErrors: {}, message: error.message, messageKey: null };
  }
  return { fieldErrors: {}, message: null, messageKey: 'generic' };
}
