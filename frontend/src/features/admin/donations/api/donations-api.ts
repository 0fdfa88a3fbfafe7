import type { DonationStatus, Language } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import { adminApi } from '../../api/admin-api';
import type { AdminLot, LotBody } from '../../lots';

/*
 * The staff's donation calls of issue 28. The shapes are the issue's (and the donation API's
 * `counts` per status); they move to the contracts' schemas once those are on main.
 */

export const DONATIONS_PAGE_SIZE = Limits.defaultPageSize;

/** A photo as an answer gives it: an address, or the media service's sizes. */
export type DonationPhoto =
  | string
  | { urls?: Partial<Record<'thumbnail' | 'medium' | 'large', string>> }
  | Partial<Record<'thumbnail' | 'medium' | 'large', string>>;

export interface DonationItem {
  id: number;
  category_id: number;
  description: string;
  dimensions: string | null;
  condition: string | null;
  can_disassemble: boolean | null;
  /** the donor's photos, in upload order */
  photos: DonationPhoto[];
  /** the lot made of it (at most one) */
  lot_id: number | null;
}

/** One status change of a donation (the first is its submission). */
export interface DonationHistoryEntry {
  at: string;
  from: DonationStatus | null;
  to: DonationStatus;
  /** who changed it: the donor (submitted), staff, or the expiry job */
  cause: 'donor' | 'staff' | 'expired';
  by: { id: number; name: string; email: string; role: string } | null;
  note: string | null;
  /** a decline's reason (the donor is told) */
  reason: string | null;
}

export interface Donation {
  id: number;
  status: DonationStatus;
  created_at: string;
  updated_at: string;
  donor_name: string;
  /** E.164 */
  donor_phone: string;
  /** the number as the donor typed it */
  donor_phone_raw?: string;
  donor_email: string | null;
  donor_name_public: boolean;
  language: Language;
  city: string;
  address: string;
  floor: number | null;
  has_elevator: boolean | null;
  /** YYYY-MM-DD */
  available_until: string;
  items: DonationItem[];
  /** oldest first */
  history: DonationHistoryEntry[];
  /** the donor's data was erased (on request or after the retention period) */
  erased?: boolean;
}

export interface DonationsPage {
  donations: Donation[];
  total: number;
  /** how many donations each status holds (the filter's counts) */
  counts?: Partial<Record<DonationStatus, number>>;
}

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
