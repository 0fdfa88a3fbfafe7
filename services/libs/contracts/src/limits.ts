/** Business constants and limits of both spec documents (§9), shared by servers and the SPA. */
export const Limits = {
  categoryCacheMs: 5 * 60 * 1000,
  tokenRefreshThresholdSeconds: 300,
  accessTokenTtlSeconds: 15 * 60,
  applySuccessReloadMs: 2000,
  errorBannerMs: 5000,
  toastMs: 5000,
  profileSuccessMs: 3000,
  userFormSuccessCloseMs: 1500,
  searchDebounceMs: 500,
  defaultPageSize: 20,
  maxPageSize: 100,
  activityPageSize: 50,
  activityMaxPageSize: 500,
  lotDateFilterFetchCap: 10000,
  applicationCountFetchCap: 1000,
  photosPerLot: 10,
  photoMaxBytes: 10 * 1024 * 1024,
  photoMinWidth: 300,
  photoMinHeight: 300,
  wishNameMin: 2,
  wishNameMax: 100,
  wishDescriptionMin: 10,
  wishDescriptionMax: 500,
  phoneMin: 7,
  phoneMax: 20,
  cityMax: 100,
  addressMax: 200,
  nameMax: 100,
  emailMax: 254,
  notesMax: 1000,
  /** a referred family's household (issue 44) */
  householdMax: 20,
  /** a referral still pending after this many days closes as expired (REFERRAL_VALID_DAYS) */
  referralValidDays: 30,
  /** referrals one referrer may make per office day (REFERRALS_PER_REFERRER_PER_DAY) */
  referralsPerReferrerPerDay: 50,
  /** what the login form asks (a stored password may predate the stricter rule below) */
  passwordMin: 8,
  /** a new password: at least this long, and not easy to guess (the auth service estimates it) */
  newPasswordMin: 12,
  passwordMax: 256,
  lotTextMax: 5000,
  lotNameMax: 200,
  lotShortTextMax: 200,
  categoryNameMax: 100,
  categoryDescriptionMax: 1000,
  dataProtectionReplyDays: 30,
  /**
   * closed applications and wishes keep the family's data this many days (the applications
   * service's PERSONAL_DATA_RETENTION_DAYS default; the public privacy page states it)
   */
  personalDataRetentionDays: 180,
  /** donations (wave 3): items per offer, photos per item, description length */
  donationItemsMax: 10,
  donationPhotosPerItem: 5,
  donationDescriptionMin: 10,
  donationDescriptionMax: 500,
  /** how long a donation's upload token lets the donor add photos */
  donationUploadTokenSeconds: 60 * 60,
  /** the browser shrinks a photo (a donor's, a lot's in the back-office) to this long side before uploading it */
  photoUploadLongSide: 2560,
  /** handover (wave 3): places in one slot, slots one weekly pattern may create */
  slotCapacityMax: 50,
  slotPatternMax: 400,
  /** a family may book, change or cancel its slot up to this many hours before it (default) */
  handoverChangeHours: 24,
  locationNotesMax: 500,
  /** the warehouse (issue 45): a storage place's name, lots on one label sheet, codes of a count */
  storagePlaceNameMax: 100,
  labelSheetLotsMax: 100,
  stockCountCodesMax: 1000,
  officeHours: 'Mo–Fr 9:00–18:00',
} as const;

export const PHOTO_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.webp'] as const;
export const PHOTO_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** What a missing city or address is sent and stored as (public-site §3). */
export const NOT_SPECIFIED = 'Не вказано';
