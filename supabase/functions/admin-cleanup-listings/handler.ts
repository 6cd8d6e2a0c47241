import { adminCleanupListings } from '../_shared/admin.ts';
import { createHandler } from '../_shared/handler.ts';

/**
 * admin-cleanup-listings: `{dry_run: true}` previews (staff); `{}` or `{expected}` withdraws
 * (admins only, checked here again).
 */
export const handler = createHandler('admin-cleanup-listings', ({ sql, body, userId }) =>
  adminCleanupListings(sql, body, userId),
);
