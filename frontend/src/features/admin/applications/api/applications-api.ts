import type { ApplicationStatus } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import type {
  Application,
  ApplicationStats,
  ApplicationsPage,
} from '@furniture/contracts/api/applications';
import { adminApi } from '../../api/admin-api';

export type { Application };

export const APPLICATIONS_PAGE_SIZE = Limits.defaultPageSize;

/** When to read again after a status change whose consequences come by events. */
export const EVENT_SETTLE_DELAYS_MS = [1500, 4000] as const;
const SETTLED_TAGS = ['Application', 'ApplicationStats', 'AdminLot', 'Lot'] as const;

/** Application calls of back-office §7 (search and dates stay in the browser). */
export const applicationsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    getApplications: build.query<
      ApplicationsPage,
      { status: ApplicationStatus | ''; page: number }
    >({
      query: ({ status, page }) => ({
        url: '/applications',
        params: {
          ...(status ? { status } : {}),
          limit: APPLICATIONS_PAGE_SIZE,
          skip: (page - 1) * APPLICATIONS_PAGE_SIZE,
        },
      }),
      providesTags: ['Application'],
    }),
    getApplicationTotals: build.query<ApplicationStats, void>({
      query: () => '/applications/stats',
      providesTags: ['ApplicationStats'],
    }),
    /** the server derives the action from the change and writes its note line */
    updateApplicationStatus: build.mutation<
      Application,
      { id: number; status: ApplicationStatus; note: string | null }
    >({
      query: ({ id, status, note }) => ({
        url: `/applications/${id}/status`,
        method: 'PATCH',
        body: { status, ...(note ? { note } : {}) },
      }),
      // an approval reserves the lot and rejects the other applications of it
      invalidatesTags: [...SETTLED_TAGS],
      // ... but the catalog and the queue answer by events a moment later: read again then, so
      // the page shows the reserved lot and the rejected rivals without a press on refresh
      async onQueryStarted(_args, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return;
        }
        for (const delay of EVENT_SETTLE_DELAYS_MS) {
          setTimeout(() => dispatch(adminApi.util.invalidateTags([...SETTLED_TAGS])), delay);
        }
      },
    }),
    addApplicationNote: build.mutation<Application, { id: number; line: string }>({
      query: ({ id, line }) => ({
        url: `/applications/${id}/notes`,
        method: 'PATCH',
        body: { internal_notes: line },
      }),
      invalidatesTags: ['Application'],
    }),
  }),
});

export const {
  useGetApplicationsQuery,
  useGetApplicationTotalsQuery,
  useUpdateApplicationStatusMutation,
  useAddApplicationNoteMutation,
} = applicationsApi;
