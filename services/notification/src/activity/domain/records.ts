import type { ActionType, TargetType } from '@furniture/contracts';

/**
 * What the activity log's data access needs from the domain (STYLE.md habit 9): the filters in
 * the form the database takes, and whether a query has none.
 */

/** Filters in the form the database takes (days already turned into instants). */
export interface ActivityQuery {
  user_id?: number;
  action_type?: ActionType;
  target_type?: TargetType;
  target_id?: number;
  from?: Date;
  /** exclusive */
  until?: Date;
  search?: string;
}

/** True when a query has no filter at all (the counts and day buckets answer it). */
export function unfiltered(q: ActivityQuery): boolean {
  return Object.values(q).every((v) => v === undefined || v === '');
}
