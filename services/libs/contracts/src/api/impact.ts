import { z } from 'zod';

/** GET /impact (administrators): how many months the monthly figures go back (with this one). */
export const impactQuerySchema = z.object({
  months: z.coerce.number('invalid_value').int('invalid_value').min(1).max(36).default(12),
});
export type ImpactQuery = z.infer<typeof impactQuerySchema>;

/** One month of the donors' report (office time zone). */
export interface ImpactMonth {
  /** YYYY-MM */
  month: string;
  /** lots added to the catalogue */
  lots_received: number;
  /** lots handed over to a family (applications completed) */
  lots_given: number;
}

export interface ImpactCategory {
  category_id: number;
  /** applications for lots of the category */
  applications: number;
  /** wishes sent for the category */
  wishes: number;
  /** lots of the category handed over */
  lots_given: number;
  /** wishes of the category still active */
  open_wishes: number;
}

/**
 * The impact dashboard: counters kept up to date by the platform's events since `counting_since`
 * (not by scanning the collections), months oldest first and zero-filled.
 */
export interface ImpactReport {
  /** when the first counted event happened; null before any */
  counting_since: string | null;
  months: ImpactMonth[];
  totals: {
    lots_received: number;
    lots_given: number;
    /** families with at least one handover (a family counts once) */
    families_served: number;
    applications: number;
    wishes: number;
  };
  /** days from the application to the handover: median over `handovers_measured` handovers */
  median_days_to_pickup: number | null;
  handovers_measured: number;
  /** by applications, most first (categories with no activity left out) */
  categories: ImpactCategory[];
}
