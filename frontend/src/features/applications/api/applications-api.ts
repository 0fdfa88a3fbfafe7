import type {
  ApplicationCreated,
  ApplicationStatusItem,
  EligibilityCheck,
  QueueInfo,
} from '@furniture/contracts/api/applications';
import type { Language } from '@furniture/contracts/enums';
import { api } from '../../../app/api';
import { dataOf, objectOf } from '../../../lib/json';

/** POST /applications/ (public-site §3, plus the e-mail, the page language and the honeypot). */
export interface ApplicationPayload {
  applicant_name: string;
  applicant_phone: string;
  applicant_whatsapp: string | null;
  applicant_email: string | null;
  applicant_city: string;
  applicant_address: string;
  needs_delivery_help: boolean;
  lot_id: number;
  language: Language;
  website: string;
}

/** Newest first, whatever order the server used. */
export function newestFirst(items: ApplicationStatusItem[]): ApplicationStatusItem[] {
  return [...items].sort(
    (a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id,
  );
}

export const applicationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    canApply: build.query<EligibilityCheck, { lotId: number; phone: string }>({
      query: ({ lotId, phone }) => ({ url: `/lots/${lotId}/can-apply`, params: { phone } }),
      transformResponse: dataOf<EligibilityCheck>,
      providesTags: ['Eligibility'],
      keepUnusedDataFor: 30,
    }),
    getQueueInfo: build.query<QueueInfo, { lotId: number; phone?: string }>({
      query: ({ lotId, phone }) => ({
        url: `/lots/${lotId}/applications-info`,
        params: phone ? { phone } : undefined,
      }),
      transformResponse: dataOf<QueueInfo>,
      providesTags: (_info, _error, { lotId }) => [{ type: 'QueueInfo', id: lotId }],
    }),
    /**
     * `key` is one Idempotency-Key per filled form: sending the same form again (the answer was
     * lost, or the server was restarting) answers the first result instead of "already applied".
     */
    submitApplication: build.mutation<
      ApplicationCreated,
      { body: ApplicationPayload; key: string }
    >({
      query: ({ body, key }) => ({
        url: '/applications/',
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': key },
      }),
    }),
    checkStatus: build.query<ApplicationStatusItem[], string>({
      query: (phone) => `/applications/public/check-status/${encodeURIComponent(phone)}`,
      transformResponse: (body: unknown) => {
        const list = objectOf(body).applications ?? dataOf<unknown>(body);
        return Array.isArray(list) ? newestFirst(list as ApplicationStatusItem[]) : [];
      },
      providesTags: ['ApplicationStatus'],
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useCanApplyQuery,
  useGetQueueInfoQuery,
  useSubmitApplicationMutation,
  useLazyCheckStatusQuery,
} = applicationsApi;
