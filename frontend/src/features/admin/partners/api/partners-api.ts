import type {
  AgenciesAnswer,
  Agency,
  AgencyCreate,
  AgencyPatch,
  InvitationAccept,
  InvitationAnswer,
  InvitationCreate,
} from '@furniture/contracts/api/partners';
import { adminApi } from '../../api/admin-api';

export type { Agency };

/** Partner agencies and their invitations (issue 44): administrators; the acceptance is public. */
export const partnersApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    getAgencies: build.query<Agency[], void>({
      query: () => '/agencies/',
      transformResponse: (body: AgenciesAnswer) => body.agencies,
      providesTags: ['Agency'],
    }),
    createAgency: build.mutation<Agency, AgencyCreate>({
      query: (body) => ({ url: '/agencies/', method: 'POST', body }),
      invalidatesTags: ['Agency'],
    }),
    updateAgency: build.mutation<Agency, { id: number; body: AgencyPatch }>({
      query: ({ id, body }) => ({ url: `/agencies/${id}`, method: 'PATCH', body }),
      invalidatesTags: ['Agency'],
    }),
    inviteReferrer: build.mutation<InvitationAnswer, { agencyId: number; body: InvitationCreate }>({
      query: ({ agencyId, body }) => ({
        url: `/agencies/${agencyId}/invitations`,
        method: 'POST',
        body,
      }),
    }),
    acceptInvitation: build.mutation<unknown, { token: string; body: InvitationAccept }>({
      query: ({ token, body }) => ({
        url: `/invitations/${encodeURIComponent(token)}/accept`,
        method: 'POST',
        body,
      }),
    }),
  }),
});

export const {
  useGetAgenciesQuery,
  useCreateAgencyMutation,
  useUpdateAgencyMutation,
  useInviteReferrerMutation,
  useAcceptInvitationMutation,
} = partnersApi;
