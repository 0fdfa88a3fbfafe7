/** Every enumerated value of the product, one name for one thing across API, events and UI. */

/**
 * `referrer` (issue 44): a partner agency's social worker who applies for the families it
 * supports; never staff (requireStaff is admin and volunteer only).
 */
export const Roles = ['admin', 'volunteer', 'referrer'] as const;
export type Role = (typeof Roles)[number];
/** The back-office's staff: every staff call answers 403 to any other role. */
export const StaffRoles = ['admin', 'volunteer'] as const satisfies readonly Role[];
export const isStaffRole = (role: Role): boolean => (StaffRoles as readonly Role[]).includes(role);

/** Why a staff session ended before or at its end (the user.logged_out event's reason). */
export const SessionEndReasons = [
  'logout',
  'idle',
  'max_age',
  'refresh_reuse',
  /** the referrer's partner agency was deactivated (issue 44) */
  'agency_deactivated',
] as const;
export type SessionEndReason = (typeof SessionEndReasons)[number];

/** `transferred` is known to the lot detail views; staff normally use `taken`. */
export const LotStatuses = ['available', 'reserved', 'transferred', 'taken', 'archived'] as const;
export type LotStatus = (typeof LotStatuses)[number];

export const ApplicationStatuses = ['pending', 'approved', 'rejected', 'completed'] as const;
export type ApplicationStatus = (typeof ApplicationStatuses)[number];

/**
 * The spec names two readings (active/fulfilled/cancelled and pending/reviewed/fulfilled/archived).
 * We use the staff document's reading because it is the one with defined transitions.
 */
export const WishStatuses = ['active', 'fulfilled', 'cancelled'] as const;
export type WishStatus = (typeof WishStatuses)[number];

/**
 * A donor's offer (wave 3): submitted by the donor, accepted or declined by staff; an accepted
 * offer may stay with the donor until it is collected; `expired` when its available-until date
 * passed before that.
 */
export const DonationStatuses = [
  'submitted',
  'accepted',
  'declined',
  'collected',
  'cancelled',
  'expired',
] as const;
export type DonationStatus = (typeof DonationStatuses)[number];

/** How worn a piece is: the lot form's conditions (a donated item's too), stored by these keys. */
export const ItemConditions = ['new', 'like_new', 'very_good', 'good', 'worn'] as const;
export type ItemCondition = (typeof ItemConditions)[number];

/** What staff may change a donation to (the expiry job alone sets `expired`). */
export const DonationTransitions: Record<DonationStatus, readonly DonationStatus[]> = {
  submitted: ['accepted', 'declined'],
  accepted: ['collected', 'cancelled'],
  declined: [],
  collected: [],
  cancelled: [],
  expired: [],
};

/**
 * Handover (wave 3, issue 29): what a slot is for. `pickup`: the family comes to a location;
 * `delivery`: the team brings the lot (offered only to families who asked for delivery help);
 * `donor_pickup`: the team collects a donation from the donor (booked by staff).
 */
export const SlotKinds = ['pickup', 'delivery', 'donor_pickup'] as const;
export type SlotKind = (typeof SlotKinds)[number];

/**
 * A handover (one booked slot of one application or donation): `booked` until a driver or staff
 * mark it `done` or `absent`; `cancelled` when the family or staff gave the slot back (or the
 * application ended); `missed` when its slot ended without an outcome (it feeds the lapse like a
 * passed pickup date).
 */
export const HandoverStatuses = ['booked', 'done', 'absent', 'cancelled', 'missed'] as const;
export type HandoverStatus = (typeof HandoverStatuses)[number];

/** The channels a message travels besides e-mail (wave 3, issue 30). */
export const MessageChannels = ['whatsapp', 'sms'] as const;
export type MessageChannel = (typeof MessageChannels)[number];

/**
 * A message's state: `queued` → `sending` → `sent` (the provider took it) → `delivered` → `read`
 * (the provider's callbacks); `failed` when every channel it may take failed for good (parked,
 * visible, never retried on its own); `skipped` when it could not go anywhere (the family opted
 * out of every channel, no number, the channels are off, or the month's budget is spent).
 */
export const MessageStatuses = [
  'queued',
  'sending',
  'sent',
  'delivered',
  'read',
  'failed',
  'skipped',
] as const;
export type MessageStatus = (typeof MessageStatuses)[number];

/** The prepared messages staff can send from an application or a wish (issue 30). */
export const PreparedMessages = ['call_office', 'still_interested', 'pickup_reminder'] as const;
export type PreparedMessage = (typeof PreparedMessages)[number];

/** What a driver or staff record at a stop. */
export const HandoverOutcomes = ['done', 'absent'] as const;
export type HandoverOutcome = (typeof HandoverOutcomes)[number];

/** Allowed wish transitions (back-office §4): fulfilled is final. */
export const WishTransitions: Record<WishStatus, readonly WishStatus[]> = {
  active: ['fulfilled', 'cancelled'],
  cancelled: ['active'],
  fulfilled: [],
};

/**
 * Activity log action types. The spec shows both cases; we store and answer UPPER case everywhere
 * (documented in docs/decisions.md) and accept either case on input.
 */
export const ActionTypes = [
  'LOGIN',
  'LOGOUT',
  'PASSWORD_CHANGE',
  'CREATE',
  'UPDATE',
  'DELETE',
  'APPROVE',
  /** an approval request that the catalog could not fulfil (the lot was not available) */
  'APPROVAL_FAILED',
  'REJECT',
  'STATUS_CHANGE',
  'CONTACT',
  'NOTE_ADD',
  'COMPLETE',
  'CANCEL_RESERVATION',
  'RECONSIDER',
  'PHOTO_UPLOAD',
  'PHOTO_DELETE',
  /** pickup dates: extended by staff, the family reminded, overdue, the lot offered to the next */
  'PICKUP_EXTEND',
  'PICKUP_REMINDER',
  'PICKUP_OVERDUE',
  'NEXT_IN_QUEUE',
  'EXPORT',
  'IMPORT',
  /** a family's personal data erased (privacy: on request or after the retention period) */
  'ERASE',
  /** partners (issue 44): an admin invited a referrer; a referrer referred a family */
  'INVITE',
  'REFER',
  /** handover (wave 3): a slot booked, changed or given back; a stop done or the family absent */
  'HANDOVER_BOOK',
  'HANDOVER_CANCEL',
  'HANDOVER_DONE',
  'HANDOVER_ABSENT',
  /** the warehouse (issue 45): a lot moved between storage places; the item checked at a handover */
  'LOT_MOVE',
  'HANDOVER_ITEM_CHECK',
  /** messages (wave 3, issue 30): a family or donor opted out (STOP, or marked by staff) or back in */
  'MESSAGE_OPT_OUT',
  /** a channel used 80 % of its monthly message budget (once per channel and month) */
  'MESSAGE_BUDGET_WARNING',
  /** a message failed for good on every channel (parked; staff see it and may send it again) */
  'MESSAGE_FAILED',
] as const;
export type ActionType = (typeof ActionTypes)[number];

export const TargetTypes = [
  'category',
  'lot',
  'application',
  'user',
  'wish',
  /** a donor's offer (wave 3) */
  'donation',
  /** a partner agency (issue 44) */
  'agency',
  'system',
] as const;
export type TargetType = (typeof TargetTypes)[number];

export const Languages = ['de', 'uk'] as const;
export type Language = (typeof Languages)[number];
export const DEFAULT_LANGUAGE: Language = 'de';

/** The eight known categories (public-site §3): id → slug. */
export const CategorySlugs = {
  1: 'sofas-chairs',
  2: 'beds-matresses',
  3: 'tables-chairs',
  4: 'wardrobes-chests',
  5: 'kitchen-furniture',
  6: 'children-furniture',
  7: 'office-furniture',
  8: 'decor-accessories',
} as const;

/** The 20 icon choices of the category form (back-office §3), emoji with a label key. */
export const CategoryIcons = [
  { icon: '🛋️', key: 'sofas' },
  { icon: '🛏️', key: 'beds' },
  { icon: '🪑', key: 'tables' },
  { icon: '🗄️', key: 'cabinets' },
  { icon: '🍳', key: 'kitchen' },
  { icon: '🧸', key: 'children' },
  { icon: '💼', key: 'office' },
  { icon: '🖼️', key: 'decoration' },
  { icon: '💡', key: 'lighting' },
  { icon: '🪴', key: 'plants' },
  { icon: '🍽️', key: 'tableware' },
  { icon: '🪞', key: 'mirrors' },
  { icon: '📺', key: 'electronics' },
  { icon: '🛁', key: 'bathroom' },
  { icon: '🔧', key: 'tools' },
  { icon: '📚', key: 'books' },
  { icon: '🧺', key: 'storage' },
  { icon: '🎨', key: 'art' },
  { icon: '🎲', key: 'toys' },
  { icon: '📦', key: 'other' },
] as const;
export const DEFAULT_CATEGORY_ICON = '📦';
