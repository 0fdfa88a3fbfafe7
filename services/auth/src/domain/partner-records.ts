import { z } from 'zod';
import type { Agency } from '@furniture/contracts';

/*
 * Partner agencies and referrer invitations (issue 44), each declared once: what the store keeps.
 */

export const AgencyRecord = z.object({
  id: z.number(),
  name: z.string(),
  /** the name as the unique key compares it: one agency per name */
  name_key: z.string(),
  city: z.string(),
  contact_email: z.string(),
  active: z.boolean(),
  created_at: z.date(),
  updated_at: z.date(),
  rev: z.number(),
});
export type AgencyRecord = z.infer<typeof AgencyRecord>;

/**
 * An invitation: only the sha256 of its secret is kept (the key); the link itself exists in the
 * answer to the admin and in the invitee's mail.
 */
export const InvitationRecord = z.object({
  token_hash: z.string(),
  agency_id: z.number(),
  email: z.string(),
  language: z.enum(['de', 'uk']),
  invited_by_user_id: z.number(),
  created_at: z.date(),
  expires_at: z.date(),
});
export type InvitationRecord = z.infer<typeof InvitationRecord>;

/**
 * An invitation's use: inserted by the acceptance, keyed by the token's hash, so that of two
 * acceptances (in any processes) exactly one wins; the invitation is spent from then on.
 */
export const InvitationUseRecord = z.object({
  token_hash: z.string(),
  used_at: z.date(),
});
export type InvitationUseRecord = z.infer<typeof InvitationUseRecord>;

export const agencyNameKey = (name: string): string =>
  name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

export function toAgency(r: AgencyRecord): Agency {
  return {
    id: r.id,
    name: r.name,
    city: r.city,
    contact_email: r.contact_email,
    active: r.active,
    created_at: r.created_at.toISOString(),
  };
}

export const agencySnapshotOf = (r: AgencyRecord) => ({
  id: r.id,
  name: r.name,
  city: r.city,
  active: r.active,
});
