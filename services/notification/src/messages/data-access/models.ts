import { Schema, type Connection } from 'mongoose';
import { Languages, MessageChannels, MessageReasons, MessageStatuses } from '@furniture/contracts';
import type { MessageRecord } from '../domain/message-types';

/** One message per event (`_id` is the event's id): the domain's MessageRecord as stored. */
export type MessageDoc = MessageRecord;

const stepSchema = new Schema(
  {
    channel: { type: String, enum: MessageChannels, required: true },
    status: { type: String, enum: MessageStatuses, required: true },
    at: { type: String, required: true },
    error: { type: String, default: null },
  },
  { _id: false },
);

const messageSchema = new Schema<MessageDoc>(
  {
    _id: { type: String, required: true },
    id: { type: Number, required: true, unique: true },
    event_name: { type: String, required: true },
    kind: { type: String, required: true },
    application_id: { type: Number, default: null },
    wish_id: { type: Number, default: null },
    donation_id: { type: Number, default: null },
    lot_id: { type: Number, default: null },
    language: { type: String, enum: Languages, required: true },
    template: { type: String, required: true },
    params: { type: [String], default: [] },
    text: { type: String, default: null },
    whatsapp_to: { type: String, default: null },
    sms_to: { type: String, default: null },
    channel: { type: String, enum: [...MessageChannels, null], default: null },
    status: { type: String, enum: MessageStatuses, required: true },
    reason: { type: String, enum: [...MessageReasons, null], default: null },
    steps: { type: [stepSchema], default: [] },
    failed_channels: { type: [String], default: [] },
    provider_id: { type: String, default: null },
    sent_months: { type: [String], default: [] },
    attempts: { type: Number, required: true },
    interrupted_attempts: { type: Number, default: 0 },
    claims: { type: Number },
    next_attempt_at: { type: Date, default: null },
    lease_until: { type: Date, default: null },
    last_error: { type: String, default: null },
    emailed: { type: Boolean, required: true },
    mail_to: { type: String, default: null },
    requested_by: { type: String, default: null },
    traceparent: { type: String, default: null },
    occurred_at: { type: Date, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: 'messages', versionKey: false },
);
// the sender's due and lost messages
messageSchema.index({ status: 1, next_attempt_at: 1 });
messageSchema.index({ status: 1, lease_until: 1 });
// a thread's messages (the application card, the wish and donation detail)
messageSchema.index({ application_id: 1, occurred_at: -1 });
messageSchema.index({ wish_id: 1, occurred_at: -1 });
messageSchema.index({ donation_id: 1, occurred_at: -1 });
// a callback names the provider's id
messageSchema.index({ provider_id: 1 });
// the parked ones, newest first, and the retention
messageSchema.index({ status: 1, updated_at: -1 });
// the month's budget: accepted attempts per channel and month
messageSchema.index({ sent_months: 1 });

/** An opt-out: `_id` is "<channel>:<sha256 of the E.164 number>"; the number is not kept. */
export interface OptOutDoc {
  _id: string;
  channel: (typeof MessageChannels)[number];
  phone_hash: string;
  /** family: STOP answered; staff: set in the back-office */
  by: 'family' | 'staff';
  since: Date;
}

const optOutSchema = new Schema<OptOutDoc>(
  {
    _id: { type: String, required: true },
    channel: { type: String, enum: MessageChannels, required: true },
    phone_hash: { type: String, required: true },
    by: { type: String, enum: ['family', 'staff'], required: true },
    since: { type: Date, required: true },
  },
  { collection: 'message_opt_outs', versionKey: false },
);
optOutSchema.index({ phone_hash: 1 });

/** One budget warning per channel and month (`_id` "<channel>:<YYYY-MM>": a unique insert). */
export interface BudgetWarningDoc {
  _id: string;
  channel: (typeof MessageChannels)[number];
  month: string;
  used: number;
  budget: number;
  created_at: Date;
}

const budgetWarningSchema = new Schema<BudgetWarningDoc>(
  {
    _id: { type: String, required: true },
    channel: { type: String, enum: MessageChannels, required: true },
    month: { type: String, required: true },
    used: { type: Number, required: true },
    budget: { type: Number, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: 'message_budget_warnings', versionKey: false },
);

export function registerModels(conn: Connection) {
  return {
    Message: conn.model<MessageDoc>('Message', messageSchema),
    OptOut: conn.model<OptOutDoc>('MessageOptOut', optOutSchema),
    BudgetWarning: conn.model<BudgetWarningDoc>('MessageBudgetWarning', budgetWarningSchema),
  };
}
export type Models = ReturnType<typeof registerModels>;
