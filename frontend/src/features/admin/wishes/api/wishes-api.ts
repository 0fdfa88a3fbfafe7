import type { WishStatus } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import type {
  Wish,
  WishesPage,
  WishMatches,
  WishNotified,
} from '@furniture/contracts/api/applications';
import { adminApi } from '../../api/admin-api';

export type { Wish, WishNotified };

export const WISHES_PAGE_SIZE = Limits.defaultPageSize;

export interface WishFilters {
  status: WishStatus | '';
  category: string;
  search: string;
}

/** Staff wish calls of back-office §7. */
export const wishesApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    getWishes: build.query<WishesPage, WishFilters & { page: number }>({
      query: ({ status, category, search, page }) => ({
        url: '/wishes',
        params: {
          ...(status ? { status } : {}),
          ...(category ? { category } : {}),
          ...(search.trim() ? { search: search.trim() } : {}),
          limit: WISHES_PAGE_SIZE,
          skip: (page - 1) * WISHES_PAGE_SIZE,
        },
      }),
      providesTags: [{ type: 'Wish', id: 'LIST' }],
    }),
    getWish: build.query<Wish, number>({
      query: (id) => `/wishes/${id}`,
      providesTags: (_w, _e, id) => [{ type: 'Wish', id }],
    }),
    /** the status travels as query parameter (back-office §7), the notes in the body */
    updateWishStatus: build.mutation<Wish, { id: number; status: WishStatus; adminNotes: string }>({
      query: ({ id, status, adminNotes }) => ({
        url: `/wishes/${id}/status`,
        method: 'PATCH',
        params: { status },
        body: { admin_notes: adminNotes },
      }),
      invalidatesTags: (_w, _e, { id }) => [
        { type: 'Wish', id },
        { type: 'Wish', id: 'LIST' },
      ],
    }),
    /** The active wishes a lot matches (same category), oldest first (issue 19). */
    getLotWishMatches: build.query<WishMatches, number>({
      query: (lotId) => `/lots/${lotId}/wish-matches`,
      providesTags: [{ type: 'Wish', id: 'LIST' }],
    }),
    /** Tells the wisher about the lot: by mail, or staff send the WhatsApp message themselves. */
    notifyWish: build.mutation<WishNotified, { id: number; lotId: number }>({
      query: ({ id, lotId }) => ({
        url: `/wishes/${id}/notify`,
        method: 'POST',
        body: { lot_id: lotId },
      }),
      invalidatesTags: (_w, _e, { id }) => [
        { type: 'Wish', id },
        { type: 'Wish', id: 'LIST' },
      ],
    }),
  }),
});

export const {
  useGetWishesQuery,
  useGetWishQuery,
  useUpdateWishStatusMutation,
  useGetLotWishMatchesQuery,
  useNotifyWishMutation,
} = wishesApi;
