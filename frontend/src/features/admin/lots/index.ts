// The back-office lots' public entry: what other screens use of them (frontend/README.md).
export { thumbnailOf } from './lib/photo-list';
export { LotFields } from './components/LotFields';
export {
  bodyOf,
  EMPTY_LOT,
  LOT_FIELD_ORDER,
  SERVER_FIELD,
  validateLot,
  type LotField,
  type LotFormValues,
} from './lib/lot-form';
export type { AdminLot, LotBody } from './api/lots-api';
