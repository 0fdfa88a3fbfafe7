import { rangeEnd, rangeStart } from '@furniture/platform/domain';

/** The volunteers' time zone: a calendar day in the lot list's date filters is a day there. */
export const TIME_ZONE = 'Europe/Berlin';

/**
 * Date filters of the lot list: date_from starts at its day's midnight, date_to includes the
 * whole day; a full ISO date-time is taken as it is (date_to inclusive).
 */
export function dateRange(from?: string, to?: string) {
  return {
    createdFrom: from ? rangeStart(from, TIME_ZONE) : undefined,
    createdBefore: to ? rangeEnd(to, TIME_ZONE) : undefined,
  };
}
