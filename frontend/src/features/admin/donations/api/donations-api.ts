import type {
  Donation,
  DonationHistoryEntry,
  DonationItem,
  DonationsPage,
} from '@furniture/contracts/api/donations';
import type { DonationStatus } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { adminApi } from '../../api/admin-api';
import type { AdminLot, LotBody } from '../../lots';

export type { Donation, DonationHistoryEntry, DonationItem, DonationsPage };

/** The staff's donation calls of issue 28 (contracts/src/api/donations.ts). */

export const DONATIONS_PAGE_SIZE = Limits.defaultPageSize;

export interface DonationFilters {
  status: DonationStatus | '';
  search: string;
}

/** PATCH /donations/{id}/status: a decline needs a reason (sent to the donor). */
export interface DonationStatusChange {
  id: number;
  status: DonationStatus;
  note?: string;
  reason?: string;
}

const donationTags = (id: number) => [
  { type: 'Donation' as const, id },
  { type: 'Donation' as const, id: 'LIST' },
];

export const donationsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    getDonations: build.query<DonationsPage, DonationFilters & { page: number }>({
      query: ({ status, search, page }) => ({
        url: '/donations/',
        params: {
          ...(status ? { status } : {}),
          ...(search.trim() ? { search: search.trim() } : {}),
          limit: DONATIONS_PAGE_SIZE,
          skip: (page - 1) * DONATIONS_PAGE_SIZE,
        },
      }),
      providesTags: [{ type: 'Donation', id: 'LIST' }],
    }),
    getDonation: build.query<Donation, number>({
      query: (id) => `/donations/${id}`,
      providesTags: (_d, _e, id) => [{ type: 'Donation', id }],
    }),
    updateDonationStatus: build.mutation<Donation, DonationStatusChange>({
      query: ({ id, ...body }) => ({ url: `/donations/${id}/status`, method: 'PATCH', body }),
      invalidatesTags: (_d, _e, { id }) => donationTags(id),
    }),
    /** the lot's fields; those left out come from the item, its photos are the item's */
    createLotFromItem: build.mutation<
      AdminLot,
      { donationId: number; itemId: number; body: LotBody }
    >({
      query: ({ donationId, itemId, body }) => ({
        url: `/donations/${donationId}/items/${itemId}/lot`,
        method: 'POST',
        body,
      }),
      invalidatesTags: (_l, _e, { donationId }) => [
        ...donationTags(donationId),
        { type: 'AdminLot', id: 'LIST' },
        { type: 'Lot', id: 'LIST' },
        'Category',
      ],
    }),
  }),
});

export const {
  useGetDonationsQuery,
  useGetDonationQuery,
  useUpdateDonationStatusMutation,
  useCreateLotFromItemMutation,
} = donationsApi;
