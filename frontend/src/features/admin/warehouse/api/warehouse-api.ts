import type { Lot } from '@furniture/contracts/api/catalog';
import type { Application } from '@furniture/contracts/api/applications';
import type {
  ScanAnswer,
  StockCountAnswer,
  StoragePlace,
  StoragePlaceCreate,
  StoragePlaceListItem,
} from '@furniture/contracts/api/warehouse';
import { adminApi } from '../../api/admin-api';

/** The warehouse's calls of issue 45 (contracts/src/api/warehouse.ts). */

export type { ScanAnswer, StockCountAnswer, StoragePlace, StoragePlaceListItem };

const api = adminApi.enhanceEndpoints({ addTagTypes: ['StoragePlace', 'Scan'] });

export const warehouseApi = api.injectEndpoints({
  endpoints: (build) => ({
    getStoragePlaces: build.query<StoragePlaceListItem[], number | undefined>({
      query: (locationId) => ({
        url: '/storage-places/',
        params: locationId ? { location_id: locationId } : {},
      }),
      transformResponse: (body: { storage_places: StoragePlaceListItem[] }) => body.storage_places,
      providesTags: [{ type: 'StoragePlace', id: 'LIST' }],
    }),
    createStoragePlace: build.mutation<StoragePlace, StoragePlaceCreate>({
      query: (body) => ({ url: '/storage-places/', method: 'POST', body }),
      invalidatesTags: [{ type: 'StoragePlace', id: 'LIST' }],
    }),
    /** API paths are lower case: the code goes lower-cased (the server reads any case) */
    scan: build.query<ScanAnswer, string>({
      query: (code) => `/scan/${encodeURIComponent(code.toLowerCase())}`,
      providesTags: (_r, _e, code) => [{ type: 'Scan', id: code }],
    }),
    /** a move (PATCH storage_place_id): the lot, the places and every scan answer change */
    moveLot: build.mutation<Lot, { lotId: number; placeId: number | null }>({
      query: ({ lotId, placeId }) => ({
        url: `/lots/${lotId}`,
        method: 'PATCH',
        body: { storage_place_id: placeId },
      }),
      invalidatesTags: (_r, _e, { lotId }) => [
        { type: 'AdminLot', id: lotId },
        { type: 'StoragePlace', id: 'LIST' },
        'Scan',
      ],
    }),
    countPlace: build.mutation<StockCountAnswer, { placeId: number; codes: string[] }>({
      query: ({ placeId, codes }) => ({
        url: `/storage-places/${placeId}/count`,
        method: 'POST',
        body: { codes },
      }),
    }),
    /** the lot's approved application (its family, pickup date and booking), if any */
    getLotApplications: build.query<Application[], number>({
      query: (lotId) => ({ url: '/applications', params: { lot_id: lotId, limit: 100 } }),
      transformResponse: (body: { applications: Application[] }) => body.applications,
      providesTags: ['Application'],
    }),
  }),
});

export const {
  useGetStoragePlacesQuery,
  useCreateStoragePlaceMutation,
  useScanQuery,
  useLazyScanQuery,
  useMoveLotMutation,
  useCountPlaceMutation,
  useGetLotApplicationsQuery,
} = warehouseApi;
