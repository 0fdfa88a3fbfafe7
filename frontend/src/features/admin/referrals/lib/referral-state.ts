import type { Referral } from '../api/referrals-api';

/**
 * Where a referred family stands, as its referrer reads it (issue 44): waiting at a queue place,
 * approved with a pickup deadline, a slot booked, handed over, expired, rejected; a wish is
 * active, fulfilled or cancelled. The key is one of admin:referrals.state.
 */
export type ReferralState =
  | 'waiting'
  | 'approved'
  | 'booked'
  | 'handedOver'
  | 'expired'
  | 'rejected'
  | 'wishActive'
  | 'wishFulfilled'
  | 'wishCancelled';

export function referralState(r: Referral): ReferralState {
  if (r.wish_id !== null) {
    if (r.status === 'fulfilled') return 'wishFulfilled';
    if (r.status === 'cancelled') return 'wishCancelled';
    return 'wishActive';
  }
  switch (r.status) {
    case 'approved':
      return r.booking ? 'booked' : 'approved';
    case 'completed':
      return 'handedOver';
    case 'expired':
      return 'expired';
    case 'rejected':
      return 'rejected';
    default:
      return 'waiting';
  }
}

export const STATE_TONE: Record<
  ReferralState,
  'green' | 'amber' | 'red' | 'blue' | 'sky' | 'slate' | 'violet'
> = {
  waiting: 'amber',
  approved: 'green',
  booked: 'blue',
  handedOver: 'violet',
  expired: 'slate',
  rejected: 'red',
  wishActive: 'sky',
  wishFulfilled: 'violet',
  wishCancelled: 'slate',
};

/** The handover link as an address to send the family (the API may answer it relative). */
export function absoluteLink(url: string, origin = window.location.origin): string {
  try {
    return new URL(url, origin).href;
  } catch {
    return url;
  }
}
