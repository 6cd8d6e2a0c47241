/** Roles and tiers (spec section 6, brief section 3). */

export const STAFF_ROLES = ['admin', 'moderator'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const ADMIN_TIERS = {
  super_admin: 4,
  ops_admin: 3,
  support_agent: 2,
  read_only: 1,
} as const;
export type AdminTier = keyof typeof ADMIN_TIERS;
export const ADMIN_TIER_NAMES = Object.keys(ADMIN_TIERS) as AdminTier[];
export const DEFAULT_REQUIRED_TIER_LEVEL = 1;

/** Roles are compared lower-cased: a row stored as "ADMIN" still grants admin. */
export function isStaffRole(role: string): boolean {
  const lowered = role.trim().toLowerCase();
  return (STAFF_ROLES as readonly string[]).includes(lowered);
}

export function hasStaffRole(roles: readonly string[]): boolean {
  return roles.some(isStaffRole);
}

export function tierLevel(tier: string | null | undefined): number {
  if (!tier) return 0;
  return (ADMIN_TIERS as Record<string, number>)[tier.trim().toLowerCase()] ?? 0;
}

export function tierForLevel(level: number): AdminTier | undefined {
  return ADMIN_TIER_NAMES.find((name) => ADMIN_TIERS[name] === level);
}

/**
 * Spec §2: routes that need a session (no session: /login, replacing history). After the
 * spec's /account pages come the buying pages under it, which the order and offer
 * emails link to.
 */
export const SIGNED_IN_ROUTES = [
  '/email-verification',
  '/onboarding',
  '/onboarding/complete',
  '/social',
  '/checkout',
  '/checkout/confirm',
  '/checkout/offer',
  '/checkout/basket',
  '/sell',
  '/sell/new',
  '/sell/:id',
  '/sell/:id/:subpage',
  '/sell/confirm',
  '/sell/wizard',
  '/messages',
  '/messages/:threadId',
  '/recommendations',
  '/account',
  '/account/settings',
  '/account/listings',
  '/account/wishlist',
  '/account/series',
  '/account/wants',
  '/account/following',
  '/account/saved-searches',
  '/account/reading-lists',
  '/account/notifications',
  '/account/offers',
  '/account/orders',
  '/account/orders/:orderId',
  '/account/sales',
  '/account/sales/:orderId',
  '/account/payouts',
  '/account/analytics',
  '/account/reviews',
  '/account/payouts/statement/:month',
  '/account/payouts/reporting/:year',
  '/account/removals/:removalId',
  '/charity/sell',
  '/charity/bulk-listing',
  '/charity/dashboard',
] as const;
