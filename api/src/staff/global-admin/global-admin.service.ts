import type { AdminTier } from '@reshelf/contracts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { grantRole, revokeRole } from '../ops/ops.service.ts';

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

type Actor = { userId: string; tier: AdminTier; level: number };

/**
 * Grants a tier to an account, changes an existing record's tier, or reactivates a record
 * (super admins; the same rules and audit as `pnpm ops grant-role`).
 */
export function setAdminTier(db: Database, actor: Actor, input: { email: string; tier: AdminTier }) {
  return grantRole(db, actor, { email: input.email, role: input.tier });
}

/** Deactivates an active admin record: it stays listed, and no longer grants access. */
export async function deactivateAdmin(db: Database, actor: Actor, input: { userId: string }) {
  const record = await db
    .selectFrom('admin_users as a')
    .innerJoin('auth.users as u', 'u.id', 'a.user_id')
    .select(['a.admin_role', 'a.is_active', 'u.email'])
    .where('a.user_id', '=', input.userId)
    .executeTakeFirst();
  if (!record?.email) throw new AppError('NOT_FOUND', 'No admin record for this person.');
  if (!record.is_active) throw new AppError('CONFLICT', `${record.email} is already inactive.`);
  return revokeRole(db, actor, { email: record.email, role: record.admin_role as AdminTier });
}
