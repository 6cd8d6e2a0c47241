/**
 * Personal API tokens: `rsk_` and 40 random base64url characters (240 bits). Only the
 * HMAC-SHA256 of the token under the "api-token" key (derived from APP_SECRET) is stored, so
 * the table alone cannot be used to call the API. Every request looks its token up, so a
 * revoked or expired token stops working on the next request.
 */
import { randomBytes } from 'node:crypto';
import {
  API_TOKEN_MAX_LIVE,
  API_TOKEN_NOT_ELIGIBLE_MESSAGE,
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenHolderKind,
  type ApiTokenScope,
  hasStaffRole,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { Secrets } from '../../secrets.ts';

/** Last-used times are written at most this often per token (one row write, not one per call). */
export const LAST_USED_RESOLUTION_SECONDS = 60;

export function looksLikeApiToken(value: string): boolean {
  return value.startsWith(API_TOKEN_PREFIX);
}

export function hashApiToken(secrets: Secrets, token: string): string {
  return secrets.sign('api-token', token);
}

function newToken(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(30).toString('base64url')}`;
}

interface TokenRow {
  id: string;
  name: string;
  token_prefix: string;
  scope: string;
  created_at: Date;
  expires_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const TOKEN_COLUMNS = [
  'id',
  'name',
  'token_prefix',
  'scope',
  'created_at',
  'expires_at',
  'last_used_at',
  'revoked_at',
] as const;

function toApiToken(row: TokenRow, now = new Date()): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.token_prefix,
    scope: row.scope as ApiTokenScope,
    status: row.revoked_at ? 'revoked' : row.expires_at <= now ? 'expired' : 'active',
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

/**
 * Who may hold tokens: staff (a user_roles admin/moderator row, or an active global-admin
 * record), sellers (anyone who has published a listing) and charities (the owner of an
 * approved charity). The answer lists every kind that applies.
 */
export async function holderKinds(db: Database, userId: string): Promise<ApiTokenHolderKind[]> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('user_roles')
        .select((inner) => inner.fn.agg<string[]>('array_agg', ['role']).as('roles'))
        .where('user_id', '=', userId)
        .as('roles'),
      eb
        .exists(
          eb
            .selectFrom('admin_users')
            .select('user_id')
            .where('user_id', '=', userId)
            .where('is_active', '=', true),
        )
        .as('admin'),
      eb
        .exists(
          eb
            .selectFrom('listings')
            .select('id')
            .where('seller_id', '=', userId)
            .where('status', '<>', 'draft'),
        )
        .as('seller'),
      eb
        .exists(
          eb
            .selectFrom('charities')
            .select('id')
            .where('owner_id', '=', userId)
            .where('status', '=', 'approved'),
        )
        .as('charity'),
    ])
    .executeTakeFirstOrThrow();
  const kinds: ApiTokenHolderKind[] = [];
  if (row.admin || hasStaffRole(row.roles ?? [])) kinds.push('staff');
  if (row.seller) kinds.push('seller');
  if (row.charity) kinds.push('charity');
  return kinds;
}

export async function listApiTokens(db: Database, userId: string) {
  const [kinds, rows] = await Promise.all([
    holderKinds(db, userId),
    db
      .selectFrom('api_tokens')
      .select(TOKEN_COLUMNS)
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute(),
  ]);
  const now = new Date();
  return { eligible: kinds.length > 0, holderKinds: kinds, tokens: rows.map((row) => toApiToken(row, now)) };
}

export async function createApiToken(
  db: Database,
  secrets: Secrets,
  userId: string,
  input: { name: string; scope: ApiTokenScope; expiresInDays: number },
) {
  return db.transaction().execute(async (trx) => {
    // One person's token creations take turns, so the live-token limit holds.
    await sql`select pg_advisory_xact_lock(hashtext('api_tokens'), hashtext(${userId}))`.execute(trx);
    if ((await holderKinds(trx, userId)).length === 0) {
      throw new AppError('FORBIDDEN', API_TOKEN_NOT_ELIGIBLE_MESSAGE);
    }
    const live = await trx
      .selectFrom('api_tokens')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .executeTakeFirstOrThrow();
    if (Number(live.count) >= API_TOKEN_MAX_LIVE) {
      throw new AppError(
        'CONFLICT',
        `You already have ${API_TOKEN_MAX_LIVE} active tokens. Revoke one you no longer use, then create a new one.`,
      );
    }
    const token = newToken();
    const row = await trx
      .insertInto('api_tokens')
      .values({
        user_id: userId,
        name: input.name,
        token_hash: hashApiToken(secrets, token),
        token_prefix: token.slice(0, API_TOKEN_PREFIX.length + 8),
        scope: input.scope,
        expires_at: sql<Date>`now() + make_interval(days => ${input.expiresInDays})`,
      })
      .returning(TOKEN_COLUMNS)
      .executeTakeFirstOrThrow();
    return { ...toApiToken(row), token };
  });
}

/** Revokes one of the caller's tokens; revoking it again changes nothing. */
export async function revokeApiToken(db: Database, userId: string, tokenId: string) {
  const row = await db
    .updateTable('api_tokens')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .returning(TOKEN_COLUMNS)
    .executeTakeFirst();
  if (!row) {
    throw new AppError(
      'NOT_FOUND',
      'We could not find that token among yours. Reload the list and try again.',
    );
  }
  return toApiToken(row);
}

export type ApiTokenCheck =
  | {
      ok: true;
      tokenId: string;
      scope: ApiTokenScope;
      userId: string;
      email: string;
      expiresAt: Date;
    }
  | { ok: false; reason: 'unknown' | 'revoked' | 'expired' | 'banned' };

/** Looks a presented token up and records its use (at most once a minute). */
export async function checkApiToken(db: Database, secrets: Secrets, token: string): Promise<ApiTokenCheck> {
  const row = await db
    .selectFrom('api_tokens as t')
    .innerJoin('auth.users as u', 'u.id', 't.user_id')
    .select([
      't.id',
      't.user_id',
      't.scope',
      't.expires_at',
      't.revoked_at',
      't.last_used_at',
      'u.email',
      'u.banned_until',
      'u.deleted_at',
      sql<Date>`now()`.as('now'),
    ])
    .where('t.token_hash', '=', hashApiToken(secrets, token))
    .executeTakeFirst();
  if (!row || row.deleted_at) return { ok: false, reason: 'unknown' };
  if (row.revoked_at) return { ok: false, reason: 'revoked' };
  if (row.expires_at <= row.now) return { ok: false, reason: 'expired' };
  if (row.banned_until && row.banned_until > row.now) return { ok: false, reason: 'banned' };
  if (
    !row.last_used_at ||
    row.now.getTime() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_SECONDS * 1000
  ) {
    await db
      .updateTable('api_tokens')
      .set({ last_used_at: sql<Date>`now()` })
      .where('id', '=', row.id)
      .where((eb) =>
        eb.or([
          eb('last_used_at', 'is', null),
          eb('last_used_at', '<', sql<Date>`now() - make_interval(secs => ${LAST_USED_RESOLUTION_SECONDS})`),
        ]),
      )
      .execute();
  }
  return {
    ok: true,
    tokenId: row.id,
    scope: row.scope as ApiTokenScope,
    userId: row.user_id,
    email: row.email ?? '',
    expiresAt: row.expires_at,
  };
}

export const API_TOKEN_REJECTIONS: Record<Exclude<ApiTokenCheck, { ok: true }>['reason'], string> = {
  unknown: 'This API token is not valid. Check it was copied whole, or create a new one in Account settings.',
  revoked: 'This API token has been revoked. Create a new one in Account settings.',
  expired: 'This API token has expired. Create a new one in Account settings.',
  banned: 'This account is suspended, so its API tokens do not work.',
};
