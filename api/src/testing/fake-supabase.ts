/**
 * A local stand-in for a Supabase project's HTTP APIs, for testing the BFF's hosted adapters
 * (BACKEND=supabase) at their HTTP boundary, and for the hosted browser test. It answers with the
 * status codes, bodies and headers Supabase documents:
 *
 * - Auth (`/auth/v1`): password and refresh-token grants, `/user`, `/logout`, the admin user
 *   API, `generate_link` and the JWKS. Users live in the test database's `auth.users`, as
 *   Supabase Auth keeps them, and are read as Auth reads them: a NULL in a token column fails
 *   with "Database error finding user(s)", Auth's real answer to rows written by SQL.
 *   Access tokens are ES256 JWTs with Supabase's claims, signed by a key served at
 *   `/auth/v1/.well-known/jwks.json` (the asymmetric signing keys of today's projects).
 * - The Functions relay (`/functions/v1/<name>`): the three staff functions, run in-process with
 *   their real shared logic (supabase/functions/_shared) on the test database, behind the same
 *   shell as the Edge Functions: the service key as `apikey`, the caller's JWT verified against
 *   the JWKS, the staff role checked again. A relay error answers with `x-relay-error: true`.
 * - Storage (`/storage/v1`): buckets, upload, download, delete, public objects.
 *
 * Each service can be switched to fail (`fail`): `down` (the connection is dropped: "failed to
 * send"), `error` (5xx), and for functions `relay` (a relay error). Keys are the new style
 * (`sb_publishable_…`, `sb_secret_…`) or the legacy JWTs (`keys: 'legacy'`). Every request is
 * recorded (`requests`) so a test can check exactly what an adapter sent.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hash as bcryptHash, verify as bcryptVerify } from '@node-rs/bcrypt';
import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
  type JWK,
  jwtVerify,
  SignJWT,
} from 'jose';
import pg from 'pg';
import {
  adminCleanupListings,
  adminMetrics,
  FunctionConflictError,
  FunctionForbiddenError,
  FunctionInputError,
  isStaff,
  type SqlClient,
} from '../../../supabase/functions/_shared/admin.ts';
import { type SnapshotBook, seedOpenLibraryRecent } from '../../../supabase/functions/_shared/seed.ts';

export type FakeService = 'auth' | 'functions' | 'storage';
export type FailureMode = 'down' | 'hang' | 'error' | 'relay';

export interface RecordedRequest {
  service: FakeService;
  method: string;
  /** Path and query, e.g. /auth/v1/token?grant_type=password. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface FakeSupabaseOptions {
  /** The database Auth and the functions work on, as its owner (Supabase's own roles). */
  databaseUrl: string;
  /** New-style keys (sb_publishable_/sb_secret_, the default) or the legacy JWT keys. */
  keys?: 'new' | 'legacy';
  /** The books the seed function uses (it never reaches Open Library here). */
  snapshot: readonly SnapshotBook[];
  /** Access-token lifetime in seconds (3600, Supabase's default). */
  accessTokenSeconds?: number;
}

export interface FakeSupabase {
  url: string;
  anonKey: string;
  serviceKey: string;
  jwks: JSONWebKeySet;
  requests: RecordedRequest[];
  /** Makes a service fail until `heal`. */
  fail(service: FakeService, mode: FailureMode): void;
  heal(service?: FakeService): void;
  /**
   * Moves this project's clock on (Auth's and the functions' view of "now"), e.g. past an access
   * token's expiry: tokens the BFF still holds are then refused here.
   */
  advanceClock(seconds: number): void;
  /** A signed access token for a user (for tests that skip the sign-in). */
  accessToken(userId: string, options?: { expiresInSeconds?: number }): Promise<string>;
  /** Stored objects by `bucket/path`. */
  objects: Map<string, { body: Buffer; contentType: string; cacheControl: string | null }>;
  buckets: Map<string, { public: boolean }>;
  close(): Promise<void>;
}

/** The token columns Supabase Auth scans as strings (a NULL in any fails the whole read). */
export const AUTH_STRING_COLUMNS = [
  'confirmation_token',
  'recovery_token',
  'email_change_token_new',
  'email_change',
  'email_change_token_current',
  'phone_change',
  'phone_change_token',
  'reauthentication_token',
] as const;

const API_VERSION = '2024-01-01';

interface UserRow {
  id: string;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  banned_until: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  [column: string]: unknown;
}

class AuthFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | number> = {},
): void {
  if (status === 204) {
    response.writeHead(204, headers).end();
    return;
  }
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function bearer(request: IncomingMessage): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
}

export async function startFakeSupabase(options: FakeSupabaseOptions): Promise<FakeSupabase> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4 });
  pool.on('error', () => {});
  const sql: SqlClient = {
    async query<Row>(text: string, params: unknown[] = []) {
      return (await pool.query(text, params)).rows as Row[];
    },
  };
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomUUID();
  const publicJwk: JWK = {
    ...(await exportJWK(publicKey)),
    kid,
    alg: 'ES256',
    use: 'sig',
    key_ops: ['verify'],
  };
  const jwks: JSONWebKeySet = { keys: [publicJwk] };
  const localJwks = createLocalJWKSet(jwks);
  const legacySecret = new TextEncoder().encode(randomBytes(32).toString('hex'));
  let clockOffsetSeconds = 0;
  const nowSeconds = () => Math.floor(Date.now() / 1000) + clockOffsetSeconds;
  const failures = new Map<FakeService, FailureMode>();
  const requests: RecordedRequest[] = [];
  const objects: FakeSupabase['objects'] = new Map();
  const buckets: FakeSupabase['buckets'] = new Map();
  const lifetime = options.accessTokenSeconds ?? 3600;

  // Sessions and refresh tokens, as Auth keeps them (in memory here).
  const sessions = new Map<string, { userId: string; ended: boolean }>();
  const refreshTokens = new Map<string, { sessionId: string; used: boolean }>();

  let url = '';
  const legacyKey = (role: 'anon' | 'service_role') =>
    new SignJWT({ role, iss: 'supabase' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('10y')
      .sign(legacySecret);
  const anonKey =
    options.keys === 'legacy'
      ? await legacyKey('anon')
      : `sb_publishable_${randomBytes(16).toString('base64url')}`;
  const serviceKey =
    options.keys === 'legacy'
      ? await legacyKey('service_role')
      : `sb_secret_${randomBytes(24).toString('base64url')}`;

  /** The API gateway: a request must name a key of this project. */
  function keyOf(request: IncomingMessage): 'anon' | 'service' | null {
    const apikey = request.headers.apikey;
    if (apikey === serviceKey) return 'service';
    if (apikey === anonKey) return 'anon';
    return null;
  }

  async function signAccessToken(userId: string, sessionId: string, expiresIn = lifetime): Promise<string> {
    const user = await findUser('id', userId);
    const iat = nowSeconds();
    return new SignJWT({
      aud: 'authenticated',
      sub: userId,
      email: user?.email ?? '',
      phone: '',
      app_metadata: user?.raw_app_meta_data ?? {},
      user_metadata: user?.raw_user_meta_data ?? {},
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: iat }],
      session_id: sessionId,
      is_anonymous: false,
    })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .setIssuer(`${url}/auth/v1`)
      .setIssuedAt(iat)
      .setExpirationTime(iat + expiresIn)
      .sign(privateKey);
  }

  /** Verifies an access token as Auth and the functions do: signature, audience, expiry. */
  async function verifyAccessToken(token: string): Promise<{ sub: string; session_id: string } | null> {
    try {
      const { payload } = await jwtVerify(token, localJwks, {
        audience: 'authenticated',
        algorithms: ['ES256'],
        currentDate: new Date(nowSeconds() * 1000),
      });
      if (typeof payload.sub !== 'string') return null;
      return { sub: payload.sub, session_id: String(payload.session_id ?? '') };
    } catch {
      return null;
    }
  }

  // ---- Auth's database reads, as Auth makes them ------------------------------------------------

  function scanUser(row: UserRow, many: boolean): UserRow {
    for (const column of AUTH_STRING_COLUMNS) {
      if (column in row && row[column] === null) {
        // What Supabase Auth answers (its log says: converting NULL to string is unsupported).
        throw new AuthFailure(
          500,
          'unexpected_failure',
          // check-plurals: Supabase Auth's own words, copied as they are
          many ? 'Database error finding users' : 'Database error finding user',
        );
      }
    }
    return row;
  }

  async function findUser(by: 'id' | 'email', value: string): Promise<UserRow | undefined> {
    const where = by === 'id' ? 'id = $1::uuid' : 'lower(email) = lower($1)';
    const { rows } = await pool.query<UserRow>(`select * from auth.users where ${where}`, [value]);
    return rows[0] ? scanUser(rows[0], false) : undefined;
  }

  function userJson(row: UserRow) {
    const iso = (value: Date | null) => (value ? value.toISOString() : undefined);
    return {
      id: row.id,
      aud: 'authenticated',
      role: 'authenticated',
      email: row.email ?? '',
      email_confirmed_at: iso(row.email_confirmed_at),
      confirmed_at: iso(row.email_confirmed_at),
      phone: '',
      last_sign_in_at: iso(row.last_sign_in_at),
      app_metadata: row.raw_app_meta_data ?? {},
      user_metadata: row.raw_user_meta_data ?? {},
      identities: [],
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
      banned_until: iso(row.banned_until),
      is_anonymous: false,
    };
  }

  async function newSession(row: UserRow) {
    const sessionId = randomUUID();
    sessions.set(sessionId, { userId: row.id, ended: false });
    const refreshToken = randomBytes(12).toString('base64url');
    refreshTokens.set(refreshToken, { sessionId, used: false });
    await pool.query('update auth.users set last_sign_in_at = now() where id = $1', [row.id]);
    return {
      access_token: await signAccessToken(row.id, sessionId),
      token_type: 'bearer',
      expires_in: lifetime,
      expires_at: nowSeconds() + lifetime,
      refresh_token: refreshToken,
      user: userJson(row),
    };
  }

  async function createUser(body: Record<string, unknown>): Promise<UserRow> {
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    if (!email)
      throw new AuthFailure(400, 'validation_failed', 'Unable to validate email address: invalid format');
    const hash = typeof body.password === 'string' ? await bcryptHash(body.password, 4) : null;
    try {
      // As Auth writes a user: every token column '' (never NULL).
      const { rows } = await pool.query<UserRow>(
        `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                                 raw_app_meta_data, raw_user_meta_data, ${AUTH_STRING_COLUMNS.join(', ')})
         values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
                 $1, $2, $3, $4, $5, ${AUTH_STRING_COLUMNS.map(() => "''").join(', ')})
         returning *`,
        [
          email,
          hash,
          body.email_confirm === true ? new Date() : null,
          JSON.stringify({
            provider: 'email',
            providers: ['email'],
            ...((body.app_metadata as object) ?? {}),
          }),
          JSON.stringify(body.user_metadata ?? {}),
        ],
      );
      return rows[0]!;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') {
        throw new AuthFailure(
          422,
          'email_exists',
          'A user with this email address has already been registered',
        );
      }
      throw error;
    }
  }

  function requireService(request: IncomingMessage): void {
    if (keyOf(request) !== 'service') throw new AuthFailure(403, 'not_admin', 'User not allowed');
  }

  async function auth(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    query: URLSearchParams,
    raw: Buffer,
  ) {
    const body = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
    const newErrors = String(request.headers['x-supabase-api-version'] ?? '') >= API_VERSION;
    try {
      if (path === '/.well-known/jwks.json' && request.method === 'GET') return send(response, 200, jwks);
      if (!keyOf(request)) {
        return send(response, 401, {
          message: 'Invalid API key',
          hint: 'Double check your Supabase `anon` or `service_role` API key.',
        });
      }
      if (path === '/token' && request.method === 'POST') {
        if (query.get('grant_type') === 'password') {
          const row = await findUser('email', String(body.email ?? ''));
          const ok =
            row?.encrypted_password &&
            (await bcryptVerify(String(body.password ?? ''), row.encrypted_password));
          if (!row || !ok) throw new AuthFailure(400, 'invalid_credentials', 'Invalid login credentials');
          if (!row.email_confirmed_at)
            throw new AuthFailure(400, 'email_not_confirmed', 'Email not confirmed');
          if (row.banned_until && row.banned_until.getTime() > nowSeconds() * 1000) {
            throw new AuthFailure(400, 'user_banned', 'User is banned');
          }
          return send(response, 200, await newSession(row));
        }
        if (query.get('grant_type') === 'refresh_token') {
          const token = refreshTokens.get(String(body.refresh_token ?? ''));
          if (!token)
            throw new AuthFailure(
              400,
              'refresh_token_not_found',
              'Invalid Refresh Token: Refresh Token Not Found',
            );
          if (token.used)
            throw new AuthFailure(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
          const session = sessions.get(token.sessionId);
          if (!session || session.ended) throw new AuthFailure(400, 'session_not_found', 'Session not found');
          token.used = true;
          const row = await findUser('id', session.userId);
          if (!row) throw new AuthFailure(404, 'user_not_found', 'User not found');
          const next = randomBytes(12).toString('base64url');
          refreshTokens.set(next, { sessionId: token.sessionId, used: false });
          return send(response, 200, {
            access_token: await signAccessToken(row.id, token.sessionId),
            token_type: 'bearer',
            expires_in: lifetime,
            expires_at: nowSeconds() + lifetime,
            refresh_token: next,
            user: userJson(row),
          });
        }
        throw new AuthFailure(400, 'validation_failed', 'unsupported_grant_type');
      }
      if (path === '/user' && request.method === 'GET') {
        const claims = await verifyAccessToken(bearer(request) ?? '');
        if (!claims) {
          throw new AuthFailure(
            403,
            'bad_jwt',
            'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired',
          );
        }
        const session = sessions.get(claims.session_id);
        if (!session || session.ended) {
          throw new AuthFailure(
            403,
            'session_not_found',
            'Session from session_id claim in JWT does not exist',
          );
        }
        const row = await findUser('id', claims.sub);
        if (!row) throw new AuthFailure(403, 'user_not_found', 'User from sub claim in JWT does not exist');
        return send(response, 200, userJson(row));
      }
      if (path === '/logout' && request.method === 'POST') {
        const claims = await verifyAccessToken(bearer(request) ?? '');
        if (!claims) throw new AuthFailure(403, 'bad_jwt', 'invalid JWT');
        const scope = query.get('scope') ?? 'global';
        for (const [id, session] of sessions) {
          const mine = session.userId === claims.sub;
          if (
            scope === 'global'
              ? mine
              : scope === 'local'
                ? id === claims.session_id
                : mine && id !== claims.session_id
          ) {
            session.ended = true;
          }
        }
        return send(response, 204, null);
      }
      if (path === '/admin/users' && request.method === 'GET') {
        requireService(request);
        const page = Math.max(1, Number(query.get('page') ?? 1));
        const perPage = Math.min(1000, Math.max(1, Number(query.get('per_page') ?? 50)));
        const { rows } = await pool.query<UserRow>('select * from auth.users order by created_at, id');
        const users = rows.map((row) => scanUser(row, true));
        const shown = users.slice((page - 1) * perPage, page * perPage);
        return send(
          response,
          200,
          { users: shown.map(userJson), aud: 'authenticated' },
          { 'x-total-count': users.length },
        );
      }
      if (path === '/admin/users' && request.method === 'POST') {
        requireService(request);
        return send(response, 200, userJson(await createUser(body)));
      }
      const byId = /^\/admin\/users\/([0-9a-f-]{36})$/.exec(path);
      if (byId) {
        requireService(request);
        const row = await findUser('id', byId[1]!);
        if (!row) throw new AuthFailure(404, 'user_not_found', 'User not found');
        if (request.method === 'GET') return send(response, 200, userJson(row));
        if (request.method === 'PUT') {
          const hash =
            typeof body.password === 'string' ? await bcryptHash(body.password, 4) : row.encrypted_password;
          const confirmed =
            body.email_confirm === true ? (row.email_confirmed_at ?? new Date()) : row.email_confirmed_at;
          // As Auth does: a new address (confirmed with email_confirm), metadata replaced, and a
          // ban for a Go duration in hours ("876000h") or lifted with "none".
          const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : row.email;
          const metadata =
            body.user_metadata && typeof body.user_metadata === 'object'
              ? JSON.stringify(body.user_metadata)
              : null;
          const ban = typeof body.ban_duration === 'string' ? body.ban_duration : undefined;
          const hours = ban && ban !== 'none' ? /^(\d+)h$/.exec(ban) : null;
          if (ban && ban !== 'none' && !hours) {
            throw new AuthFailure(400, 'validation_failed', 'invalid format for ban duration');
          }
          const bannedUntil =
            ban === 'none'
              ? null
              : hours
                ? new Date(Date.now() + Number(hours[1]) * 3_600_000)
                : row.banned_until;
          const { rows } = await pool.query<UserRow>(
            `update auth.users set encrypted_password = $2, email_confirmed_at = $3, email = $4,
                    raw_user_meta_data = coalesce($5::jsonb, raw_user_meta_data), banned_until = $6,
                    updated_at = now()
              where id = $1 returning *`,
            [row.id, hash, confirmed, email, metadata, bannedUntil],
          );
          return send(response, 200, userJson(rows[0]!));
        }
        if (request.method === 'DELETE') {
          await pool.query('delete from auth.users where id = $1', [row.id]);
          return send(response, 200, {});
        }
      }
      if (path === '/admin/generate_link' && request.method === 'POST') {
        requireService(request);
        const row = await findUser('email', String(body.email ?? ''));
        if (!row) throw new AuthFailure(404, 'user_not_found', 'User with this email not found');
        const hashed = randomBytes(28).toString('hex');
        await pool.query(
          'update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1',
          [row.id, hashed],
        );
        return send(response, 200, {
          ...userJson(row),
          action_link: `${url}/auth/v1/verify?token=${hashed}&type=${String(body.type)}`,
          email_otp: String(100000 + (randomBytes(3).readUIntBE(0, 3) % 900000)),
          hashed_token: hashed,
          redirect_to: String(body.redirect_to ?? ''),
          verification_type: String(body.type),
        });
      }
      throw new AuthFailure(404, 'not_found', 'Not found');
    } catch (error) {
      const failure =
        error instanceof AuthFailure
          ? error
          : new AuthFailure(500, 'unexpected_failure', 'Unexpected failure');
      if (!(error instanceof AuthFailure)) console.error('fake Supabase Auth failed', error);
      // Auth's error shape: by API version (auth-js asks for 2024-01-01), or the older one.
      return newErrors
        ? send(
            response,
            failure.status,
            { code: failure.code, message: failure.message },
            { 'x-supabase-api-version': API_VERSION },
          )
        : send(response, failure.status, {
            code: failure.status,
            error_code: failure.code,
            msg: failure.message,
          });
    }
  }

  // ---- The Functions relay and the functions' shell ---------------------------------------------

  const functions: Record<string, (body: unknown, userId: string) => Promise<unknown>> = {
    'admin-metrics': (body) => adminMetrics(sql, body, new Date(nowSeconds() * 1000)),
    'admin-cleanup-listings': (body, userId) => adminCleanupListings(sql, body, userId),
    'seed-openlibrary-recent': (body) => seedOpenLibraryRecent(sql, body, { snapshot: options.snapshot }),
  };

  async function relay(request: IncomingMessage, response: ServerResponse, name: string, raw: Buffer) {
    const work = functions[name];
    if (!work) return send(response, 404, { code: 'NOT_FOUND', message: 'Requested function was not found' });
    if (failures.get('functions') === 'relay') {
      return send(
        response,
        503,
        { code: 'BOOT_ERROR', message: 'Function failed to start (please check logs)' },
        { 'x-relay-error': 'true', 'sb-error-code': 'BOOT_ERROR' },
      );
    }
    if (failures.get('functions') === 'error') return send(response, 500, { error: `${name} failed` });
    if (request.method !== 'POST') return send(response, 405, { error: `${name} accepts POST only` });
    if (keyOf(request) !== 'service')
      return send(response, 401, { error: `${name} is called by the Reshelf API only` });
    const claims = await verifyAccessToken(bearer(request) ?? '');
    if (!claims) return send(response, 401, { error: 'Session expired—please sign in' });
    let body: unknown = {};
    if (raw.length) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return send(response, 400, { error: 'The request body is not valid JSON' });
      }
    }
    try {
      if (!(await isStaff(sql, claims.sub))) {
        return send(response, 403, {
          error: "You don't have permission to access the admin portal with your current account.",
        });
      }
      return send(response, 200, await work(body, claims.sub));
    } catch (error) {
      if (error instanceof FunctionInputError) return send(response, 400, { error: error.message });
      if (error instanceof FunctionForbiddenError) return send(response, 403, { error: error.message });
      if (error instanceof FunctionConflictError) return send(response, 409, { error: error.message });
      console.error(`fake ${name} failed`, error);
      return send(response, 500, { error: `${name} failed` });
    }
  }

  // ---- Storage ----------------------------------------------------------------------------------

  function storageError(response: ServerResponse, status: number, error: string, message: string) {
    send(response, status, { statusCode: String(status), error, message });
  }

  function storage(request: IncomingMessage, response: ServerResponse, path: string, raw: Buffer) {
    if (failures.get('storage') === 'error')
      return storageError(response, 500, 'internal', 'Internal Server Error');
    const publicObject = /^\/object\/public\/([^/]+)\/(.+)$/.exec(path);
    if (publicObject && request.method === 'GET') {
      const [, bucket, key] = publicObject;
      const object = buckets.get(bucket!)?.public
        ? objects.get(`${bucket}/${decodeURIComponent(key!)}`)
        : undefined;
      if (!object) return storageError(response, 404, 'not_found', 'Object not found');
      response
        .writeHead(200, {
          'content-type': object.contentType,
          'cache-control': object.cacheControl ?? 'no-cache',
        })
        .end(object.body);
      return;
    }
    if (keyOf(request) !== 'service') {
      return storageError(response, 403, 'Unauthorized', 'new row violates row-level security policy');
    }
    if (path === '/bucket' && request.method === 'POST') {
      const body = JSON.parse(raw.toString('utf8') || '{}') as { id?: string; public?: boolean };
      if (!body.id)
        return storageError(response, 400, 'Invalid Request', 'body must have required property id');
      if (buckets.has(body.id))
        return storageError(response, 409, 'Duplicate', 'The resource already exists');
      buckets.set(body.id, { public: body.public === true });
      return send(response, 200, { name: body.id });
    }
    const bucketOnly = /^\/object\/([^/]+)$/.exec(path);
    if (bucketOnly && request.method === 'DELETE') {
      const bucket = bucketOnly[1]!;
      if (!buckets.has(bucket)) return storageError(response, 404, 'Bucket not found', 'Bucket not found');
      const { prefixes } = JSON.parse(raw.toString('utf8') || '{}') as { prefixes?: string[] };
      const removed = (prefixes ?? []).filter((key) => objects.delete(`${bucket}/${key}`));
      return send(
        response,
        200,
        removed.map((name) => ({ name, bucket_id: bucket })),
      );
    }
    const object = /^\/object\/([^/]+)\/(.+)$/.exec(path);
    if (object) {
      const bucket = object[1]!;
      const key = decodeURIComponent(object[2]!);
      if (!buckets.has(bucket)) return storageError(response, 404, 'Bucket not found', 'Bucket not found');
      if (request.method === 'POST' || request.method === 'PUT') {
        const exists = objects.has(`${bucket}/${key}`);
        if (request.method === 'POST' && exists && request.headers['x-upsert'] !== 'true') {
          return storageError(response, 409, 'Duplicate', 'The resource already exists');
        }
        objects.set(`${bucket}/${key}`, {
          body: raw,
          contentType: String(request.headers['content-type'] ?? 'application/octet-stream'),
          cacheControl: request.headers['cache-control'] ?? null,
        });
        return send(response, 200, { Key: `${bucket}/${key}`, Id: randomUUID() });
      }
      if (request.method === 'GET') {
        const stored = objects.get(`${bucket}/${key}`);
        if (!stored) return storageError(response, 404, 'not_found', 'Object not found');
        response.writeHead(200, { 'content-type': stored.contentType }).end(stored.body);
        return;
      }
    }
    return storageError(response, 404, 'not_found', 'Route not found');
  }

  const server: Server = createServer((request, response) => {
    void (async () => {
      const parsed = new URL(request.url ?? '/', 'http://fake');
      const service: FakeService | null = parsed.pathname.startsWith('/auth/v1')
        ? 'auth'
        : parsed.pathname.startsWith('/functions/v1')
          ? 'functions'
          : parsed.pathname.startsWith('/storage/v1')
            ? 'storage'
            : null;
      const raw = await readBody(request);
      if (!service) return send(response, 404, { message: 'no Route matched with those values' });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) headers[name] = String(value);
      requests.push({
        service,
        method: request.method ?? 'GET',
        url: `${parsed.pathname}${parsed.search}`,
        headers,
        body: raw.toString('utf8'),
      });
      const mode = failures.get(service);
      if (mode === 'hang') return; // Never answers: the caller's timeout decides.
      if (mode === 'down') {
        // Failed to send: the connection is dropped without an answer.
        request.socket.destroy();
        return;
      }
      if (service === 'auth') {
        if (mode === 'error') {
          return send(response, 503, {
            code: 503,
            error_code: 'unexpected_failure',
            msg: 'upstream connect error',
          });
        }
        return auth(request, response, parsed.pathname.slice('/auth/v1'.length), parsed.searchParams, raw);
      }
      if (service === 'functions')
        return relay(request, response, parsed.pathname.slice('/functions/v1/'.length), raw);
      return storage(request, response, parsed.pathname.slice('/storage/v1'.length), raw);
    })().catch((error: unknown) => {
      console.error('fake Supabase failed', error);
      if (!response.headersSent) send(response, 500, { message: 'fake Supabase failed' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    anonKey,
    serviceKey,
    jwks,
    requests,
    objects,
    buckets,
    fail(service, mode) {
      failures.set(service, mode);
    },
    heal(service) {
      if (service) failures.delete(service);
      else failures.clear();
    },
    advanceClock(seconds) {
      clockOffsetSeconds += seconds;
    },
    async accessToken(userId, tokenOptions = {}) {
      const sessionId = randomUUID();
      sessions.set(sessionId, { userId, ended: false });
      return signAccessToken(userId, sessionId, tokenOptions.expiresInSeconds);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

/** The BFF's environment for hosted mode against a fake project. */
export function hostedEnv(fake: FakeSupabase): NodeJS.ProcessEnv {
  return {
    BACKEND: 'supabase',
    SUPABASE_URL: fake.url,
    SUPABASE_ANON_KEY: fake.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: fake.serviceKey,
    APP_SECRET: 'hosted-test-app-secret-0123456789abcdef',
  };
}
