/**
 * People, for staff (/admin/users, admins only): search by email or name, view one, suspend
 * and unsuspend, grant and revoke the moderator role. Every change is audited in its own
 * transaction.
 *
 * A suspension is `auth.users.banned_until` set far in the future, the column both identity
 * providers already refuse at sign-in and on refresh; the request's auth resolution also checks
 * it (platform/identity/resolve-auth.ts), so an existing session stops on the next request.
 *
 * Nobody acts on an account whose global-admin tier is above their own (a staff admin without
 * a tier has none): staff/global-admin/tier-protection.ts, refusals audited.
 */
import type { BusinessSeller, TraderStatus } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { escapeLike } from '../../db/search.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import { traderStatus } from '../../selling/index.ts';
import { assertMayActOn } from '../global-admin/tier-protection.ts';

/** Suspended "until further notice": the year 9999, which every client parses. */
const SUSPENDED_UNTIL = new Date('9999-12-31T00:00:00Z');

export interface UserSummary {
  id: string;
  email: string;
  displayName: string | null;
  roles: string[];
  suspended: boolean;
  createdAt: string;
}

export interface UserOrder {
  id: string;
  reference: string;
  side: 'bought' | 'sold';
  status: string;
  totalMinor: number;
  createdAt: string;
}

export interface UserDetail extends UserSummary {
  emailConfirmed: boolean;
  /** Whether they sell as a business, privately, or have not said; a business seller's details. */
  trades: TraderStatus['answer'];
  business: BusinessSeller | null;
  listings: { total: number; active: number };
  orders: { bought: number; sold: number; recent: UserOrder[] };
}

function baseQuery(db: Database) {
  return db
    .selectFrom('auth.users as u')
    .leftJoin('profiles as p', 'p.id', 'u.id')
    .select([
      'u.id',
      'u.email',
      'u.created_at',
      'u.email_confirmed_at',
      'p.display_name',
      sql<boolean>`coalesce(u.banned_until > now(), false)`.as('suspended'),
      sql<
        string[]
      >`coalesce((select array_agg(lower(r.role) order by lower(r.role)) from public.user_roles r where r.user_id = u.id), '{}')`.as(
        'roles',
      ),
    ]);
}

type BaseRow = Awaited<ReturnType<ReturnType<typeof baseQuery>['executeTakeFirstOrThrow']>>;

function toSummary(row: BaseRow): UserSummary {
  return {
    id: row.id,
    email: row.email ?? '',
    displayName: row.display_name ?? null,
    roles: row.roles,
    suspended: row.suspended,
    createdAt: row.created_at.toISOString(),
  };
}

export async function searchUsers(
  db: Database,
  filter: { q?: string; limit: number },
): Promise<UserSummary[]> {
  let query = baseQuery(db);
  if (filter.q) {
    const pattern = `%${escapeLike(filter.q)}%`;
    query = query.where((eb) =>
      eb.or([eb('u.email', 'ilike', pattern), eb('p.display_name', 'ilike', pattern)]),
    );
  }
  const rows = await query.orderBy('u.created_at', 'desc').orderBy('u.id').limit(filter.limit).execute();
  return rows.map(toSummary);
}

export async function getUser(db: Database, userId: string): Promise<UserDetail> {
  const row = await baseQuery(db).where('u.id', '=', userId).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', 'There is no such person. Search again.');
  const listings = await db
    .selectFrom('listings')
    .select([
      sql<number>`count(*)::int`.as('total'),
      sql<number>`(count(*) filter (where status = 'active'))::int`.as('active'),
    ])
    .where('seller_id', '=', userId)
    .executeTakeFirstOrThrow();
  const counts = await db
    .selectFrom('orders')
    .select([
      sql<number>`(count(*) filter (where buyer_id = ${userId}))::int`.as('bought'),
      sql<number>`(count(*) filter (where seller_id = ${userId}))::int`.as('sold'),
    ])
    .where((eb) => eb.or([eb('buyer_id', '=', userId), eb('seller_id', '=', userId)]))
    .executeTakeFirstOrThrow();
  const recent = await db
    .selectFrom('orders')
    .select(['id', 'reference', 'status', 'total_minor', 'created_at', 'buyer_id'])
    .where((eb) => eb.or([eb('buyer_id', '=', userId), eb('seller_id', '=', userId)]))
    .orderBy('created_at', 'desc')
    .limit(10)
    .execute();
  const trader = await traderStatus(db, userId);
  return {
    ...toSummary(row),
    emailConfirmed: Boolean(row.email_confirmed_at),
    trades: trader.answer,
    business: trader.business,
    listings,
    orders: {
      bought: counts.bought,
      sold: counts.sold,
      recent: recent.map((order) => ({
        id: order.id,
        reference: order.reference,
        side: order.buyer_id === userId ? 'bought' : 'sold',
        status: order.status,
        totalMinor: order.total_minor,
        createdAt: order.created_at.toISOString(),
      })),
    },
  };
}

async function requirePerson(db: Database, userId: string): Promise<{ id: string; email: string | null }> {
  const person = await db
    .selectFrom('auth.users')
    .select(['id', 'email'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!person) throw new AppError('NOT_FOUND', 'There is no such person. Search again.');
  return person;
}

export async function setSuspended(
  db: Database,
  staffId: string,
  input: { userId: string; suspended: boolean; reason: string },
): Promise<UserDetail> {
  if (input.userId === staffId) {
    throw new AppError('BAD_INPUT', "You can't suspend or unsuspend your own account. Ask another admin.");
  }
  await assertMayActOn(db, {
    actorId: staffId,
    target: await requirePerson(db, input.userId),
    action: input.suspended ? 'user.suspend' : 'user.unsuspend',
    verb: input.suspended ? 'suspend' : 'restore',
    details: { reason: input.reason },
  });
  await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('auth.users')
      .select(['id', 'email', sql<boolean>`coalesce(banned_until > now(), false)`.as('suspended')])
      .where('id', '=', input.userId)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw new AppError('NOT_FOUND', 'There is no such person. Search again.');
    if (before.suspended === input.suspended) {
      throw new AppError(
        'CONFLICT',
        input.suspended
          ? `${before.email} is already suspended. Refresh the page.`
          : `${before.email} is not suspended. Refresh the page.`,
      );
    }
    await trx
      .updateTable('auth.users')
      .set({ banned_until: input.suspended ? SUSPENDED_UNTIL : null })
      .where('id', '=', input.userId)
      .execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: input.suspended ? 'user.suspend' : 'user.unsuspend',
      targetType: 'user',
      targetId: input.userId,
      details: { email: before.email, reason: input.reason },
    });
  });
  return getUser(db, input.userId);
}

export async function setModerator(
  db: Database,
  staffId: string,
  input: { userId: string; moderator: boolean },
): Promise<UserDetail> {
  await assertMayActOn(db, {
    actorId: staffId,
    target: await requirePerson(db, input.userId),
    action: input.moderator ? 'user.grant_moderator' : 'user.revoke_moderator',
    verb: input.moderator ? 'give the moderator role to' : 'take the moderator role from',
  });
  await db.transaction().execute(async (trx) => {
    const person = await trx
      .selectFrom('auth.users')
      .select(['id', 'email'])
      .where('id', '=', input.userId)
      .forUpdate()
      .executeTakeFirst();
    if (!person) throw new AppError('NOT_FOUND', 'There is no such person. Search again.');
    if (input.moderator) {
      const added = await trx
        .insertInto('user_roles')
        .values({ user_id: input.userId, role: 'moderator' })
        .onConflict((oc) => oc.expression(sql`user_id, lower(role)`).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!added) throw new AppError('CONFLICT', `${person.email} is already a moderator. Refresh the page.`);
    } else {
      const removed = await trx
        .deleteFrom('user_roles')
        .where('user_id', '=', input.userId)
        .where(sql<string>`lower(trim(role))`, '=', 'moderator')
        .returning('id')
        .executeTakeFirst();
      if (!removed) throw new AppError('CONFLICT', `${person.email} is not a moderator. Refresh the page.`);
    }
    await recordAudit(trx, {
      actorId: staffId,
      action: input.moderator ? 'user.grant_moderator' : 'user.revoke_moderator',
      targetType: 'user',
      targetId: input.userId,
      details: { email: person.email },
    });
  });
  return getUser(db, input.userId);
}
