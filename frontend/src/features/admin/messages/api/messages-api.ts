import type {
  Message,
  MessageChannelState,
  MessageStatusAnswer,
  OptOutChange,
  OptOutState,
} from '@furniture/contracts/api/messages';
import type { PreparedMessage } from '@furniture/contracts/enums';
import { dataOf } from '../../../../lib/json';
import { adminApi } from '../../api/admin-api';

/**
 * The staff's message calls of issue 30 (contracts/src/api/messages.ts). Phone numbers travel in
 * bodies only (the opt-out lookup is a POST), never in a URL.
 */

export type { Message, MessageChannelState, MessageStatusAnswer, OptOutState };

/** Whose messages: exactly one of an application, a wish or a donation. */
export type MessageThread =
  { application_id: number } | { wish_id: number } | { donation_id: number };

/** The key of a thread in the cache (`application:12`). */
export const threadKey = (thread: MessageThread): string => {
  if ('application_id' in thread) return `application:${thread.application_id}`;
  if ('wish_id' in thread) return `wish:${thread.wish_id}`;
  return `donation:${thread.donation_id}`;
};

export const FAILED_PAGE_SIZE = 20;

const api = adminApi.enhanceEndpoints({
  addTagTypes: ['Message', 'MessageStatus', 'MessageOptOut'],
});

export const messagesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMessages: build.query<Message[], MessageThread>({
      query: (thread) => ({ url: '/messages/', params: thread }),
      transformResponse: (body: unknown) => dataOf<{ messages: Message[] }>(body).messages ?? [],
      providesTags: (_d, _e, thread) => [{ type: 'Message', id: threadKey(thread) }],
    }),
    getMessageStatus: build.query<MessageStatusAnswer, void>({
      query: () => '/messages/status',
      transformResponse: (body: unknown) => dataOf<MessageStatusAnswer>(body),
      providesTags: ['MessageStatus'],
    }),
    getFailedMessages: build.query<{ messages: Message[]; total: number }, number>({
      query: (page) => ({ url: '/messages/failed', params: { page, limit: FAILED_PAGE_SIZE } }),
      transformResponse: (body: unknown) => dataOf<{ messages: Message[]; total: number }>(body),
      providesTags: [{ type: 'Message', id: 'FAILED' }],
    }),
    resendMessage: build.mutation<unknown, number>({
      query: (id) => ({ url: `/messages/${id}/resend`, method: 'POST' }),
      invalidatesTags: (_r, error) => (error ? [] : ['Message', 'MessageStatus']),
    }),
    /**
     * A prepared message to the family of an application or a wish: 202 `{requested: true}`, on
     * its way; the thread shows it once the notification service has it.
     */
    sendPreparedMessage: build.mutation<
      unknown,
      { to: 'application' | 'wish'; id: number; template: PreparedMessage }
    >({
      query: ({ to, id, template }) => ({
        url: `/${to === 'application' ? 'applications' : 'wishes'}/${id}/messages`,
        method: 'POST',
        body: { template },
      }),
      invalidatesTags: (_r, error, { to, id }) =>
        error
          ? []
          : [
              {
                type: 'Message',
                id: threadKey(to === 'application' ? { application_id: id } : { wish_id: id }),
              },
              // the server notes the request on the application or wish
              to === 'application' ? 'Application' : 'Wish',
            ],
    }),
    /** whether a number opted out of each channel (a POST: the number stays out of the URL) */
    getOptOut: build.query<OptOutState, string>({
      query: (phone) => ({ url: '/messages/opt-outs/lookup', method: 'POST', body: { phone } }),
      transformResponse: (body: unknown) => dataOf<OptOutState>(body),
      providesTags: ['MessageOptOut'],
      keepUnusedDataFor: 0,
    }),
    setOptOut: build.mutation<OptOutState, OptOutChange>({
      query: (body) => ({ url: '/messages/opt-outs', method: 'PUT', body }),
      transformResponse: (body: unknown) => dataOf<OptOutState>(body),
      invalidatesTags: (_r, error) => (error ? [] : ['MessageOptOut']),
    }),
  }),
});

export const {
  useGetMessagesQuery,
  useGetMessageStatusQuery,
  useGetFailedMessagesQuery,
  useResendMessageMutation,
  useSendPreparedMessageMutation,
  useGetOptOutQuery,
  useLazyGetOptOutQuery,
  useSetOptOutMutation,
} = messagesApi;
