import { Schema, type Connection } from 'mongoose';
import { ActionTypes, Roles, TargetTypes } from '@furniture/contracts';
import type { ActionType, ActivityLogEntry, Role, TargetType } from '@furniture/contracts';

/**
 * One activity log entry. `_id` is the domain event's id (`client:<uuid>` for entries posted by
 * staff clients, `export:<uuid>` for exports): a redelivered event finds its entry, and FerretDB
 * answers `_id` lookups from its primary key (other filters scan the collection).
 */
export interface ActivityDoc {
  _id: string;
  id: number;
  event_name: string | null;
  source: 'server' | 'client';
  user_id: number | null;
  user_name: string | null;
  user_email: string | null;
  user_role: Role | null;
  action_type: ActionType;
  target_type: TargetType;
  target_id: number | null;
  /** JSON text: client details may hold any keys (dots, dollars) a document field could not */
  details_json: string | null;
  /** lower-case words the search box matches (names, e-mails, target names, notes) */
  search_text: string;
  created_at: Date;
  /**
   * The entry's calendar day in the office's time zone ("2026-11-22"), written by the store: the
   * bucket the unfiltered list and the export read one at a time (activity-repository.ts).
   */
  day?: string;
}

/** An entry's details: its JSON, or a client's plain text as it is. */
export function parseDetails(json: string | null): ActivityLogEntry['details'] {
  try {
    return json === null ? null : (JSON.parse(json) as ActivityLogEntry['details']);
  } catch {
    return json;
  }
}

/** The staff members who appear in the log (the user filter), newest name and e-mail. */
export interface LogUserDoc {
  user_id: number;
  name: string;
  email: string;
  role: Role;
  last_activity_at: Date;
}

const activitySchema = new Schema<ActivityDoc>(
  {
    _id: { type: String, required: true },
    id: { type: Number, required: true, unique: true },
    event_name: { type: String, default: null },
    source: { type: String, enum: ['server', 'client'], required: true },
    user_id: { type: Number, default: null },
    user_name: { type: String, default: null },
    user_email: { type: String, default: null },
    user_role: { type: String, enum: [...Roles, null], default: null },
    action_type: { type: String, enum: ActionTypes, required: true },
    target_type: { type: String, enum: TargetTypes, required: true },
    target_id: { type: Number, default: null },
    details_json: { type: String, default: null },
    search_text: { type: String, default: '' },
    created_at: { type: Date, required: true },
  },
  { collection: 'activity_logs', versionKey: false },
);
// newest first, for every filter the list offers
activitySchema.index({ created_at: -1, id: -1 });
activitySchema.index({ user_id: 1, created_at: -1 });
activitySchema.index({ action_type: 1, created_at: -1 });
activitySchema.index({ target_type: 1, target_id: 1, created_at: -1 });
activitySchema.index({ target_id: 1, created_at: -1 });

const logUserSchema = new Schema<LogUserDoc>(
  {
    user_id: { type: Number, required: true, unique: true },
    name: { type: String, required: true },
    email: { type: String, required: true },
    role: { type: String, enum: Roles, required: true },
    last_activity_at: { type: Date, required: true },
  },
  { collection: 'log_users', versionKey: false },
);

export function registerModels(conn: Connection) {
  return {
    Activity: conn.model<ActivityDoc>('Activity', activitySchema),
    LogUser: conn.model<LogUserDoc>('LogUser', logUserSchema),
  };
}
export type Models = ReturnType<typeof registerModels>;
