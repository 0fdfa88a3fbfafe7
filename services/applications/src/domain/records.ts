import type {
  Actor,
  Application,
  ApplicationStatus,
  ApprovalFailureReason,
  LotStatus,
  Wish,
} from '@furniture/contracts';

/*
 * The records the applications domain works with. Data access maps its documents to these; the
 * domain never sees a document.
 */

/** Statuses that hold a place in a lot's queue. */
export const OPEN_STATUSES: readonly ApplicationStatus[] = ['pending', 'approved'];
export const isOpen = (a: { status: ApplicationStatus }) => OPEN_STATUSES.includes(a.status);

/**
 * Who holds a lot, the one definition: an application that is approved, or pending with its
 * approval under way (the catalog reserves the lot for it). `HOLDS_LOT` is the same as a query.
 */
export function holdsLot(a: { status: string; approval?: { state?: string } | null }): boolean {
  return a.status === 'approved' || (a.status === 'pending' && a.approval?.state === 'requested');
}
export const HOLDS_LOT = {
  $or: [{ status: 'approved' }, { status: 'pending', 'approval.state': 'requested' }],
};

/** The fields a family gave (as in the staff's view of an application, contracts). */
export type ApplicantFields = Pick<
  Application,
  | 'applicant_name'
  | 'applicant_phone'
  | 'applicant_phone_raw'
  | 'applicant_whatsapp'
  | 'applicant_email'
  | 'applicant_city'
  | 'applicant_address'
  | 'needs_delivery_help'
  | 'language'
>;

/** An application as the domain sees it (plain object, ISO dates). */
export interface ApplicationRecord
  extends
    ApplicantFields,
    Pick<Application, 'id' | 'lot_id' | 'status' | 'created_at' | 'updated_at'> {
  /** the lot's name when the family applied (the read model's current name is preferred) */
  lot_name: { de: string; uk: string };
  /** internal notes, one line each, oldest first */
  notes: string[];
  /** an approval the catalog has not confirmed yet, or one that failed */
  approval: ApprovalRecord | null;
  /** rejected because the lot was reserved for this application: back in the queue if cancelled */
  rejected_for: number | null;
  /** the Idempotency-Key the family's browser sent: a repeated submission answers the same */
  request_key: string | null;
  /** approved: the last day to pick the lot up (YYYY-MM-DD, office time zone) */
  pickup_by: string | null;
  /** the family was reminded of the pickup date */
  pickup_reminded_at: string | null;
  /** the pickup date was found passed (announced once) */
  pickup_overdue_at: string | null;
  /** pending and first of the queue because this application let its pickup date lapse */
  next_in_queue_after: number | null;
  /**
   * approved (issue 29): the seed of the family's personal booking link (its token is derived,
   * never stored: link-secrets.ts); null before the approval, or for an approval made before
   * issue 43 (its link works, but cannot be shown again)
   */
  handover_seed: string | null;
  /** when it was last approved */
  approved_at: string | null;
  /** a staff status change made without a note, whose note may still follow (NoteOpen) */
  note_open: NoteOpen | null;
  /** issue 44: the partner agency's referrer who applied for the family; null otherwise */
  referral: ReferralRecord | null;
}

/**
 * Who referred a family (issue 44), kept on the application it made: one write stores both, so
 * no referral exists without its application or the other way round.
 */
export interface ReferralRecord {
  /** the referral's own number (counter `referrals`) */
  id: number;
  agency_id: number;
  agency_name: string;
  referrer_id: number;
  referrer_name: string;
  referrer_email: string;
  referrer_language: 'de' | 'uk';
  household_size: number;
  /** the referrer's note for staff */
  note: string | null;
  /** still pending then: it closes as expired (REFERRAL_VALID_DAYS) */
  expires_at: string;
  /** when it closed as expired (absent otherwise) */
  expired_at?: string | null;
}

/**
 * A status change sent without a note, as the specification's client does (the note follows in
 * a second call): the change's note line, its author and when; the author's next note within
 * NOTE_ATTACH_WINDOW_MS, with nothing else changed meanwhile, becomes that line's comment.
 */
export interface NoteOpen {
  action: string;
  /** the line as written with the change (replaced by the one with the note) */
  line: string;
  role: string;
  email: string;
  at: string;
}

export interface ApprovalRecord {
  state: 'requested' | 'failed';
  requested_at: string;
  /** null: the system (a lapsed lot offered to the next family) */
  requested_by: Actor | null;
  /** the pickup date the approval will carry */
  pickup_by: string | null;
  note: string | null;
  reason: ApprovalFailureReason | null;
  lot_status: LotStatus | null;
  ended_at: string | null;
}

export type NewApplication = Omit<
  ApplicationRecord,
  | 'id'
  | 'created_at'
  | 'updated_at'
  | 'approval'
  | 'rejected_for'
  | 'pickup_by'
  | 'pickup_reminded_at'
  | 'pickup_overdue_at'
  | 'next_in_queue_after'
  | 'handover_seed'
  | 'approved_at'
  | 'note_open'
  | 'referral'
> & { referral?: ReferralRecord | null };

/** What a status change writes besides the status, and what it requires besides `from`. */
export interface TransitionExtras {
  /** approving: the pickup date */
  pickupBy?: string | null;
  /** rejected because the lot was reserved for this application */
  rejectedFor?: number | null;
  /** only while an approval of the application is requested (the catalog confirmed it) */
  requireApprovalRequested?: boolean;
  /** approving: the family's booking link: its seed and its token's digest */
  handover?: { seed: string; tokenHash: string } | null;
  /** a staff change without a note: its note may follow (NoteOpen) */
  noteOpen?: NoteOpen | null;
}

export type NewWish = Omit<Wish, 'id' | 'created_at' | 'updated_at'>;

/** The application that holds a lot (`holdsLot`). */
export interface LotHolder {
  id: number;
  applicant_name: string;
}

/** One lot's queue as the staff lists present it. */
export interface LotQueue {
  /** the open (pending, approved) applications' ids, oldest (queue order) first */
  open: number[];
  holder: LotHolder | null;
}
