import type {
  PrivacyErasure,
  PrivacyLookup,
  PrivacyRecords,
  PrivacyRecordsRequest,
} from '@furniture/contracts/api/privacy';
import { adminApi } from '../../api/admin-api';

export type { PrivacyErasure, PrivacyLookup, PrivacyRecords };

/**
 * Data protection (issue 15, administrators only). The phone number travels in POST bodies, never
 * in a URL; nothing here is cached (every lookup asks the servers again).
 */
export const privacyApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    lookupPhone: build.mutation<PrivacyLookup, string>({
      query: (phone) => ({ url: '/privacy/lookup', method: 'POST', body: { phone } }),
    }),
    privacyRecords: build.mutation<PrivacyRecords, PrivacyRecordsRequest>({
      query: (body) => ({ url: '/privacy/records', method: 'POST', body }),
    }),
    erasePhone: build.mutation<PrivacyErasure, string>({
      query: (phone) => ({ url: '/privacy/erase', method: 'POST', body: { phone } }),
      invalidatesTags: ['Application', 'ApplicationStats', 'Wish', 'ActivityLog'],
    }),
  }),
});

export const { useLookupPhoneMutation, usePrivacyRecordsMutation, useErasePhoneMutation } =
  privacyApi;
