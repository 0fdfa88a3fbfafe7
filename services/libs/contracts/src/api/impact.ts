import { z } from 'zod';

/** GET /impact (administrators): how many months the monthly figures go back (with this one). */
export const impactQuerySchema = z.object({
  months: z.coerce.number('invalid_value').int('invalid_value').min(1).max(36).default(12),
});
export type ImpactQuery = z.infer<typeof impactQuerySchema>;

const int = () => z.number().int();

/** One month of the donors' report (office time zone). */
const impactMonthSchema = z.object({
  month: z.string().meta({ description: 'YYYY-MM (office time zone)' }),
  /** lots added to the catalogue */
  lots_received: int(),
  /** lots handed over to a family (applications completed) */
  lots_given: int(),
});

const impactCategorySchema = z.object({
  category_id: int(),
  /** applications for lots of the category */
  applications: int(),
  /** wishes sent for the category */
  wishes: int(),
  /** lots of the category handed over */
  lots_given: int(),
  /** wishes of the category still active */
  open_wishes: int(),
});
export type ImpactCategory = z.infer<typeof impactCategorySchema>;

/** A partner agency's families (issue 44): a funder asks how many it brought and were served. */
const impactAgencySchema = z.object({
  agency_id: int(),
  /** the agency's name as its latest counted event told it */
  name: z.string(),
  /** applications for a lot its referrers made for families */
  applications: int(),
  /** wishes its referrers sent for families */
  wishes: int(),
  /** lots handed over to families it referred (applications completed) */
  lots_given: int(),
  /** families it referred whose handover was their first (a family counts once) */
  families_served: int(),
});
export type ImpactAgency = z.infer<typeof impactAgencySchema>;

/**
 * The impact dashboard: counters kept up to date by the platform's events since `counting_since`
 * (not by scanning the collections), months oldest first and zero-filled.
 */
export const impactAnswer = z
  .object({
    /** when the first counted event happened; null before any */
    counting_since: z.string().nullable(),
    months: z.array(impactMonthSchema),
    totals: z.object({
      lots_received: int(),
      lots_given: int(),
      /** families with at least one handover (a family counts once) */
      families_served: int(),
      applications: int(),
      wishes: int(),
      /** donors' offers through the site (wave 3) */
      donations_received: int(),
      /** offers staff accepted */
      donations_accepted: int(),
      /** donated items staff made a lot of (also counted in lots_received) */
      lots_from_donations: int(),
    }),
    /** days from the application to the handover: median over `handovers_measured` handovers */
    median_days_to_pickup: z.number().nullable(),
    handovers_measured: int(),
    /**
     * days from the approval to the handover (issue 29): median over
     * `handovers_measured_since_approval` handovers whose completion named its approval's time
     */
    median_days_approval_to_handover: z.number().nullable(),
    handovers_measured_since_approval: int(),
    /** by applications, most first (categories with no activity left out) */
    categories: z.array(impactCategorySchema),
    /** issue 44: per partner agency, most families served first (agencies with none left out) */
    agencies: z.array(impactAgencySchema),
  })
  .meta({ id: 'ImpactReport' });
export type ImpactReport = z.infer<typeof impactAnswer>;
