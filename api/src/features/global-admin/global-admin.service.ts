import type { Database } from '../../db/index.ts';

export async function listAdminUsers(db: Database) {
  const rows = await db
    .selectFrom('admin_users as a')
    .innerJoin('auth.users as u', 'u.id', 'a.user_id')
    .leftJoin('profiles as p', 'p.id', 'a.user_id')
    .select(['a.user_id', 'a.admin_role', 'a.is_active', 'a.created_at', 'u.email', 'p.display_name'])
    .orderBy('a.is_active', 'desc')
    .orderBy('a.admin_role')
    .orderBy('u.email')
    .execute();
  return rows.map((row) => ({
    userId: row.user_id,
    email: row.email ?? '',
    displayName: row.display_name ?? '',
    tier: row.admin_role,
    isActive: row.is_active,
    since: row.created_at.toISOString(),
  }));
}
