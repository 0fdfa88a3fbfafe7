import { Limits } from '@furniture/contracts/limits';
import type { ActivityLogPage, ActivityUsers } from '@furniture/contracts/api/activity';
import { adminApi } from '../../api/admin-api';

export const ACTIVITY_PAGE_SIZE = Limits.activityPageSize;

/** Activity log calls of back-office §7 (administrators only). */
export const activityApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    getActivityLogs: build.query<ActivityLogPage, number>({
      query: (page) => ({ url: '/activity-logs', params: { page, limit: ACTIVITY_PAGE_SIZE } }),
      providesTags: ['ActivityLog'],
    }),
    getActivityUsers: build.query<ActivityUsers, void>({
      query: () => '/activity-logs/users',
      providesTags: ['ActivityLog'],
    }),
  }),
});

export const { useGetActivityLogsQuery, useGetActivityUsersQuery } = activityApi;
