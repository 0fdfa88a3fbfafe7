import { z } from 'zod';

/*
 * The warehouse's records (issue 45), each declared once: what the store keeps and hands out.
 */

/** A storage place at a pickup location ("Halle B / Regal 3"). */
export const StoragePlaceRecord = z.object({
  id: z.number(),
  name: z.string(),
  /** the name as the unique key compares it: "Regal 3" and " regal  3" are one place */
  name_key: z.string(),
  /** the applications service's pickup location */
  location_id: z.number(),
  /** the place's label code (label_codes holds the claim) */
  code: z.string(),
  created_at: z.date(),
  created_by_user_id: z.number().nullable().default(null),
  rev: z.number(),
});
export type StoragePlaceRecord = z.infer<typeof StoragePlaceRecord>;

export const LabelKinds = ['lot', 'place'] as const;
export type LabelKind = (typeof LabelKinds)[number];

/**
 * A label code's claim: the code (the primary key, so two processes can never hand out one code
 * twice) and what it names (unique too: a lot or place never gets a second code). A claim stays
 * when its lot is deleted: a printed label is never reused for another lot.
 */
export const LabelCodeRecord = z.object({
  code: z.string(),
  kind: z.enum(LabelKinds),
  target_id: z.number(),
  created_at: z.date(),
});
export type LabelCodeRecord = z.infer<typeof LabelCodeRecord>;

/** A place's name as its unique key compares it. */
export const placeNameKey = (name: string): string =>
  name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
