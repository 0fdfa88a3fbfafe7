import { Schema, type Connection } from 'mongoose';
import { Roles, type Role } from '@furniture/contracts';
import { outboxPlugin } from '@furniture/platform';

export interface UserDoc {
  id: number;
  name: string;
  email: string;
  role: Role;
  /** a referrer's partner agency (issue 44) */
  agency_id?: number;
  /** a referrer's language (its invitation's): the mails about its families go out in it */
  language?: 'de' | 'uk';
  password_hash: string;
  created_at: Date;
  updated_at: Date;
  last_login_at?: Date;
  /** seeded with a configured password: the first login leads to the password change */
  must_change_password?: boolean;
  /** an administrator being deleted: no longer counted as one (see UsersService.delete) */
  deleting?: boolean;
}

export interface SessionDoc {
  sid: string;
  user_id: number;
  created_at: Date;
  /** absolute end of the session: no refresh after it */
  expires_at: Date;
  refreshed_at?: Date;
  /** the last login or refresh: the idle time counts from here */
  last_used_at?: Date;
  /** sha256 of the refresh token's secret now valid (the cookie's) */
  refresh_hash?: string;
  /** sha256 of the tokens it replaced, newest last (a replay of one ends the session) */
  used_hashes?: string[];
  /** when refresh_hash last changed (the grace for the token it replaced) */
  rotated_at?: Date;
  revoked_at?: Date | null;
  revoked_reason?: string;
}

const userSchema = new Schema<UserDoc>(
  {
    id: { type: Number, required: true, unique: true },
    name: { type: String, required: true },
    email: { type: String, required: true, unique: true },
    role: { type: String, enum: Roles, required: true, index: true },
    agency_id: { type: Number, index: true },
    language: { type: String },
    password_hash: { type: String, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    last_login_at: { type: Date },
    must_change_password: { type: Boolean },
    deleting: { type: Boolean },
  },
  { collection: 'users', versionKey: false },
);
userSchema.plugin(outboxPlugin);

const sessionSchema = new Schema<SessionDoc>(
  {
    sid: { type: String, required: true, unique: true },
    user_id: { type: Number, required: true, index: true },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
    refreshed_at: { type: Date },
    last_used_at: { type: Date },
    refresh_hash: { type: String },
    used_hashes: { type: [String], default: undefined },
    rotated_at: { type: Date },
    revoked_at: { type: Date, default: null },
    revoked_reason: { type: String },
  },
  { collection: 'sessions', versionKey: false },
);
// the sessions ended recently, asked by a starting or reconnected replica (internal revocations)
sessionSchema.index({ revoked_at: 1 });

export function registerModels(conn: Connection) {
  return {
    User: conn.model<UserDoc>('User', userSchema),
    Session: conn.model<SessionDoc>('Session', sessionSchema),
  };
}
export type Models = ReturnType<typeof registerModels>;
