import type {
  DayPlanStop,
  HandoverFamilyAnswer,
  LocationAnswer,
  LocationCreate,
  LocationPatch,
  SlotAnswer,
  SlotCreate,
  SlotPattern,
} from '@furniture/contracts/api/handovers';
import type { HandoverScanAnswer } from '@furniture/contracts/api/warehouse';
import type { HandoverOutcome, SlotKind } from '@furniture/contracts/enums';
import { adminApi } from '../../api/admin-api';

/** The staff's handover calls of issue 29 (contracts/src/api/handovers.ts). */

export type { DayPlanStop, LocationAnswer, SlotAnswer, SlotCreate, SlotPattern };

export interface SlotQuery {
  from: string;
  to: string;
  location_id?: number;
  kind?: SlotKind;
}

export interface OutcomeChange {
  id: number;
  outcome: HandoverOutcome;
  note?: string | null;
}

const api = adminApi.enhanceEndpoints({ addTagTypes: ['DayPlan', 'Slot', 'Location'] });

export const handoversApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDayPlan: build.query<DayPlanStop[], string>({
      query: (date) => ({ url: '/handovers/', params: { date } }),
      transformResponse: (body: { handovers: DayPlanStop[] }) =>
        // the team's order; the server's order where positions are equal
        [...body.handovers].sort((a, b) => a.position - b.position),
      providesTags: (_d, _e, date) => [{ type: 'DayPlan', id: date }],
    }),
    setOutcome: build.mutation<unknown, OutcomeChange>({
      query: ({ id, outcome, note }) => ({
        url: `/handovers/${id}`,
        method: 'PATCH',
        body: { outcome, ...(note ? { note } : {}) },
      }),
      invalidatesTags: ['DayPlan', 'Application', { type: 'Slot', id: 'LIST' }],
    }),
    /** the item before "erledigt" (issue 45): 200 {match}, or 409 WRONG_ITEM / UNKNOWN_ITEM */
    scanItem: build.mutation<HandoverScanAnswer, { id: number; code: string; confirm?: boolean }>({
      query: ({ id, code, confirm }) => ({
        url: `/handovers/${id}/scan`,
        method: 'POST',
        body: { code, ...(confirm ? { confirm } : {}) },
      }),
      invalidatesTags: ['DayPlan'],
    }),
    setOrder: build.mutation<unknown, { date: string; ids: number[] }>({
      query: (body) => ({ url: '/handovers/order', method: 'PUT', body }),
      // the list shows the new order at once (and again if the server refused it)
      async onQueryStarted({ date, ids }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          handoversApi.util.updateQueryData('getDayPlan', date, (stops) => {
            const byId = new Map(stops.map((s) => [s.id, s]));
            const ordered = ids.map((id) => byId.get(id)).filter((s) => s !== undefined);
            const rest = stops.filter((s) => !ids.includes(s.id));
            return [...ordered, ...rest].map((s, i) => ({ ...s, position: i }));
          }),
        );
        try {
          await queryFulfilled;
        } catch {
          patch.undo();
        }
      },
      invalidatesTags: (_r, _e, { date }) => [{ type: 'DayPlan', id: date }],
    }),
    /**
     * What the family's link shows (its booking): the application card reads it with the token
     * of `handover_url`, the one key to a family's booking.
     */
    getFamilyHandover: build.query<HandoverFamilyAnswer, string>({
      query: (token) => `/handovers/${encodeURIComponent(token)}`,
      providesTags: ['DayPlan'],
    }),
    /** a donor pickup for an accepted donation */
    bookDonorPickup: build.mutation<DayPlanStop, { donation_id: number; slot_id: number }>({
      query: (body) => ({ url: '/handovers/', method: 'POST', body }),
      invalidatesTags: (_r, _e, { donation_id }) => [
        'DayPlan',
        { type: 'Slot', id: 'LIST' },
        { type: 'Donation', id: donation_id },
      ],
    }),

    getSlots: build.query<SlotAnswer[], SlotQuery>({
      query: (params) => ({ url: '/slots/', params }),
      transformResponse: (body: { slots: SlotAnswer[] }) => body.slots,
      providesTags: [{ type: 'Slot', id: 'LIST' }],
    }),
    createSlot: build.mutation<SlotAnswer, SlotCreate>({
      query: (body) => ({ url: '/slots/', method: 'POST', body }),
      invalidatesTags: [{ type: 'Slot', id: 'LIST' }],
    }),
    createSlotPattern: build.mutation<{ slots: SlotAnswer[] }, SlotPattern>({
      query: (body) => ({ url: '/slots/pattern', method: 'POST', body }),
      invalidatesTags: [{ type: 'Slot', id: 'LIST' }],
    }),
    deleteSlot: build.mutation<void, number>({
      query: (id) => ({ url: `/slots/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Slot', id: 'LIST' }],
    }),

    getLocations: build.query<LocationAnswer[], void>({
      query: () => '/locations/',
      transformResponse: (body: { locations: LocationAnswer[] }) => body.locations,
      providesTags: [{ type: 'Location', id: 'LIST' }],
    }),
    createLocation: build.mutation<LocationAnswer, LocationCreate>({
      query: (body) => ({ url: '/locations/', method: 'POST', body }),
      invalidatesTags: [{ type: 'Location', id: 'LIST' }],
    }),
    updateLocation: build.mutation<LocationAnswer, { id: number; patch: LocationPatch }>({
      query: ({ id, patch }) => ({ url: `/locations/${id}`, method: 'PATCH', body: patch }),
      invalidatesTags: [{ type: 'Location', id: 'LIST' }],
    }),
  }),
});

export const {
  useGetDayPlanQuery,
  useSetOutcomeMutation,
  useSetOrderMutation,
  useScanItemMutation,
  useBookDonorPickupMutation,
  useGetFamilyHandoverQuery,
  useGetSlotsQuery,
  useCreateSlotMutation,
  useCreateSlotPatternMutation,
  useDeleteSlotMutation,
  useGetLocationsQuery,
  useCreateLocationMutation,
  useUpdateLocationMutation,
} = handoversApi;
