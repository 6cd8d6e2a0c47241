/**
 * Who acts for what, beyond the roles and tiers of http/access.ts: a member's charity (one at
 * most) and their part in it, and who the site's admins are. Every domain that lets a charity act
 * (selling, commerce's returns, the charity area itself) asks here, so the answer and its
 * refusals are the same wherever the question comes up.
 */
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';

export interface CharityMembership {
  charityId: string;
  name: string;
  slug: string;
  status: 'pending' | 'approved' | 'rejected';
  role: 'owner' | 'staff';
}

export const CHARITY_MESSAGES = {
  notMember:
    'This is for charities on Reshelf. Apply to sell as a charity first, or ask your charity’s owner to invite you.',
  notApproved:
    'Your charity is waiting for approval: you can list books once our team has approved it (usually within two working days).',
  rejected: 'Your charity’s application was not approved. You can apply again with corrected details.',
  ownerOnly: 'Only the charity’s owner can do this.',
} as const;

/** The caller's charity, or null when they belong to none. */
export async function membershipOf(db: Database, userId: string): Promise<CharityMembership | null> {
  const row = await db
    .selectFrom('charity_members as m')
    .innerJoin('charities as c', 'c.id', 'm.charity_id')
    .select(['c.id', 'c.name', 'c.slug', 'c.status', 'm.role'])
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    charityId: row.id,
    name: row.name,
    slug: row.slug,
    status: row.status as CharityMembership['status'],
    role: row.role as CharityMembership['role'],
  };
}

/**
 * The caller's charity for an action: refused (403) when they belong to none, when it must be
 * approved and is not, or when only the owner may act.
 */
export async function requireCharity(
  db: Database,
  userId: string,
  need: { approved?: boolean; owner?: boolean } = {},
): Promise<CharityMembership> {
  const membership = await membershipOf(db, userId);
  if (!membership) throw new AppError('FORBIDDEN', CHARITY_MESSAGES.notMember);
  if (need.approved && membership.status !== 'approved') {
    throw new AppError(
      'FORBIDDEN',
      membership.status === 'rejected' ? CHARITY_MESSAGES.rejected : CHARITY_MESSAGES.notApproved,
      { status: membership.status },
    );
  }
  if (need.owner && membership.role !== 'owner') throw new AppError('FORBIDDEN', CHARITY_MESSAGES.ownerOnly);
  return membership;
}

/**
 * The people staff notices go to: every account with the admin role (compared lower-cased, as
 * the staff check does) that has an email address and is neither suspended nor deleted.
 */
export async function activeAdmins(db: Database): Promise<{ id: string; email: string }[]> {
  const rows = await db
    .selectFrom('auth.users as u')
    .innerJoin('user_roles as r', 'r.user_id', 'u.id')
    .select(['u.id', 'u.email'])
    .where(sql<boolean>`lower(trim(r.role)) = 'admin'`)
    .where('u.email', 'is not', null)
    .where('u.deleted_at', 'is', null)
    .where(sql<boolean>`coalesce(u.banned_until <= now(), true)`)
    .distinct()
    .orderBy('u.email')
    .execute();
  return rows.map((row) => ({ id: row.id, email: row.email! }));
}
