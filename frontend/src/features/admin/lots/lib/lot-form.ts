import type { LotStatus } from '@furniture/contracts/enums';
import type { AdminLot, LotBody } from '../api/lots-api';

/** The lot form's fields (back-office §3 Lot), as the inputs hold them. */
export interface LotFormValues {
  nameDe: string;
  nameUk: string;
  descriptionDe: string;
  descriptionUk: string;
  detailedDe: string;
  detailedUk: string;
  categoryId: string;
  status: LotStatus | '';
  dimensions: string;
  condition: string;
  donor: string;
  location: string;
}

export type LotField = keyof LotFormValues;

export const EMPTY_LOT: LotFormValues = {
  nameDe: '',
  nameUk: '',
  descriptionDe: '',
  descriptionUk: '',
  detailedDe: '',
  detailedUk: '',
  categoryId: '',
  // back-office §4: a new lot is available by default
  status: 'available',
  dimensions: '',
  condition: '',
  donor: '',
  location: '',
};

/** The form order, for focusing the first field with an error. */
export const LOT_FIELD_ORDER: readonly LotField[] = [
  'nameDe',
  'nameUk',
  'descriptionDe',
  'descriptionUk',
  'detailedDe',
  'detailedUk',
  'categoryId',
  'status',
  'dimensions',
  'condition',
  'donor',
  'location',
];

export function valuesOf(lot: AdminLot): LotFormValues {
  return {
    nameDe: lot.name.de,
    nameUk: lot.name.uk,
    descriptionDe: lot.description.de,
    descriptionUk: lot.description.uk,
    detailedDe: lot.detailed_description.de,
    detailedUk: lot.detailed_description.uk,
    categoryId: String(lot.category_id),
    status: lot.status,
    dimensions: lot.dimensions,
    condition: lot.condition,
    donor: lot.donor,
    location: lot.location,
  };
}

/** back-office §5: German name, German short description, category and status are required. */
export function validateLot(values: LotFormValues): Partial<Record<LotField, 'required'>> {
  const errors: Partial<Record<LotField, 'required'>> = {};
  if (!values.nameDe.trim()) errors.nameDe = 'required';
  if (!values.descriptionDe.trim()) errors.descriptionDe = 'required';
  if (!values.categoryId) errors.categoryId = 'required';
  if (!values.status) errors.status = 'required';
  return errors;
}

/** The request body: trimmed texts, empty detailed descriptions as the short ones, category as integer. */
export function bodyOf(values: LotFormValues): LotBody {
  const descriptionDe = values.descriptionDe.trim();
  const descriptionUk = values.descriptionUk.trim();
  return {
    name: { de: values.nameDe.trim(), uk: values.nameUk.trim() },
    description: { de: descriptionDe, uk: descriptionUk },
    detailed_description: {
      de: values.detailedDe.trim() || descriptionDe,
      uk: values.detailedUk.trim() || descriptionUk,
    },
    category_id: Number.parseInt(values.categoryId, 10),
    status: values.status as LotStatus,
    dimensions: values.dimensions.trim(),
    condition: values.condition.trim(),
    donor: values.donor.trim(),
    location: values.location.trim(),
  };
}

/** The form fields whose saved value differs between two versions of a lot (stale-edit warning). */
export function changedFields(before: AdminLot, after: AdminLot): LotField[] {
  const a = valuesOf(before);
  const b = valuesOf(after);
  return LOT_FIELD_ORDER.filter((field) => a[field] !== b[field]);
}

/** Which form field a 422 entry's location names (`body.name.de` → nameDe). */
export const SERVER_FIELD: Record<string, LotField> = {
  'name.de': 'nameDe',
  'name.uk': 'nameUk',
  'description.de': 'descriptionDe',
  'description.uk': 'descriptionUk',
  'detailed_description.de': 'detailedDe',
  'detailed_description.uk': 'detailedUk',
  category_id: 'categoryId',
  status: 'status',
  dimensions: 'dimensions',
  condition: 'condition',
  donor: 'donor',
  location: 'location',
};
