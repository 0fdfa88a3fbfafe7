import { isApiError } from '../../../app/api';

/**
 * What went wrong with a family's call, as the page explains it (in the page's language, from
 * its own texts: the server's message is in the language the call was made in).
 */
export type BookingProblem =
  'full' | 'notOffered' | 'changeClosed' | 'invalid' | 'network' | 'unexpected';

export function problemOf(error: unknown): BookingProblem {
  if (!isApiError(error)) return 'unexpected';
  if (error.status === 0) return 'network';
  if (error.code === 'SLOT_FULL') return 'full';
  if (error.code === 'HANDOVER_CHANGE_CLOSED') return 'changeClosed';
  if (error.code === 'SLOT_NOT_OFFERED' || error.status === 422) return 'notOffered';
  // an unknown, ended or cancelled link: the page says nothing more
  if (error.status === 404) return 'invalid';
  return 'unexpected';
}
