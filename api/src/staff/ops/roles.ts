/** What `pnpm ops grant-role` can grant: a staff role (user_roles) or a global-admin tier (admin_users). */
export const STAFF_GRANTS = ['admin', 'moderator'] as const;
export const TIER_GRANTS = ['super_admin', 'ops_admin', 'support_agent', 'read_only'] as const;
export const ROLE_GRANTS = [...STAFF_GRANTS, ...TIER_GRANTS] as const;
export type RoleGrant = (typeof ROLE_GRANTS)[number];
