import type {
  Actor,
  Wish,
  ApplicationStatus,
  ApprovalFailureReason,
  Language,
  LotStatus,
} from '@furniture/contracts';

/*
 * The records the applications domain works with. Data access maps its documents to these; the
 * domain never sees a document.
 */

/** Statuses that hold a place in a lot's queue. */
export const OPEN_STATUSES: readonly ApplicationStatus[] = ['pending', 'approved'];

/** An application as the domain sees it (plain object, ISO dates). */
export interface ApplicationRecord {
  id: number;
  lot_id: number;
  status: ApplicationStatus;
  applicant_name: string;
  applicant_phone: string;
  applicant_phone_raw: string;
  applicant_whatsapp: string | null;
  applicant_email: string | null;
  applicant_city: string;
  applicant_address: string;
  needs_delivery_help: boolean;
  language: Language;
  lot_name: { de: string; uk: string };
  notes: string[];
  approval: ApprovalRecord | null;
  rejected_for: number | null;
  request_key: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApprovalRecord {
  state: 'requested' | 'failed';
  requested_at: string;
  requested_by: Actor;
  note: string | null;
  reason: ApprovalFailureReason | null;
  lot_status: LotStatus | null;
  ended_at: string | null;
}

export type NewApplication = Omit<
  ApplicationRecord,
  'id' | 'created_at' | 'updated_at' | 'approval' | 'rejected_for'
>;

/** What a status change writes besides the status, and what it requires besides `from`. */
export interface TransitionExtras {
  /** rejected because the lot was reserved for this application */
  rejectedFor?: number | null;
  /** only while an approval of the application is requested (the catalog confirmed it) */
  requireApprovalRequested?: boolean;
}


export type NewWish = Omit<Wish, 'id' | 'created_at' | 'updated_at'>;

/** The phone already applied for the lot (the unique index said so). */
export class DuplicateApplicationError extends Error {}
