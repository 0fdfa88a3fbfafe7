import { Schema, type Connection } from 'mongoose';
import { Languages } from '@furniture/contracts';
import { MailKinds, MailStates, type MailRecord } from '../domain/mail-types';

/** One mail per event (`_id` is the event's id): the domain's MailRecord as stored. */
export type MailDoc = MailRecord;

const mailSchema = new Schema<MailDoc>(
  {
    _id: { type: String, required: true },
    id: { type: Number, required: true, unique: true },
    event_name: { type: String, required: true },
    kind: { type: String, enum: MailKinds, required: true },
    reason: { type: String, default: null },
    application_id: { type: Number, default: null },
    lot_id: { type: Number, default: null },
    donation_id: { type: Number, default: null },
    to: { type: String, required: true },
    language: { type: String, enum: Languages, required: true },
    subject: { type: String, required: true },
    text: { type: String, required: true },
    html: { type: String, required: true },
    state: { type: String, enum: MailStates, required: true },
    attempts: { type: Number, required: true },
    interrupted_attempts: { type: Number, default: 0 },
    claims: { type: Number },
    next_attempt_at: { type: Date, default: null },
    lease_until: { type: Date, default: null },
    last_error: { type: String, default: null },
    withdrawn_reason: { type: String, default: null },
    message_id: { type: String, required: true },
    traceparent: { type: String, default: null },
    smtp_response: { type: String, default: null },
    occurred_at: { type: Date, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    sent_at: { type: Date, default: null },
  },
  { collection: 'mails', versionKey: false },
);
mailSchema.index({ state: 1, next_attempt_at: 1 });
mailSchema.index({ state: 1, lease_until: 1 });
mailSchema.index({ application_id: 1, kind: 1 });
mailSchema.index({ donation_id: 1 });

export function registerModels(conn: Connection) {
  return {
    Mail: conn.model<MailDoc>('Mail', mailSchema),
  };
}
export type Models = ReturnType<typeof registerModels>;
