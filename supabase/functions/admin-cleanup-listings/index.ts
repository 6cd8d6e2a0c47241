import { adminCleanupListings } from '../_shared/admin.ts';
import { createHandler } from '../_shared/handler.ts';

export const handler = createHandler('admin-cleanup-listings', ({ sql }) => adminCleanupListings(sql));

if (import.meta.main) Deno.serve(handler);
