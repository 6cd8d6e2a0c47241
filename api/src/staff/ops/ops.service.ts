/**
 * Operators' work, called by `pnpm ops` (api/scripts/ops.ts) through the typed procedures:
 * the orders of a period for export (read-only), a new staff account, and granting or
 * withdrawing a staff role or a global-admin tier.
 */
import { randomBytes } from 'node:crypto';
import type { AdminPeriod, AdminTier } from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import { normaliseEmail } from '../../platform/identity/local.ts';
import type { IdentityProvider, LinkBuilder } from '../../platform/identity/port.ts';
import { assertMayActOn } from '../global-admin/tier-protection.ts';
import { type RoleGrant, type STAFF_GRANTS, TIER_GRANTS } from './roles.ts';

/** Orders in an export at most: a larger period is refused with a message, not truncated. */
export const ORDER_EXPORT_LIMIT = 50_000;

export async function periodBounds(db: Database, period: AdminPeriod) {
  const { rows } = await sql<{
    starts_at: Date;
    ends_at: Date;
  }>`select starts_at, ends_at from public.admin_period_bounds(${period}, now())`.execute(db);
  const bounds = rows[0];
  if (!bounds) throw new AppError('BAD_INPUT', 'Choose today, mtd, last30 or ytd');
  return bounds;
}

/** The books of these orders, first to last. */
async function itemRows(db: Database, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  return db
    .selectFrom('order_items as i')
    .innerJoin('listings as l', 'l.id', 'i.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .select([
      'i.order_id',
      'i.listing_id',
      'b.title',
      'b.isbn13',
      'i.price_minor',
      'i.bundle_discount_minor',
      'i.discount_minor',
      'i.protection_minor',
      'i.refunded_minor',
    ])
    .where('i.order_id', 'in', orderIds)
    .orderBy('i.order_id')
    .orderBy('i.position')
    .execute();
}

/**
 * The orders paid in a period (Europe/London, as the dashboard counts them), oldest first,
 * with their amounts in pence. Names of the people are not included: ids only.
 */
export async function exportOrders(db: Database, period: AdminPeriod) {
  const bounds = await periodBounds(db, period);
  const rows = await db
    .selectFrom('orders as o')
    .innerJoin('order_items as first_item', (join) =>
      join.onRef('first_item.order_id', '=', 'o.id').on('first_item.position', '=', 1),
    )
    .innerJoin('listings as l', 'l.id', 'first_item.listing_id')
    .innerJoin('books as b', 'b.id', 'l.book_id')
    .leftJoin('charities as c', 'c.id', 'l.charity_id')
    .select([
      'o.id',
      'o.reference',
      'o.status',
      'o.created_at',
      'o.paid_at',
      'o.dispatched_at',
      'o.delivered_at',
      'o.completed_at',
      'o.cancelled_at',
      'o.refunded_at',
      'b.title',
      'b.isbn13',
      'o.seller_id',
      'o.buyer_id',
      'c.name as charity_name',
      'o.item_price_minor',
      'o.bundle_discount_minor',
      'o.postage_minor',
      'o.buyer_protection_minor',
      'o.discount_minor',
      'o.total_minor',
    ])
    .where('o.paid_at', '>=', bounds.starts_at)
    .where('o.paid_at', '<', bounds.ends_at)
    .orderBy('o.paid_at')
    .orderBy('o.reference')
    .limit(ORDER_EXPORT_LIMIT + 1)
    .execute();
  if (rows.length > ORDER_EXPORT_LIMIT) {
    throw new AppError(
      'BAD_INPUT',
      `More than ${ORDER_EXPORT_LIMIT.toLocaleString('en-GB')} orders were paid in this period: choose a shorter one.`,
    );
  }
  const iso = (value: Date | null) => value?.toISOString() ?? null;
  const items = new Map<string, Awaited<ReturnType<typeof itemRows>>>();
  for (const item of await itemRows(
    db,
    rows.map((row) => row.id),
  )) {
    items.set(item.order_id, [...(items.get(item.order_id) ?? []), item]);
  }
  return {
    period,
    from: bounds.starts_at.toISOString(),
    to: bounds.ends_at.toISOString(),
    orders: rows.map((row) => ({
      id: row.id,
      reference: row.reference,
      status: row.status,
      createdAt: row.created_at.toISOString(),
      paidAt: iso(row.paid_at),
      dispatchedAt: iso(row.dispatched_at),
      deliveredAt: iso(row.delivered_at),
      completedAt: iso(row.completed_at),
      cancelledAt: iso(row.cancelled_at),
      refundedAt: iso(row.refunded_at),
      title: row.title,
      isbn13: row.isbn13,
      sellerId: row.seller_id,
      buyerId: row.buyer_id,
      charity: row.charity_name,
      itemCount: items.get(row.id)?.length ?? 1,
      items: (items.get(row.id) ?? []).map((item) => ({
        listingId: item.listing_id,
        title: item.title,
        isbn13: item.isbn13,
        priceMinor: item.price_minor,
        bundleDiscountMinor: item.bundle_discount_minor,
        discountMinor: item.discount_minor,
        protectionMinor: item.protection_minor,
        refundedMinor: item.refunded_minor,
      })),
      itemMinor: row.item_price_minor,
      bundleDiscountMinor: row.bundle_discount_minor,
      postageMinor: row.postage_minor,
      protectionMinor: row.buyer_protection_minor,
      discountMinor: row.discount_minor,
      totalMinor: row.total_minor,
    })),
  };
}

async function accountByEmail(db: Database, email: string) {
  return db
    .selectFrom('auth.users')
    .select(['id', 'email'])
    .where(sql<string>`lower(email)`, '=', normaliseEmail(email))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

async function requireAccount(db: Database, email: string) {
  const account = await accountByEmail(db, email);
  if (!account) {
    throw new AppError(
      'NOT_FOUND',
      `No account has the email ${normaliseEmail(email)}. Create one with \`pnpm ops create-staff-user\`.`,
    );
  }
  return account;
}

function checkCanGrant(role: RoleGrant, actor: { tier: AdminTier; level: number }) {
  const isTier = (TIER_GRANTS as readonly string[]).includes(role);
  // Staff roles: ops admins and above. Global-admin tiers: super admins only.
  const needed = isTier ? 4 : 3;
  if (actor.level < needed) {
    throw new AppError(
      'FORBIDDEN',
      isTier
        ? 'Access denied: super_admin role required to grant or withdraw global-admin tiers'
        : 'Access denied: ops_admin role required to grant or withdraw staff roles',
    );
  }
  return isTier;
}

async function grant(
  db: Database | Transaction<DB>,
  userId: string,
  role: RoleGrant,
  isTier: boolean,
  actorId: string,
) {
  if (isTier) {
    await db
      .insertInto('admin_users')
      .values({ user_id: userId, admin_role: role, is_active: true, created_by: actorId })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ admin_role: role, is_active: true }))
      .execute();
    return;
  }
  await db
    .insertInto('user_roles')
    .values({ user_id: userId, role })
    .onConflict((oc) => oc.expression(sql`user_id, lower(role)`).doNothing())
    .execute();
}

type RoleActor = { userId: string; tier: AdminTier; level: number };
type RoleAccount = { id: string; email: string | null };

/**
 * A grant or withdrawal of a staff role or a global-admin tier: who may (checkCanGrant), the
 * account, the target's protection (assertMayActOn), then `apply` and its audit entry in one
 * transaction. `refuseSelfTier` refuses a tier change on the caller's own account up front.
 */
async function changeRole(
  db: Database,
  actor: RoleActor,
  input: { email: string; role: RoleGrant },
  change: {
    granted: boolean;
    /** How the refusal of a protected target names the tier change. */
    tierVerb: string;
    refuseSelfTier?: string;
    apply: (trx: Transaction<DB>, account: RoleAccount, isTier: boolean) => Promise<void>;
  },
) {
  const isTier = checkCanGrant(input.role, actor);
  const account = await requireAccount(db, input.email);
  if (change.refuseSelfTier && isTier && account.id === actor.userId) {
    throw new AppError('BAD_INPUT', change.refuseSelfTier);
  }
  const action = `${isTier ? 'tier' : 'role'}.${change.granted ? 'grant' : 'revoke'}`;
  await assertMayActOn(db, {
    actorId: actor.userId,
    target: account,
    action,
    verb: isTier ? change.tierVerb : 'change the roles of',
    details: { role: input.role },
  });
  await db.transaction().execute(async (trx) => {
    await change.apply(trx, account, isTier);
    await recordAudit(trx, {
      actorId: actor.userId,
      action,
      targetType: 'user',
      targetId: account.id,
      details: { email: account.email, role: input.role },
    });
  });
  return {
    userId: account.id,
    email: account.email ?? input.email,
    role: input.role,
    granted: change.granted,
  };
}

/** Grants a staff role (user_roles) or a global-admin tier (admin_users, one per person). */
export async function grantRole(db: Database, actor: RoleActor, input: { email: string; role: RoleGrant }) {
  const answer = await changeRole(db, actor, input, {
    granted: true,
    tierVerb: 'change the global-admin tier of',
    // A super admin demoting themselves could leave nobody able to grant tiers.
    refuseSelfTier: 'You cannot change your own global-admin tier: ask another super admin.',
    apply: (trx, account, isTier) => grant(trx, account.id, input.role, isTier, actor.userId),
  });
  return { ...answer, granted: true as const };
}

/** Withdraws a staff role, or deactivates a global-admin tier. Never the caller's own tier. */
export async function revokeRole(db: Database, actor: RoleActor, input: { email: string; role: RoleGrant }) {
  const answer = await changeRole(db, actor, input, {
    granted: false,
    tierVerb: 'withdraw the global-admin tier of',
    apply: withdraw,
  });
  return { ...answer, granted: false as const };

  async function withdraw(trx: Transaction<DB>, account: RoleAccount, isTier: boolean) {
    if (isTier) {
      if (account.id === actor.userId) {
        throw new AppError(
          'BAD_INPUT',
          'You cannot withdraw your own global-admin tier: ask another super admin.',
        );
      }
      const updated = await trx
        .updateTable('admin_users')
        .set({ is_active: false })
        .where('user_id', '=', account.id)
        .where('admin_role', '=', input.role)
        .where('is_active', '=', true)
        .returning('user_id')
        .executeTakeFirst();
      if (!updated) throw new AppError('NOT_FOUND', `${account.email} does not hold the ${input.role} tier.`);
    } else {
      const deleted = await trx
        .deleteFrom('user_roles')
        .where('user_id', '=', account.id)
        .where(sql<string>`lower(role)`, '=', input.role)
        .returning('id')
        .executeTakeFirst();
      if (!deleted) throw new AppError('NOT_FOUND', `${account.email} does not have the ${input.role} role.`);
    }
  }
}

/**
 * A new account with a staff role: created without a usable password, then sent the
 * password-reset email so the person chooses their own. An email already registered is
 * refused (give that account the role with grant-role instead).
 */
export async function createStaffUser(
  db: Database,
  identity: IdentityProvider,
  links: LinkBuilder,
  actor: { userId: string; tier: AdminTier; level: number },
  input: { email: string; displayName: string; role: (typeof STAFF_GRANTS)[number] },
) {
  checkCanGrant(input.role, actor);
  if (await accountByEmail(db, input.email)) {
    throw new AppError(
      'CONFLICT',
      `An account with the email ${normaliseEmail(input.email)} already exists. Give it the role with \`pnpm ops grant-role\`.`,
    );
  }
  const { id } = await identity.ensureUser({
    email: input.email,
    // Nobody knows this password: the person sets their own from the emailed link.
    password: randomBytes(32).toString('base64url'),
    displayName: input.displayName,
  });
  await db.transaction().execute(async (trx) => {
    await grant(trx, id, input.role, false, actor.userId);
    await recordAudit(trx, {
      actorId: actor.userId,
      action: 'staff.create',
      targetType: 'user',
      targetId: id,
      details: { email: normaliseEmail(input.email), role: input.role },
    });
  });
  await identity.requestPasswordReset(input.email, links);
  return {
    userId: id,
    email: normaliseEmail(input.email),
    role: input.role,
    passwordEmailSent: true as const,
  };
}

/** Arbitrary constant: "reshelf first admin". Two bootstraps at once take turns. */
const BOOTSTRAP_LOCK = 726_175_018;

/**
 * Who can administer already: an account, neither deleted nor banned, with the admin staff role
 * or an active global-admin tier. The first admin is made only while there is nobody.
 */
export async function activeAdmins(db: Database | Transaction<DB>): Promise<string[]> {
  const rows = await db
    .selectFrom('auth.users as u')
    .select('u.email')
    .where('u.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('u.banned_until', 'is', null), eb('u.banned_until', '<=', sql<Date>`now()`)]))
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('user_roles as r')
            .select('r.id')
            .whereRef('r.user_id', '=', 'u.id')
            .where(sql<string>`lower(r.role)`, '=', 'admin'),
        ),
        eb.exists(
          eb
            .selectFrom('admin_users as a')
            .select('a.user_id')
            .whereRef('a.user_id', '=', 'u.id')
            .where('a.is_active', '=', true),
        ),
      ]),
    )
    .orderBy('u.created_at')
    .execute();
  return rows.map((row) => row.email ?? '(no email)');
}

async function refuseWhenAdminsExist(trx: Transaction<DB>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`.execute(trx);
  const admins = await activeAdmins(trx);
  if (admins.length) {
    const shown = admins.slice(0, 3).join(', ') + (admins.length > 3 ? ` and ${admins.length - 3} more` : '');
    throw new AppError(
      'CONFLICT',
      `An active admin already exists (${shown}): bootstrap makes only the first one. Sign in as an admin and add staff with \`pnpm ops create-staff-user\` and \`pnpm ops grant-role\`.`,
    );
  }
}

/**
 * The first admin of a new site (`pnpm ops bootstrap`), by someone with the database and no
 * admin to ask: the account (made with the identity provider when missing, without a usable
 * password), the admin staff role and the super_admin tier, recorded in the audit log as done
 * by the account itself on the operator's behalf. Refused while any active admin exists.
 */
export async function bootstrapFirstAdmin(
  db: Database,
  identity: IdentityProvider,
  input: { email: string; displayName: string; operator: string },
): Promise<{ userId: string; email: string; created: boolean }> {
  const email = normaliseEmail(input.email);
  await db.transaction().execute(refuseWhenAdminsExist);
  let account = await accountByEmail(db, email);
  const created = !account;
  if (!account) {
    const { id } = await identity.ensureUser({
      email,
      // Nobody knows this password: the person sets their own from the link.
      password: randomBytes(32).toString('base64url'),
      displayName: input.displayName,
    });
    account = { id, email };
  }
  const userId = account.id;
  await db.transaction().execute(async (trx) => {
    // Again, under the lock: another bootstrap may have finished meanwhile.
    await refuseWhenAdminsExist(trx);
    await grant(trx, userId, 'admin', false, userId);
    await grant(trx, userId, 'super_admin', true, userId);
    await recordAudit(trx, {
      actorId: userId,
      actorEmail: email,
      action: 'admin.bootstrap',
      targetType: 'user',
      targetId: userId,
      details: { email, role: 'admin', tier: 'super_admin', accountCreated: created, by: input.operator },
    });
  });
  return { userId, email, created };
}
