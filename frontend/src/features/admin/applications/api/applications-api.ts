import type { ApplicationStatus } from '@furniture/contracts/enums';
import { Limits } from '@furniture/contracts/limits';
import type {
  Application,
  ApplicationStats,
  ApplicationsPage,
} from '@furniture/contracts/api/applications';
import { useEffect, useRef, useState } from 'react';
import { useAppDispatch } from '../../../../app/hooks';
import { adminApi } from '../../api/admin-api';

export type { Application };

export const APPLICATIONS_PAGE_SIZE = Limits.defaultPageSize;

/** How often the list is read again while an approval is under way (the catalog reserves). */
export const APPROVAL_POLL_MS = 1000;
/** What an approval or a status change may change besides the application itself. */
const SETTLED_TAGS = ['Application', 'ApplicationStats', 'AdminLot', 'Lot'] as const;

/** An approval was requested and the catalog has not answered yet. */
export const approvalUnderWay = (a: Application) => a.approval?.state === 'requested';

/** Application calls of back-office §7 (search and dates stay in the browser). */
export const applicationsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    getApplications: build.query<
      ApplicationsPage,
      {
        status: ApplicationStatus | '';
        page: number;
        lotId?: number | null;
        /** one partner agency's families (issue 44) */
        agencyId?: number | null;
      }
    >({
      query: ({ status, page, lotId, agencyId }) => ({
        url: '/applications',
        params: {
          ...(status ? { status } : {}),
          ...(lotId ? { lot_id: lotId } : {}),
          ...(agencyId ? { agency_id: agencyId } : {}),
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
    /**
     * The server derives the action from the change and writes its note line. An approval is
     * answered 202 while the catalog reserves the lot (approval.state requested); the page then
     * follows the application until it is approved or the request failed (ApplicationsPage).
     */
    updateApplicationStatus: build.mutation<
      Application,
      { id: number; status: ApplicationStatus; note: string | null; pickupBy?: string | null }
    >({
      query: ({ id, status, note, pickupBy }) => ({
        url: `/applications/${id}/status`,
        method: 'PATCH',
        body: { status, ...(note ? { note } : {}), ...(pickupBy ? { pickup_by: pickupBy } : {}) },
      }),
      invalidatesTags: [...SETTLED_TAGS],
    }),
    /** A new pickup date for an approved application (issue 19); the family is mailed. */
    changePickup: build.mutation<
      Application,
      { id: number; pickupBy: string; note: string | null }
    >({
      query: ({ id, pickupBy, note }) => ({
        url: `/applications/${id}/pickup`,
        method: 'PATCH',
        body: { pickup_by: pickupBy, ...(note ? { note } : {}) },
      }),
      invalidatesTags: ['Application'],
    }),
    /** The family did not come: the application ends, the lot goes to the next family. */
    lapseApplication: build.mutation<Application, { id: number; note: string | null }>({
      query: ({ id, note }) => ({
        url: `/applications/${id}/lapse`,
        method: 'POST',
        body: note ? { note } : {},
      }),
      invalidatesTags: [...SETTLED_TAGS],
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

/**
 * Reads the list again every second while an approval on it is under way, and when one ends
 * (approved, or failed) also the stats and the lots, which the approval changed.
 */
export function useApplicationsFollowingApprovals(args: {
  status: ApplicationStatus | '';
  page: number;
  /** one lot's applications only (a link from elsewhere: /admin/applications?lot=5) */
  lotId?: number | null;
  /** one partner agency's families (?agency=3) */
  agencyId?: number | null;
}) {
  const dispatch = useAppDispatch();
  const [underWay, setUnderWay] = useState(false);
  const list = applicationsApi.useGetApplicationsQuery(args, {
    pollingInterval: underWay ? APPROVAL_POLL_MS : 0,
  });
  const pendingIds = (list.data?.applications ?? []).filter(approvalUnderWay).map((a) => a.id);
  const key = pendingIds.join(',');
  const previous = useRef(key);
  useEffect(() => {
    setUnderWay(key !== '');
    const before = previous.current.split(',').filter(Boolean);
    if (before.some((id) => !key.split(',').includes(id))) {
      dispatch(adminApi.util.invalidateTags(['ApplicationStats', 'AdminLot', 'Lot']));
    }
    previous.current = key;
  }, [key, dispatch]);
  return list;
}

export const {
  useGetApplicationsQuery,
  useGetApplicationTotalsQuery,
  useUpdateApplicationStatusMutation,
  useChangePickupMutation,
  useLapseApplicationMutation,
  useAddApplicationNoteMutation,
} = applicationsApi;
