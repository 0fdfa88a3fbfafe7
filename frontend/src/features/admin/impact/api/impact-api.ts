import type { ImpactReport } from '@furniture/contracts/api/impact';
import { adminApi } from '../../api/admin-api';

export type { ImpactReport };

/** The impact dashboard's figures (issue 19, administrators only). */
export const impactApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    getImpact: build.query<ImpactReport, number>({
      query: (months) => ({ url: '/impact', params: { months } }),
    }),
  }),
});

export const { useGetImpactQuery } = impactApi;
