/**
 * Follows (decision 0044): a member follows a seller, a charity, an author or a
 * genre. Following is idempotent (the button says what it should be, not "flip"). Sellers,
 * charities and genres are followed by id, so the follow goes with them; an author by name,
 * compared lower-cased and without accents (the generated `author_key`).
 */
import {
  type Follow,
  type FollowStatus,
  type FollowTarget,
  type MyFollows,
  SOCIAL_LIMITS,
} from '@reshelf/contracts';
import { type ExpressionBuilder, sql } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';

/** A target as the columns of a follows row. */
interface ResolvedTarget {
  kind: FollowTarget['kind'];
  seller_id: string | null;
  charity_id: string | null;
  genre_id: string | null;
  author_name: string | null;
}

/** The ids behind a target, or a clear NOT_FOUND. */
export async function resolveTarget(db: Database, target: FollowTarget): Promise<ResolvedTarget> {
  const none = { seller_id: null, charity_id: null, genre_id: null, author_name: null };
  switch (target.kind) {
    case 'seller': {
      const seller = await db
        .selectFrom('profiles')
        .select('id')
        .where('id', '=', target.sellerId)
        .executeTakeFirst();
      if (!seller) {
        throw new AppError('NOT_FOUND', 'We couldn’t find that seller. They may have left Reshelf.');
      }
      return { ...none, kind: 'seller', seller_id: seller.id };
    }
    case 'charity': {
      const charity = await db
        .selectFrom('charities')
        .select('id')
        .where('slug', '=', target.charitySlug)
        .where('status', '=', 'approved')
        .executeTakeFirst();
      if (!charity) {
        throw new AppError('NOT_FOUND', `There is no charity called “${target.charitySlug}” on Reshelf.`);
      }
      return { ...none, kind: 'charity', charity_id: charity.id };
    }
    case 'genre': {
      const genre = await db
        .selectFrom('genres')
        .select('id')
        .where('slug', '=', target.genreSlug)
        .executeTakeFirst();
      if (!genre) throw new AppError('NOT_FOUND', `There is no genre called “${target.genreSlug}”.`);
      return { ...none, kind: 'genre', genre_id: genre.id };
    }
    case 'author':
      return { ...none, kind: 'author', author_name: target.author };
  }
}

/** The follows rows of a target: its kind and whichever of its keys it has. */
function ofTarget(target: ResolvedTarget) {
  return (eb: ExpressionBuilder<DB, 'follows'>) =>
    eb.and([
      eb('kind', '=', target.kind),
      ...(target.seller_id ? [eb('seller_id', '=', target.seller_id)] : []),
      ...(target.charity_id ? [eb('charity_id', '=', target.charity_id)] : []),
      ...(target.genre_id ? [eb('genre_id', '=', target.genre_id)] : []),
      ...(target.author_name
        ? [eb('author_key', '=', sql<string>`public.search_normalise(btrim(${target.author_name}::text))`)]
        : []),
    ]);
}

/** The follows row of a member for a target, if any. */
async function existing(db: Database, userId: string, target: ResolvedTarget) {
  return db
    .selectFrom('follows')
    .select('id')
    .where('follower_id', '=', userId)
    .where(ofTarget(target))
    .executeTakeFirst();
}

/** How many members follow a target. */
async function followerCount(db: Database, target: ResolvedTarget): Promise<number> {
  const { count } = await db
    .selectFrom('follows')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(ofTarget(target))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * Whether the member follows a target, and how many do: one statement after the target is
 * known (a page of follow buttons asks for many at once, in one batch).
 */
export async function followStatus(
  db: Database,
  userId: string,
  target: FollowTarget,
): Promise<FollowStatus> {
  const resolved = await resolveTarget(db, target);
  const { rows } = await sql<{ following: boolean; followers: number }>`
    select coalesce(bool_or(f.follower_id = ${userId}), false) as following, count(*)::int as followers
    from public.follows f
    where f.kind = ${resolved.kind}
      and (f.seller_id = ${resolved.seller_id} or f.charity_id = ${resolved.charity_id}
        or f.genre_id = ${resolved.genre_id}
        or f.author_key = public.search_normalise(btrim(${resolved.author_name}::text)))`.execute(db);
  const row = rows[0];
  return { following: row?.following ?? false, followers: row?.followers ?? 0 };
}

/** Follows or stops following; answers the new status. */
export async function setFollow(
  db: Database,
  userId: string,
  target: FollowTarget,
  following: boolean,
): Promise<FollowStatus> {
  const resolved = await resolveTarget(db, target);
  if (resolved.seller_id === userId) {
    throw new AppError('BAD_INPUT', 'This is you: you can’t follow yourself.');
  }
  await db.transaction().execute(async (trx) => {
    // One member's follows are counted and added one at a time (two taps cannot pass the cap).
    await sql`select pg_advisory_xact_lock(hashtext('follows'), hashtext(${userId}))`.execute(trx);
    const row = await existing(trx, userId, resolved);
    if (!following) {
      if (row) await trx.deleteFrom('follows').where('id', '=', row.id).execute();
      return;
    }
    if (row) return;
    const { count } = await trx
      .selectFrom('follows')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('follower_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= SOCIAL_LIMITS.maxFollows) {
      throw new AppError(
        'BAD_INPUT',
        `You follow ${SOCIAL_LIMITS.maxFollows} things already. Stop following one to follow another.`,
      );
    }
    await trx
      .insertInto('follows')
      .values({ follower_id: userId, ...resolved })
      .execute();
  });
  return { following, followers: await followerCount(db, resolved) };
}

/** Stops following by the follow's id (the account's list); only one's own. */
export async function removeFollow(db: Database, userId: string, followId: string): Promise<void> {
  const removed = await db
    .deleteFrom('follows')
    .where('id', '=', followId)
    .where('follower_id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  if (!removed) throw new AppError('NOT_FOUND', 'You don’t follow that (any more).');
}

interface FollowRow {
  id: string;
  kind: Follow['kind'];
  created_at: Date;
  seller_id: string | null;
  seller_name: string | null;
  seller_charity_slug: string | null;
  charity_slug: string | null;
  charity_name: string | null;
  genre_slug: string | null;
  genre_name: string | null;
  author_name: string | null;
}

function toFollow(row: FollowRow): Follow {
  const base = { id: row.id, kind: row.kind, createdAt: row.created_at.toISOString() };
  switch (row.kind) {
    case 'seller':
      return {
        ...base,
        label: row.seller_name ?? 'A Reshelf seller',
        href: row.seller_charity_slug ? `/charity/${row.seller_charity_slug}` : `/seller/${row.seller_id}`,
      };
    case 'charity':
      return { ...base, label: row.charity_name ?? 'A charity', href: `/charity/${row.charity_slug}` };
    case 'genre':
      return { ...base, label: row.genre_name ?? 'A genre', href: `/g/${row.genre_slug}` };
    case 'author':
      return {
        ...base,
        label: row.author_name ?? 'An author',
        href: `/search?${new URLSearchParams({ author: row.author_name ?? '' }).toString()}`,
      };
  }
}

/** Everything the member follows (newest first), and how many follow them as a seller. */
export async function myFollows(db: Database, userId: string): Promise<MyFollows> {
  const { rows } = await sql<FollowRow>`
    select f.id, f.kind, f.created_at, f.seller_id,
      coalesce(sc.name, p.display_name) as seller_name, sc.slug as seller_charity_slug,
      ch.slug as charity_slug, ch.name as charity_name,
      g.slug as genre_slug, g.name as genre_name, f.author_name
    from public.follows f
    left join public.profiles p on p.id = f.seller_id
    left join lateral (
      select c.slug, c.name from public.charities c
      where c.owner_id = f.seller_id and c.status = 'approved' order by c.created_at limit 1
    ) sc on f.seller_id is not null
    left join public.charities ch on ch.id = f.charity_id
    left join public.genres g on g.id = f.genre_id
    where f.follower_id = ${userId}
    order by f.created_at desc, f.id desc
    limit ${SOCIAL_LIMITS.maxFollows}`.execute(db);
  const { count } = await db
    .selectFrom('follows')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('kind', '=', 'seller')
    .where('seller_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { follows: rows.map(toFollow), followers: Number(count) };
}
