import type { LotStatus } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import type { Lot, LotCount } from '@furniture/contracts/api/catalog';
import type { ApplicationStats } from '@furniture/contracts/api/applications';
import type { Photo } from '@furniture/contracts/api/media';
import { adminApi } from '../../api/admin-api';

export type AdminLot = Lot;
export type { Photo };

export const LOTS_PAGE_SIZE = Limits.defaultPageSize;

/** The lots list's filters (kept as lot-management). */
export interface LotFilters {
  search: string;
  status: LotStatus | '';
  categoryId: string;
  /** YYYY-MM-DD, a day in Germany (the catalog's reading) */
  dateFrom: string;
  dateTo: string;
}

/** The body of POST /lots/ and, with `version`, PUT /lots/{id}. */
export interface LotBody {
  name: { de: string; uk: string };
  description: { de: string; uk: string };
  detailed_description: { de: string; uk: string };
  category_id: number;
  status: LotStatus;
  dimensions: string;
  condition: string;
  donor: string;
  location: string;
  photos?: string[];
  gallery_photos?: string[];
}

/** Query parameters shared by the list and the count; empty filters are left out. */
export function lotFilterParams(filters: LotFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (filters.search.trim()) params.search = filters.search.trim();
  if (filters.status) params.status = filters.status;
  if (filters.categoryId) params.category_id = filters.categoryId;
  if (filters.dateFrom) params.date_from = filters.dateFrom;
  if (filters.dateTo) params.date_to = filters.dateTo;
  return params;
}

const lotTags = (id: number) => [
  { type: 'AdminLot' as const, id },
  { type: 'Lot' as const, id },
];

/**
 * Lot calls of back-office §7. The catalog counts with every filter (date range included), so
 * the count never needs the spec's client-side count over up to 10000 lots.
 */
export const lotsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    getAdminLots: build.query<AdminLot[], { filters: LotFilters; page: number }>({
      query: ({ filters, page }) => ({
        url: '/lots/',
        params: {
          limit: LOTS_PAGE_SIZE,
          skip: (page - 1) * LOTS_PAGE_SIZE,
          ...lotFilterParams(filters),
        },
        // staff need the current state, not a cached one
        headers: { 'Cache-Control': 'no-cache' },
      }),
      providesTags: (lots = []) => [
        ...lots.map((l) => ({ type: 'AdminLot' as const, id: l.id })),
        { type: 'AdminLot', id: 'LIST' },
      ],
    }),
    getLotCount: build.query<number, LotFilters>({
      query: (filters) => ({ url: '/lots/count', params: lotFilterParams(filters) }),
      transformResponse: (body: LotCount) => Number(body.count),
      providesTags: [{ type: 'AdminLot', id: 'LIST' }],
    }),
    getLotApplicationStats: build.query<ApplicationStats, number[]>({
      query: (ids) => ({ url: '/applications/stats', params: { lot_ids: ids.join(',') } }),
      providesTags: ['ApplicationStats'],
    }),
    getAdminLot: build.query<AdminLot, number>({
      query: (id) => ({ url: `/lots/${id}`, headers: { 'Cache-Control': 'no-cache' } }),
      providesTags: (_lot, _error, id) => lotTags(id),
    }),
    createLot: build.mutation<AdminLot, LotBody>({
      query: (body) => ({ url: '/lots/', method: 'POST', body }),
      invalidatesTags: [{ type: 'AdminLot', id: 'LIST' }, { type: 'Lot', id: 'LIST' }, 'Category'],
    }),
    updateLot: build.mutation<AdminLot, { id: number; body: LotBody & { version: number } }>({
      query: ({ id, body }) => ({ url: `/lots/${id}`, method: 'PUT', body }),
      invalidatesTags: (_lot, _error, { id }) => [
        ...lotTags(id),
        { type: 'AdminLot', id: 'LIST' },
        { type: 'Lot', id: 'LIST' },
        'Category',
      ],
    }),
    /** the order of the photos (set main photo); needs no version */
    setLotPhotos: build.mutation<
      AdminLot,
      { id: number; photos: string[]; gallery_photos: string[] }
    >({
      query: ({ id, ...body }) => ({ url: `/lots/${id}`, method: 'PATCH', body }),
      invalidatesTags: (_lot, _error, { id }) => [...lotTags(id), { type: 'AdminLot', id: 'LIST' }],
    }),
    deleteLot: build.mutation<unknown, number>({
      query: (id) => ({ url: `/lots/${id}`, method: 'DELETE' }),
      invalidatesTags: [
        { type: 'AdminLot', id: 'LIST' },
        { type: 'Lot', id: 'LIST' },
        'Category',
        'ApplicationStats',
        'Application',
      ],
    }),
    getLotPhotos: build.query<Photo[], number>({
      query: (id) => `/lots/${id}/photos`,
      transformResponse: (body: { data?: Photo[] }) => body.data ?? [],
      providesTags: (_p, _e, id) => [{ type: 'LotPhotos', id }],
    }),
    deleteLotPhoto: build.mutation<unknown, { lotId: number; photoId: number }>({
      query: ({ lotId, photoId }) => ({
        url: `/lots/${lotId}/photos/${photoId}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_r, _e, { lotId }) => [{ type: 'LotPhotos', id: lotId }, ...lotTags(lotId)],
    }),
  }),
});

export const {
  useGetAdminLotsQuery,
  useGetLotCountQuery,
  useGetLotApplicationStatsQuery,
  useGetAdminLotQuery,
  useLazyGetAdminLotQuery,
  useCreateLotMutation,
  useUpdateLotMutation,
  useSetLotPhotosMutation,
  useDeleteLotMutation,
  useGetLotPhotosQuery,
  useDeleteLotPhotoMutation,
} = lotsApi;
