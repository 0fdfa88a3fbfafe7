import type { FamilyBooking, HandoverFamilyAnswer } from '@furniture/contracts/api/handovers';
import { api } from '../../../app/api';
import { env } from '../../../config/env';

/* The family's calls of issue 29 (contracts/src/api/handovers.ts): no account, the token is the key. */

export type { FamilyBooking, HandoverFamilyAnswer };
export type OfferedSlot = HandoverFamilyAnswer['slots'][number];

const handoverApiWithTags = api.enhanceEndpoints({ addTagTypes: ['Handover'] });

export const handoverApi = handoverApiWithTags.injectEndpoints({
  endpoints: (build) => ({
    getHandover: build.query<HandoverFamilyAnswer, string>({
      query: (token) => `/handovers/${encodeURIComponent(token)}`,
      providesTags: (_a, _e, token) => [{ type: 'Handover', id: token }],
    }),
    /** book a slot, or move the booking to another one */
    bookSlot: build.mutation<{ booking: FamilyBooking }, { token: string; slotId: number }>({
      query: ({ token, slotId }) => ({
        url: `/handovers/${encodeURIComponent(token)}/booking`,
        method: 'POST',
        body: { slot_id: slotId },
      }),
      invalidatesTags: (_a, _e, { token }) => [{ type: 'Handover', id: token }],
    }),
    cancelBooking: build.mutation<void, string>({
      query: (token) => ({
        url: `/handovers/${encodeURIComponent(token)}/booking`,
        method: 'DELETE',
      }),
      invalidatesTags: (_a, _e, token) => [{ type: 'Handover', id: token }],
    }),
  }),
});

export const { useGetHandoverQuery, useBookSlotMutation, useCancelBookingMutation } = handoverApi;

/** The booking as an .ics file (a plain link: the browser downloads it). */
export function calendarLink(token: string): string {
  return `${env.apiBaseUrl.replace(/\/$/, '')}/handovers/${encodeURIComponent(token)}/calendar.ics`;
}
