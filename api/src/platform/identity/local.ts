/**
 * The local identity provider (embedded backend): accounts in auth.users with argon2id password
 * hashes made off the event loop (passwords.ts; older bcrypt hashes are checked and replaced at
 * the next correct sign-in: decision 0057), HS256 access tokens carrying
 * Supabase's claims, opaque refresh tokens that rotate on every use with reuse detection,
 * and single-use emailed tokens for confirmation and password reset.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { withNext } from '@reshelf/contracts';
import { type JWTPayload, jwtVerify, SignJWT } from 'jose';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import type { Secrets } from '../../secrets.ts';
import type { Mailer } from '../mail/mailer.ts';
import { renderEmail } from '../mail/render.ts';
import { checkPassword, type HashingParameters, hashPassword, OWASP_ARGON2ID } from './passwords.ts';
import {
  IdentityError,
  type IdentityProvider,
  type IdentityUser,
  type LinkBuilder,
  type RequestInfo,
  type Session,
} from './port.ts';

export interface LocalIdentityOptions {
  db: Database;
  secrets: Secrets;
  mailer: Mailer;
  accessTokenTtlSeconds?: number;
  sessionTtlSeconds?: number;
  /** A refresh token used again within this many seconds of its rotation is a concurrent
   * request (two tabs refreshing at once), not theft. */
  reuseIntervalSeconds?: number;
  /** argon2id's parameters for new hashes (OWASP's by default; the bench's members use cheaper
   * ones to save time, and those are replaced at a sign-in like any outdated hash). */
  passwordHashing?: HashingParameters;
  /** The HS256 key for access tokens; derived from the app secret when not given. A
   * hosted-style setup passes Supabase's JWT secret here so Edge Functions can verify. */
  jwtKey?: Uint8Array;
}

const ISSUER = 'reshelf/auth/v1';
const AUDIENCE = 'authenticated';
const CONFIRMATION_TTL_SECONDS = 24 * 60 * 60;
const RECOVERY_TTL_SECONDS = 60 * 60;
/** What verify uses of a checked access token's claims. */
interface CheckedToken {
  sub?: string | undefined;
  exp?: number | undefined;
  email?: unknown;
  session_id?: unknown;
}

/** Checked access tokens remembered per process (about 1 KiB each); forgotten all at once when full. */
const SIGNED_TOKENS_KEPT = 20_000;

function opaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The address a closed account keeps: unique, and never deliverable (.invalid, RFC 2606). */
export function closedEmail(userId: string): string {
  return `closed+${userId}@invalid`;
}

/** The name a closed account is shown under. */
export const CLOSED_DISPLAY_NAME = 'Former member';

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The link with its token first, then whatever the link already carried (such as `next`). */
function withToken(url: string, token: string): string {
  const target = new URL(url);
  const rest = [...target.searchParams].filter(([name]) => name !== 'token');
  target.search = new URLSearchParams([['token', token], ...rest]).toString();
  return target.toString();
}

interface UserRow {
  id: string;
  email: string | null;
  email_confirmed_at: Date | null;
  created_at: Date;
  encrypted_password: string | null;
  banned_until: Date | null;
  raw_user_meta_data: unknown;
}

function toIdentityUser(
  row: Pick<UserRow, 'id' | 'email' | 'email_confirmed_at' | 'created_at'>,
): IdentityUser {
  return {
    id: row.id,
    email: row.email ?? '',
    emailConfirmed: row.email_confirmed_at !== null,
    createdAt: row.created_at.toISOString(),
  };
}

export function createLocalIdentity(options: LocalIdentityOptions): IdentityProvider {
  const { db, secrets, mailer } = options;
  const accessTtl = options.accessTokenTtlSeconds ?? 15 * 60;
  const sessionTtl = options.sessionTtlSeconds ?? 30 * 24 * 60 * 60;
  const reuseInterval = options.reuseIntervalSeconds ?? 10;
  const hashing = options.passwordHashing ?? OWASP_ARGON2ID;
  const hash = (password: string) => hashPassword(password, hashing);
  const jwtKey = options.jwtKey ?? secrets.key('jwt');
  // Access tokens whose signature and claims jose has checked, until they expire: a signed-in
  // person sends the same token on every request for its hour, and checking the HMAC again
  // (through WebCrypto) was about a tenth of the BFF's CPU on a signed-in read (docs/
  // performance.md). Whether its session is still live is asked on every request as before.
  const signedTokens = new Map<string, CheckedToken>();

  async function findByEmail(email: string): Promise<UserRow | undefined> {
    return db
      .selectFrom('auth.users')
      .select([
        'id',
        'email',
        'email_confirmed_at',
        'created_at',
        'encrypted_password',
        'banned_until',
        'raw_user_meta_data',
      ])
      .where(sql<string>`lower(email)`, '=', normaliseEmail(email))
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  async function issueAccessToken(
    user: IdentityUser,
    sessionId: string,
    displayName: string,
  ): Promise<{ token: string; expiresAt: number }> {
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = now + accessTtl;
    const token = await new SignJWT({
      email: user.email,
      role: 'authenticated',
      aal: 'aal1',
      session_id: sessionId,
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { display_name: displayName },
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(expiresAt)
      // Each token its own, even two issued in the same second for the same session.
      .setJti(randomUUID())
      .sign(jwtKey);
    return { token, expiresAt };
  }

  async function displayNameOf(userId: string): Promise<string> {
    const profile = await db
      .selectFrom('profiles')
      .select('display_name')
      .where('id', '=', userId)
      .executeTakeFirst();
    return profile?.display_name ?? '';
  }

  async function sessionFor(user: IdentityUser, sessionId: string, refreshToken: string): Promise<Session> {
    const { token, expiresAt } = await issueAccessToken(user, sessionId, await displayNameOf(user.id));
    return { accessToken: token, refreshToken, expiresAt, sessionId, user };
  }

  async function startSession(user: IdentityUser, info: RequestInfo): Promise<Session> {
    const refreshToken = opaqueToken();
    const sessionId = await db.transaction().execute(async (trx) => {
      const session = await trx
        .insertInto('auth.sessions')
        .values({
          user_id: user.id,
          user_agent: info.userAgent?.slice(0, 500) ?? null,
          ip: info.ip ?? null,
          not_after: new Date(Date.now() + sessionTtl * 1000),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('auth.refresh_tokens')
        .values({ token_hash: hashToken(refreshToken), session_id: session.id, user_id: user.id })
        .execute();
      await trx
        .updateTable('auth.users')
        .set({ last_sign_in_at: new Date() })
        .where('id', '=', user.id)
        .execute();
      return session.id;
    });
    return sessionFor(user, sessionId, refreshToken);
  }

  /** Stores a new single-use token (replacing any earlier one of its kind) on `trx`. */
  async function storeOneTimeToken(
    trx: Database,
    userId: string,
    type: 'confirmation_token' | 'recovery_token',
    email: string,
    ttlSeconds: number,
  ): Promise<string> {
    const token = opaqueToken();
    // A new link replaces any earlier one of the same kind.
    await trx
      .deleteFrom('auth.one_time_tokens')
      .where('user_id', '=', userId)
      .where('token_type', '=', type)
      .execute();
    await trx
      .insertInto('auth.one_time_tokens')
      .values({
        user_id: userId,
        token_type: type,
        token_hash: hashToken(token),
        relates_to: email,
        expires_at: new Date(Date.now() + ttlSeconds * 1000),
      })
      .execute();
    return token;
  }

  async function consumeOneTimeToken(token: string, type: 'confirmation_token' | 'recovery_token') {
    const row = await db
      .deleteFrom('auth.one_time_tokens')
      .where('token_hash', '=', hashToken(token))
      .where('token_type', '=', type)
      .returning(['user_id', 'expires_at'])
      .executeTakeFirst();
    const what = type === 'confirmation_token' ? 'confirmation' : 'password reset';
    if (!row) {
      throw new IdentityError('invalid_token', `This ${what} link is not valid or has already been used.`);
    }
    if (row.expires_at.getTime() < Date.now()) {
      throw new IdentityError('token_expired', `This ${what} link has expired. Please ask for a new one.`);
    }
    return row.user_id;
  }

  /**
   * A new confirmation link, and its email queued in the same transaction (`trx`): the link
   * exists exactly when its email will go.
   */
  async function sendConfirmation(
    trx: Database,
    user: { id: string; email: string },
    displayName: string,
    links: LinkBuilder,
  ) {
    const token = await storeOneTimeToken(
      trx,
      user.id,
      'confirmation_token',
      user.email,
      CONFIRMATION_TTL_SECONDS,
    );
    await trx
      .updateTable('auth.users')
      .set({ confirmation_sent_at: new Date() })
      .where('id', '=', user.id)
      .execute();
    const email = await renderEmail(trx, 'confirm-signup', {
      displayName,
      url: withToken(links.confirmUrl, token),
    });
    await mailer.send({ to: user.email, template: 'confirm-signup', userId: user.id, ...email }, { trx });
  }

  return {
    kind: 'local',

    async signUp(input, links) {
      const email = normaliseEmail(input.email);
      const existing = await findByEmail(email);
      if (existing) {
        if (existing.email_confirmed_at) {
          const message = await renderEmail(db, 'already-registered', {
            // Signing in still ends where sign-up was heading (`next` on the confirmation link).
            loginUrl: withNext(
              new URL('/login', links.confirmUrl).toString(),
              new URL(links.confirmUrl).searchParams.get('next'),
            ),
            resetUrl: new URL('/forgot-password', links.confirmUrl).toString(),
          });
          await mailer.send({ to: email, template: 'already-registered', userId: existing.id, ...message });
        } else {
          // Unconfirmed: send the link again, but never let a second sign-up change the password.
          const displayName = await displayNameOf(existing.id);
          await db
            .transaction()
            .execute((trx) => sendConfirmation(trx, { id: existing.id, email }, displayName, links));
        }
        return;
      }
      const hashed = await hash(input.password);
      // The account, its confirmation link and the email with it: all or nothing.
      await db.transaction().execute(async (trx) => {
        const created = await trx
          .insertInto('auth.users')
          .values({
            email,
            encrypted_password: hashed,
            raw_user_meta_data: JSON.stringify({ display_name: input.displayName }),
            raw_app_meta_data: JSON.stringify({ provider: 'email', providers: ['email'] }),
          })
          .onConflict((oc) => oc.expression(sql`lower(email)`).where('email', 'is not', null).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!created) return; // A concurrent sign-up with the same address won; it sent the email.
        await sendConfirmation(trx, { id: created.id, email }, input.displayName, links);
      });
    },

    async resendConfirmation(rawEmail, links) {
      const user = await findByEmail(rawEmail);
      if (!user || user.email_confirmed_at || !user.email) return;
      const displayName = await displayNameOf(user.id);
      await db
        .transaction()
        .execute((trx) =>
          sendConfirmation(trx, { id: user.id, email: user.email as string }, displayName, links),
        );
    },

    async confirmEmail(token, info) {
      const userId = await consumeOneTimeToken(token, 'confirmation_token');
      const row = await db
        .updateTable('auth.users')
        .set({ email_confirmed_at: sql`coalesce(email_confirmed_at, now())` })
        .where('id', '=', userId)
        .returning(['id', 'email', 'email_confirmed_at', 'created_at'])
        .executeTakeFirstOrThrow();
      return startSession(toIdentityUser(row), info);
    },

    async signIn(rawEmail, password, info) {
      const user = await findByEmail(rawEmail);
      // No account, or no password: a dummy is checked, so a wrong email costs what a wrong password does.
      const checked = await checkPassword(password, user?.encrypted_password, hashing);
      if (!user?.encrypted_password || !checked.matches) {
        throw new IdentityError('invalid_credentials', 'Incorrect email or password.');
      }
      if (checked.rehash) {
        // An old bcrypt hash (or other parameters than today's): replaced now that we have the
        // password, unless the password changed meanwhile (a reset in between wins).
        await db
          .updateTable('auth.users')
          .set({ encrypted_password: await hash(password), updated_at: new Date() })
          .where('id', '=', user.id)
          .where('encrypted_password', '=', user.encrypted_password)
          .execute();
      }
      if (user.banned_until && user.banned_until.getTime() > Date.now()) {
        throw new IdentityError(
          'user_banned',
          'This account is suspended. Contact us if you think this is a mistake.',
        );
      }
      if (!user.email_confirmed_at) {
        throw new IdentityError(
          'email_not_confirmed',
          'Please confirm your email address first: use the link we emailed you, or ask for a new one.',
        );
      }
      return startSession(toIdentityUser(user), info);
    },

    async refresh(refreshToken, info) {
      const hash = hashToken(refreshToken);
      const row = await db
        .selectFrom('auth.refresh_tokens as rt')
        .innerJoin('auth.sessions as s', 's.id', 'rt.session_id')
        .innerJoin('auth.users as u', 'u.id', 'rt.user_id')
        .select([
          'rt.id as tokenId',
          'rt.revoked',
          'rt.revoked_at',
          'rt.parent_hash',
          's.id as sessionId',
          's.not_after',
          'u.id',
          'u.email',
          'u.email_confirmed_at',
          'u.created_at',
          'u.banned_until',
        ])
        .where('rt.token_hash', '=', hash)
        .executeTakeFirst();
      if (!row) throw new IdentityError('invalid_token', 'Your session has ended. Please sign in again.');
      if (row.not_after.getTime() < Date.now()) {
        await db.deleteFrom('auth.sessions').where('id', '=', row.sessionId).execute();
        throw new IdentityError('token_expired', 'Your session has expired. Please sign in again.');
      }
      if (row.banned_until && row.banned_until.getTime() > Date.now()) {
        await db.deleteFrom('auth.sessions').where('user_id', '=', row.id).execute();
        throw new IdentityError('user_banned', 'This account is suspended.');
      }
      // Read before the token rotates, so that a database lost after the rotation cannot leave
      // the person holding only the spent token.
      const displayName = await displayNameOf(row.id);
      const next = opaqueToken();
      const outcome = await db.transaction().execute(async (trx) => {
        const rotated = await trx
          .updateTable('auth.refresh_tokens')
          .set({ revoked: true, revoked_at: new Date() })
          .where('id', '=', row.tokenId)
          .where('revoked', '=', false)
          .returning('revoked_at')
          .executeTakeFirst();
        if (!rotated) {
          // Already rotated: a concurrent refresh moments ago is fine, anything later is reuse.
          const latest = await trx
            .selectFrom('auth.refresh_tokens')
            .select('revoked_at')
            .where('id', '=', row.tokenId)
            .executeTakeFirstOrThrow();
          const age = Date.now() - (latest.revoked_at?.getTime() ?? 0);
          if (age > reuseInterval * 1000) return 'reused' as const;
        }
        await trx
          .insertInto('auth.refresh_tokens')
          .values({
            token_hash: hashToken(next),
            session_id: row.sessionId,
            user_id: row.id,
            parent_hash: hash,
          })
          .execute();
        await trx
          .updateTable('auth.sessions')
          .set({
            refreshed_at: new Date(),
            user_agent: info.userAgent?.slice(0, 500) ?? null,
            ip: info.ip ?? null,
          })
          .where('id', '=', row.sessionId)
          .execute();
        return 'rotated' as const;
      });
      if (outcome === 'reused') {
        // A stolen token was replayed: end the whole session for the thief and the owner.
        await db.deleteFrom('auth.sessions').where('id', '=', row.sessionId).execute();
        throw new IdentityError(
          'refresh_token_reused',
          'Your session has ended for your security. Please sign in again.',
        );
      }
      const user = toIdentityUser(row);
      const { token, expiresAt } = await issueAccessToken(user, row.sessionId, displayName);
      return { accessToken: token, refreshToken: next, expiresAt, sessionId: row.sessionId, user };
    },

    async verify(accessToken) {
      let payload: CheckedToken;
      const known = signedTokens.get(accessToken);
      if (known && known.exp! > Math.floor(Date.now() / 1000)) {
        payload = known;
      } else {
        signedTokens.delete(accessToken);
        let checked: JWTPayload;
        try {
          ({ payload: checked } = await jwtVerify(accessToken, jwtKey, {
            issuer: ISSUER,
            audience: AUDIENCE,
            algorithms: ['HS256'],
          }));
        } catch {
          return null; // Forged, expired or not a token of ours.
        }
        payload = {
          sub: checked.sub,
          exp: checked.exp,
          email: checked.email,
          session_id: checked.session_id,
        };
        if (signedTokens.size >= SIGNED_TOKENS_KEPT) signedTokens.clear();
        signedTokens.set(accessToken, payload);
      }
      const sessionId = typeof payload.session_id === 'string' ? payload.session_id : undefined;
      if (!payload.sub || !sessionId || !payload.exp) return null;
      // A database that cannot be asked is an outage, thrown as one: never "not signed in".
      const live = await db
        .selectFrom('auth.sessions as s')
        .innerJoin('auth.users as u', 'u.id', 's.user_id')
        .select('s.id')
        .where('s.id', '=', sessionId)
        .where('s.user_id', '=', payload.sub)
        .where('s.not_after', '>', new Date())
        .where((eb) => eb.or([eb('u.banned_until', 'is', null), eb('u.banned_until', '<', new Date())]))
        .executeTakeFirst();
      if (!live) return null;
      return {
        userId: payload.sub,
        email: typeof payload.email === 'string' ? payload.email : '',
        sessionId,
        expiresAt: payload.exp,
        // The session query above refuses a suspended account.
        suspensionChecked: true,
      };
    },

    async signOut(claims, scope) {
      const query = db.deleteFrom('auth.sessions').where('user_id', '=', claims.userId);
      await (scope === 'global' ? query : query.where('id', '=', claims.sessionId)).execute();
    },

    async requestPasswordReset(rawEmail, links) {
      const user = await findByEmail(rawEmail);
      if (!user?.email) return;
      const email = user.email;
      // The reset link and its email: all or nothing.
      await db.transaction().execute(async (trx) => {
        const token = await storeOneTimeToken(trx, user.id, 'recovery_token', email, RECOVERY_TTL_SECONDS);
        await trx
          .updateTable('auth.users')
          .set({ recovery_sent_at: new Date() })
          .where('id', '=', user.id)
          .execute();
        const message = await renderEmail(trx, 'reset-password', { url: withToken(links.resetUrl, token) });
        await mailer.send({ to: email, template: 'reset-password', userId: user.id, ...message }, { trx });
      });
    },

    async passwordLink(rawEmail, links) {
      const user = await findByEmail(rawEmail);
      if (!user?.email) throw new IdentityError('invalid_credentials', 'No account has this email address.');
      const email = user.email;
      const token = await db
        .transaction()
        .execute((trx) => storeOneTimeToken(trx, user.id, 'recovery_token', email, RECOVERY_TTL_SECONDS));
      return withToken(links.resetUrl, token);
    },

    async resetPassword(token, newPassword) {
      const userId = await consumeOneTimeToken(token, 'recovery_token');
      const hashed = await hash(newPassword);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('auth.users')
          .set({
            encrypted_password: hashed,
            // Following an emailed link proves the address.
            email_confirmed_at: sql`coalesce(email_confirmed_at, now())`,
          })
          .where('id', '=', userId)
          .execute();
        await trx.deleteFrom('auth.sessions').where('user_id', '=', userId).execute();
      });
      return { userId };
    },

    async getUser(userId) {
      const row = await db
        .selectFrom('auth.users')
        .select(['id', 'email', 'email_confirmed_at', 'created_at'])
        .where('id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return row ? toIdentityUser(row) : null;
    },

    async ensureUser(input) {
      const email = normaliseEmail(input.email);
      const hashed = await hash(input.password);
      const existing = await findByEmail(email);
      if (existing) {
        await db
          .updateTable('auth.users')
          .set({ encrypted_password: hashed, email_confirmed_at: sql`coalesce(email_confirmed_at, now())` })
          .where('id', '=', existing.id)
          .execute();
        return { id: existing.id };
      }
      const created = await db
        .insertInto('auth.users')
        .values({
          email,
          encrypted_password: hashed,
          email_confirmed_at: new Date(),
          raw_user_meta_data: JSON.stringify({ display_name: input.displayName }),
          raw_app_meta_data: JSON.stringify({ provider: 'email', providers: ['email'] }),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: created.id };
    },

    async closeUser(userId, closing = {}) {
      const work = async (trx: Database) => {
        // The placeholder address is unique per account and can never receive mail (.invalid,
        // RFC 2606); the real one is free again for a new sign-up. No password: no sign-in.
        await trx
          .updateTable('auth.users')
          .set({
            email: closedEmail(userId),
            encrypted_password: null,
            raw_user_meta_data: JSON.stringify({ display_name: CLOSED_DISPLAY_NAME }),
            updated_at: new Date(),
          })
          .where('id', '=', userId)
          .execute();
        await trx.deleteFrom('auth.one_time_tokens').where('user_id', '=', userId).execute();
        await trx.deleteFrom('auth.refresh_tokens').where('user_id', '=', userId).execute();
        await trx.deleteFrom('auth.sessions').where('user_id', '=', userId).execute();
      };
      await (closing.trx ? work(closing.trx) : db.transaction().execute(work));
    },

    async ensurePasswordlessUser(input) {
      const email = normaliseEmail(input.email);
      const created = await db
        .insertInto('auth.users')
        .values({
          email,
          encrypted_password: null,
          email_confirmed_at: new Date(),
          raw_user_meta_data: JSON.stringify({ display_name: input.displayName }),
          raw_app_meta_data: JSON.stringify({ provider: 'email', providers: ['email'] }),
        })
        .onConflict((oc) => oc.expression(sql`lower(email)`).where('email', 'is not', null).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (created) return { id: created.id, created: true };
      const existing = await findByEmail(email);
      if (!existing) throw new Error(`Could not create or find the account ${email}`);
      return { id: existing.id, created: false };
    },
  };
}
