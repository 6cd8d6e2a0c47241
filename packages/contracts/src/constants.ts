/**
 * Business constants from the specification (section 9) and the brief (section 4).
 * Every number here is quoted by tests: change one and a test must fail.
 */

export const COOKIE_BANNER = {
  storageKey: 'cookie-consent',
  values: { accepted: 'accepted', declined: 'declined' },
  delayMs: 2000,
  slideInMs: 100,
  removalMs: 300,
} as const;

export const PRIMARY_TOAST = {
  limit: 1,
  removeDelayMs: 1_000_000,
  defaultDurationMs: 5000,
  swipeThresholdPx: 50,
  hotkey: ['F8'] as const,
} as const;

export const SECONDARY_TOAST = {
  visible: 3,
  durationMs: 4000,
  widthPx: 356,
  offsetPx: 32,
  mobileOffsetPx: 16,
  gapPx: 14,
  swipeThresholdPx: 20,
  removalMs: 200,
} as const;

export const BUTTON_VARIANTS = [
  'default',
  'brand',
  'hero',
  'cta',
  'destructive',
  'outline',
  'secondary',
  'ghost',
  'link',
] as const;
export const BUTTON_SIZES = ['default', 'sm', 'lg', 'icon'] as const;

export const NATIVE_SHELL_PADDING = {
  ios: { top: 44, bottom: 34 },
  other: { top: 24, bottom: 0 },
} as const;

/** Horizontal overflow is hidden when the page is wider than the viewport by more than this. */
export const OVERFLOW_TOLERANCE_PX = 1;

export const QUERY_CACHE = {
  staleTimeMs: 5 * 60 * 1000,
  gcTimeMs: 10 * 60 * 1000,
  retry: 1,
  refetchOnWindowFocus: false,
} as const;

export const WELCOME_GIFT = {
  delayMs: 90_000,
  unlockMs: 600,
  discountPercent: 20,
  code: 'WELCOME20',
  storage: {
    hasVisited: 'has-visited',
    giftModalShown: 'gift-modal-shown',
    firstTimeDiscount: 'first-time-discount',
  },
} as const;

export const MOBILE_BREAKPOINT_PX = 768;

export const ADMIN_SIDEBAR = {
  cookieName: 'sidebar_state',
  cookieMaxAgeSeconds: 7 * 24 * 60 * 60,
  width: '16rem',
  widthMobile: '18rem',
  widthCollapsed: '3rem',
  shortcutKey: 'b',
} as const;

export const ADMIN_PERIODS = ['today', 'mtd', 'last30', 'ytd'] as const;
export type AdminPeriod = (typeof ADMIN_PERIODS)[number];
export const DEFAULT_ADMIN_PERIOD: AdminPeriod = 'mtd';
export const ADMIN_PERIOD_LABELS: Record<AdminPeriod, string> = {
  today: 'Today',
  mtd: 'MTD',
  last30: 'Last 30d',
  ytd: 'YTD',
};

export const SEED_BOOK_COUNT = 40;

/** Days staff may restore a listing the clean-up withdrew (decision 0023); after that it stays withdrawn. */
export const CLEANUP_RESTORE_DAYS = 30;

/** Brief section 4: starting values; the live values are settings staff can change. */
export const COMMERCIAL_DEFAULTS = {
  buyerProtectionFixedMinor: 70,
  buyerProtectionPercent: 5,
  offerMinPercent: 50,
  offerExpiryHours: 48,
  acceptedOfferCheckoutHours: 24,
  reservationMinutes: 15,
  dispatchWorkingDays: 5,
  autoCompleteDays: 2,
  disputeWindowDays: 2,
  charityReturnDays: 14,
  maxPriceMinor: 1_000_000,
} as const;

export const PARCEL_SIZES = ['small', 'medium', 'large'] as const;
export type ParcelSize = (typeof PARCEL_SIZES)[number];

export const CONDITIONS = ['like_new', 'very_good', 'good', 'well_read'] as const;
export type Condition = (typeof CONDITIONS)[number];
export const CONDITION_LABELS: Record<Condition, string> = {
  like_new: 'Like new',
  very_good: 'Very good',
  good: 'Good',
  well_read: 'Well read',
};

export const LISTING_STATUSES = ['draft', 'active', 'reserved', 'sold', 'withdrawn', 'removed'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export const ORDER_STATUSES = [
  'pending_payment',
  'paid',
  'dispatched',
  'delivered',
  'completed',
  'cancelled',
  'disputed',
  'refunded',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PRODUCT = { name: 'Reshelf', appPath: '/reshelf-app' } as const;

/**
 * Header the web client and the app send with every tRPC call. Cookie-authenticated
 * mutations without it (or from a foreign Origin) are refused: a cross-site form cannot
 * set custom headers.
 */
export const CLIENT_HEADER = 'x-reshelf-client';
