import type {
  Referral,
  ReferralCreate,
  ReferralCreated,
  ReferralsAnswer,
} from '@furniture/contracts/api/referrals';
import { Limits } from '@furniture/contracts/limits';
import { adminApi } from '../../api/admin-api';

export type { Referral };

/** A lot a family can be referred for, as the public list answers it. */
export interface OpenLot {
  id: number;
  name: { de: string; uk: string };
  category_id: number;
}

/** The referrer's calls (issue 44): its agency's families, a new referral, the open lots. */
export const referralsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    getReferrals: build.query<Referral[], void>({
      query: () => '/referrals/',
      transformResponse: (body: ReferralsAnswer) => body.referrals,
      providesTags: ['Referral'],
    }),
    createReferral: build.mutation<ReferralCreated, ReferralCreate>({
      query: (body) => ({ url: '/referrals/', method: 'POST', body }),
      invalidatesTags: ['Referral'],
    }),
    /** the public lot list: what a family may apply for (a referrer sees what visitors see) */
    getOpenLots: build.query<OpenLot[], void>({
      query: () => ({
        url: '/lots/',
        params: { status: 'available', limit: Limits.maxPageSize },
      }),
      transformResponse: (body: unknown) => {
        const list = Array.isArray(body)
          ? body
          : ((body as { data?: unknown[] } | null)?.data ?? []);
        return (list as OpenLot[]).filter((l) => typeof l?.id === 'number');
      },
    }),
  }),
});

export const { useGetReferralsQuery, useCreateReferralMutation, useGetOpenLotsQuery } =
  referralsApi;
