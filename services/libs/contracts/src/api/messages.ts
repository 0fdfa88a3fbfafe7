import { z } from 'zod';
import { Languages, MessageChannels, MessageStatuses, PreparedMessages } from '../enums';
import { idParamSchema, phoneSchema, queryInt, queryIntDefault } from './common';

/*
 * Messages (wave 3, issue 30): besides e-mail, the notification service sends every family and
 * donor message by WhatsApp (Cloud API template messages) or SMS (a Twilio-compatible API), in the
 * family's language, and tracks what became of it through the providers' signed callbacks.
 *
 * Staff (admin and volunteer):
 * - GET  /api/v1/messages/?application_id= | wish_id= | donation_id=   one thread's messages, newest first
 * - GET  /api/v1/messages/failed?page=&limit=     messages that failed for good (parked), newest first
 * - GET  /api/v1/messages/status                  channels on or off, this month's use and budget
 * - POST /api/v1/messages/{id}/resend             a failed message once more → 202 {message}
 * - POST /api/v1/messages/opt-outs/lookup {phone} → {phone, whatsapp, sms} (opted out or not)
 * - PUT  /api/v1/messages/opt-outs {phone, channel, opted_out}  mark a number (the family asked by phone)
 * - POST /api/v1/applications/{id}/messages {template}   a prepared message (applications service) → 202
 * - POST /api/v1/wishes/{id}/messages {template}         the same for a wish → 202
 *
 * Providers (no login; every request signed, a bad signature → 403 and a log line):
 * - GET  /api/v1/messages/callbacks/whatsapp   Meta's webhook verification (hub.mode, hub.verify_token, hub.challenge)
 * - POST /api/v1/messages/callbacks/whatsapp   status and inbound-message webhooks (X-Hub-Signature-256)
 * - POST /api/v1/messages/callbacks/sms        status callbacks and inbound SMS (X-Twilio-Signature)
 *
 * Phone numbers travel in bodies, never in URLs; answers show a number masked (+49 151 ••• 567).
 */

export const MESSAGE_CALLBACK_PATHS = {
  whatsapp: '/api/v1/messages/callbacks/whatsapp',
  sms: '/api/v1/messages/callbacks/sms',
} as const;

/** GET /messages/?…: exactly one thread. */
export const messageThreadQuerySchema = z
  .object({
    application_id: queryInt({ min: 1 }).optional(),
    wish_id: queryInt({ min: 1 }).optional(),
    donation_id: queryInt({ min: 1 }).optional(),
  })
  .refine(
    (q) => [q.application_id, q.wish_id, q.donation_id].filter((v) => v !== undefined).length === 1,
    { message: 'thread_required' },
  );
export type MessageThreadQuery = z.infer<typeof messageThreadQuerySchema>;

/** GET /messages/failed. */
export const failedMessagesQuerySchema = z.object({
  page: queryIntDefault(1, { min: 1 }),
  limit: queryIntDefault(20, { min: 1, max: 100 }),
});

export const messageIdParamSchema = idParamSchema;

/** One step of a message: the channel tried and what the provider said. */
export const messageStepSchema = z.object({
  channel: z.enum(MessageChannels),
  status: z.enum(MessageStatuses),
  at: z.string(),
  /** the provider's error (code and title), or why the channel was passed over */
  error: z.string().nullable(),
});
export type MessageStep = z.infer<typeof messageStepSchema>;

/** Why a message went nowhere (skipped) or gave up (failed). */
export const MessageReasons = [
  'opted_out',
  'no_number',
  'channels_off',
  'budget_spent',
  'provider_refused',
  'undelivered',
  /** an anonymous submission's confirmation (issue 43): no number of an allowed country */
  'country_not_allowed',
  /** … the number had its one confirmation of the day already */
  'daily_limit',
  /** … the month's share of the budget for such confirmations is spent */
  'anonymous_share_spent',
] as const;
export type MessageReason = (typeof MessageReasons)[number];

export const messageSchema = z.object({
  id: z.number().int(),
  /** the mail kind it mirrors (approved, wish_match, handover_booked, …) or staff_<template> */
  kind: z.string(),
  application_id: z.number().int().nullable(),
  wish_id: z.number().int().nullable(),
  donation_id: z.number().int().nullable(),
  lot_id: z.number().int().nullable(),
  /** the channel of its latest attempt (null: skipped before any) */
  channel: z.enum(MessageChannels).nullable(),
  /** the number it went to, masked */
  to: z.string().nullable(),
  language: z.enum(Languages),
  /** the WhatsApp template's name (the SMS carries the same text) */
  template: z.string(),
  /** the text as the family reads it (null once erased) */
  text: z.string().nullable(),
  status: z.enum(MessageStatuses),
  reason: z.enum(MessageReasons).nullable(),
  steps: z.array(messageStepSchema),
  /** the family has an e-mail address: the same news went (or, after a failure, goes) by mail */
  emailed: z.boolean(),
  /** the staff member who asked for it (prepared messages), else null */
  requested_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Message = z.infer<typeof messageSchema>;

/** GET /messages/?… → `{success: true, data}`. */
export const messageListAnswer = z.object({ messages: z.array(messageSchema) });
export type MessageList = z.infer<typeof messageListAnswer>;

/** GET /messages/failed → `{success: true, data}`. */
export const failedMessagesAnswer = z.object({
  messages: z.array(messageSchema),
  total: z.number().int(),
});

const channelState = z.object({
  /** configured (tokens set); off: nothing goes out on it and staff see so */
  enabled: z.boolean(),
  /** messages sent on it this calendar month (Europe/Berlin) */
  used: z.number().int(),
  /** the monthly budget (null: none) */
  budget: z.number().int().nullable(),
  /** 80 % of the budget used */
  warning: z.boolean(),
  /** the budget is spent: no more messages on it this month */
  spent: z.boolean(),
  /** the provider could not be reached at its last attempt (messages wait) */
  reachable: z.boolean(),
});
export type MessageChannelState = z.infer<typeof channelState>;

/** GET /messages/status → `{success: true, data}`. */
export const messageStatusAnswer = z.object({
  whatsapp: channelState,
  sms: channelState,
  /** messages parked as failed */
  failed: z.number().int(),
  /** the month the figures count (YYYY-MM) */
  month: z.string(),
});
export type MessageStatusAnswer = z.infer<typeof messageStatusAnswer>;

/** POST /messages/opt-outs/lookup. */
export const optOutLookupSchema = z.object({ phone: phoneSchema('invalid_phone') });
export const optOutAnswer = z.object({
  /** the number as E.164 */
  phone: z.string(),
  whatsapp: z.boolean(),
  sms: z.boolean(),
});
export type OptOutState = z.infer<typeof optOutAnswer>;

/** PUT /messages/opt-outs. */
export const optOutChangeSchema = z.object({
  phone: phoneSchema('invalid_phone'),
  channel: z.enum(MessageChannels, 'invalid_channel'),
  opted_out: z.boolean('required'),
});
export type OptOutChange = z.infer<typeof optOutChangeSchema>;

/** POST /applications/{id}/messages and /wishes/{id}/messages. */
export const prepareMessageSchema = z.object({
  template: z.enum(PreparedMessages, 'invalid_template'),
});
export type PrepareMessageRequest = z.infer<typeof prepareMessageSchema>;
/** → 202 `{requested: true}`: the request is on its way (the message list shows it). */
export const prepareMessageAnswer = z.object({ requested: z.literal(true) });

/** Meta's webhook verification query (GET /messages/callbacks/whatsapp). */
export const whatsappVerifyQuerySchema = z.object({
  'hub.mode': z.string().max(50),
  'hub.verify_token': z.string().max(500),
  'hub.challenge': z.string().max(500),
});
