import { api } from '../../../app/api';

/**
 * The app's one api with the back-office's cache tags. Every back-office call is injected into
 * it from the chunk that uses it.
 */
export const adminApi = api.enhanceEndpoints({
  addTagTypes: [
    'Me',
    'StaffUser',
    'AdminLot',
    'LotPhotos',
    'Application',
    'ApplicationStats',
    'Wish',
    'ActivityLog',
    'Donation',
    'Agency',
    'Referral',
  ],
});
