import { z } from 'zod';
import { Limits } from '../limits';
import { lotSchema } from './catalog';
import { idParamSchema, localizedSchema } from './common';

export {
  LABEL_CODE_ALPHABET,
  LABEL_CODE_LENGTH,
  formatLabelCode,
  normalizeLabelCode,
  scanPath,
} from '../label-codes';

/*
 * The warehouse (issue 45): storage places per pickup location, a label code for every lot and
 * place, printable labels, the scan page, moves and stock counts. The catalog owns all of it (the
 * lots are its own); the handover scan is the applications service's (it owns the handovers).
 *
 * - POST /api/v1/storage-places/                   staff: {name, location_id} → 201 place
 * - GET  /api/v1/storage-places/?location_id=      staff: {storage_places: [… lot_count]}
 * - GET  /api/v1/storage-places/{id}/label.pdf     staff: the place's label
 * - POST /api/v1/storage-places/{id}/count         staff: {codes} → {missing, unexpected}
 * - GET  /api/v1/scan/{code}                       staff: a lot or a place by its label code
 * - GET  /api/v1/lots/{id}/label.pdf               staff: the lot's label
 * - GET  /api/v1/labels.pdf?lot_ids=1,2,3          staff: an A4 sheet of lot labels
 * - PATCH /api/v1/lots/{id} {storage_place_id}     staff: move a lot (null: off every place)
 * - POST /api/v1/handovers/{id}/scan {code}        staff: the item at the handover → {match}
 */

/** A typed or scanned code in a body: any text, judged by normalizeLabelCode where it is used. */
const typedCode = z.string('required').trim().min(1, 'required').max(40);

/** POST /storage-places/: a free-text name ("Halle B / Regal 3") at one pickup location. */
export const storagePlaceCreateSchema = z.object({
  name: z.string('required').trim().min(1, 'required').max(Limits.storagePlaceNameMax),
  location_id: z.number('required').int().positive(),
});
export type StoragePlaceCreate = z.infer<typeof storagePlaceCreateSchema>;

export const storagePlaceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  location_id: z.number().int(),
  /** the place's label code */
  code: z.string(),
});
export type StoragePlace = z.infer<typeof storagePlaceSchema>;
export const storagePlaceAnswer = storagePlaceSchema.meta({ id: 'StoragePlace' });

/** A place in the list: how many lots are recorded on it. */
export const storagePlaceListItem = storagePlaceSchema.extend({ lot_count: z.number().int() });
export type StoragePlaceListItem = z.infer<typeof storagePlaceListItem>;
export const storagePlaceListAnswer = z.object({ storage_places: z.array(storagePlaceListItem) });
export type StoragePlaceList = z.infer<typeof storagePlaceListAnswer>;

/** GET /storage-places/?location_id= (without it: every location's places). */
export const storagePlaceListQuerySchema = z.object({
  location_id: z.coerce.number().int().positive().optional(),
});

export const storagePlaceParamsSchema = idParamSchema;

/** GET /scan/{code}: a lot's code, a place's code. */
export const scanParamsSchema = z.object({ code: z.string().max(40) });

/** A lot as the warehouse pages show it: the staff lot with the place it is recorded on. */
export const scannedLotSchema = lotSchema.extend({ storage_place: storagePlaceSchema.nullable() });
export type ScannedLot = z.infer<typeof scannedLotSchema>;

export const scanAnswer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('lot'), lot: scannedLotSchema }),
  z.object({
    kind: z.literal('place'),
    storage_place: storagePlaceListItem,
    /** the lots recorded on the place (what should be there), newest first */
    lots: z.array(lotSchema),
  }),
]);
export type ScanAnswer = z.infer<typeof scanAnswer>;

/** GET /labels.pdf?lot_ids=1,2,3: up to labelSheetLotsMax lots, in the order given. */
export const labelSheetQuerySchema = z.object({
  lot_ids: z
    .string('required')
    .trim()
    .min(1, 'required')
    .transform((v) => v.split(',').map((s) => s.trim()))
    .pipe(
      z
        .array(
          z
            .string()
            .regex(/^\d{1,12}$/, 'invalid_value')
            .transform(Number),
        )
        .min(1)
        .max(Limits.labelSheetLotsMax)
        .transform((ids) => [...new Set(ids)]),
    ),
});
export type LabelSheetQuery = z.infer<typeof labelSheetQuerySchema>;

/** POST /storage-places/{id}/count: every code scanned on the place. */
export const stockCountSchema = z.object({
  codes: z.array(typedCode).max(Limits.stockCountCodesMax),
});
export type StockCount = z.infer<typeof stockCountSchema>;

export const stockCountAnswer = z.object({
  /** recorded on the place, not scanned there */
  missing: z.array(lotSchema),
  /** scanned on the place, recorded elsewhere (storage_place_id) or nowhere */
  unexpected: z.array(lotSchema),
  /** scanned codes that are no lot's (a typo, a place's label, a deleted lot's) */
  unknown_codes: z.array(z.string()),
});
export type StockCountAnswer = z.infer<typeof stockCountAnswer>;

/**
 * POST /handovers/{id}/scan: the code of the item about to be handed over. A code that is not
 * the booked lot's answers 409 WRONG_ITEM (another lot, named) or UNKNOWN_ITEM (no lot's code);
 * `confirm: true` sent with that same code is the driver's second confirmation: it is recorded
 * and answered 200 with match false.
 */
export const handoverScanSchema = z.object({
  code: typedCode,
  confirm: z.boolean('invalid_type').optional(),
});
export type HandoverScan = z.infer<typeof handoverScanSchema>;

const lotRef = z.object({ id: z.number().int(), name: localizedSchema });

export const handoverScanAnswer = z.object({
  match: z.boolean(),
  /** the booked lot */
  lot: lotRef,
  /** a mismatch the driver confirmed (match false) */
  confirmed: z.boolean(),
});
export type HandoverScanAnswer = z.infer<typeof handoverScanAnswer>;

/** What WRONG_ITEM and UNKNOWN_ITEM carry besides the message: the booked and the scanned lot. */
export const wrongItemExtra = z.object({
  booked_lot: lotRef,
  scanned_lot: lotRef.nullable(),
  scanned_code: z.string(),
});
export type WrongItemExtra = z.infer<typeof wrongItemExtra>;
