/**
 * Who may call what: the one answer for every door of the API (decision 0037).
 *
 * Every procedure (trpc.ts) and every raw Fastify route declares exactly one access level:
 *   public      anyone
 *   authed      a signed-in person, not suspended (401 otherwise)
 *   staff       a user_roles row admin or moderator, compared lower-cased (403)
 *   admin       staff with the role admin (moderators: 403)
 *   tier:<n>    an active admin_users record at or above the level (403)
 * The checks below are the only implementation of those levels: the tRPC ladder calls them from
 * its middlewares, and raw routes call them through `requireAccess(level)`, a preHandler that
 * also states the level in the route's config, where the access matrix test reads it from the
 * app's route list (a route without one fails that test).
 *
 * Credentials are the same on both: the session cookies (browsers) or a bearer token, a personal
 * API token (rsk_…) acting as its owner; a refused API token fails every call, a read-only one
 * every call that changes something; a suspended account is signed out at its next request.
 * A raw route that changes something (POST) and needs a signed-in caller also runs the CSRF
 * guard (http/csrf.ts), as the /trpc scope does. A public raw route takes no credential at all:
 * it reads none (its authority, if any, is a signature or a signed link of its own).
 */
import { hasStaffRole, tierForLevel, tierLevel } from '@reshelf/contracts';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRouteHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/index.ts';
import { AppError, asAppError, infrastructureFailure, logUnavailable, unavailableError } from '../errors.ts';
import type { AccessClaims } from '../platform/identity/port.ts';
import { type AuthState, SUSPENDED_MESSAGE } from '../platform/identity/resolve-auth.ts';
import { csrfGuard } from './csrf.ts';

export type AccessLevel = 'public' | 'authed' | 'staff' | 'admin' | `tier:${number}`;

/** Every level a door may declare. */
export const ACCESS_LEVEL_PATTERN = /^(public|authed|staff|admin|tier:[1-4])$/;

export const STAFF_FORBIDDEN_MESSAGE =
  "You don't have permission to access the admin portal with your current account.";
export const ADMIN_RECORD_REQUIRED_MESSAGE = 'Access denied: Admin privileges required';
/** A moderator calling an admin-only procedure (spec section 8's wording). */
export const ADMIN_ROLE_REQUIRED_MESSAGE = 'Access denied: admin role required';
export const TIER_LOOKUP_FAILED_MESSAGE = 'Failed to verify admin access';
export const READ_ONLY_TOKEN_MESSAGE =
  'This API token can only read. Create a read-and-write token in Account settings to make changes.';
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';
export const SIGN_IN_MESSAGE = 'Please sign in to continue.';

type Log = Pick<FastifyBaseLogger, 'warn'>;

// ---- the checks (thrown as AppError: errors.ts says what each is on every surface) -----------

/**
 * Every level, public too: a refused API token fails the call (so a script learns at once that
 * its token no longer works), and a read-only one fails a call that changes something.
 */
export function checkCredential(auth: AuthState, mutation: boolean): void {
  const { refusal, apiToken } = auth;
  if (refusal) {
    throw new AppError(
      refusal.status === 429 ? 'RATE_LIMITED' : 'UNAUTHENTICATED',
      refusal.message,
      refusal.retryAfterSeconds ? { retryAfterSeconds: refusal.retryAfterSeconds } : undefined,
    );
  }
  if (apiToken?.scope === 'read' && mutation) throw new AppError('FORBIDDEN', READ_ONLY_TOKEN_MESSAGE);
}

/** authed and above: the signed-in caller (a suspended account is told so). */
export function requireSignedIn(auth: AuthState): AccessClaims {
  if (auth.claims) return auth.claims;
  throw new AppError(
    'UNAUTHENTICATED',
    auth.suspended ? SUSPENDED_MESSAGE : auth.rejected ? SESSION_EXPIRED_MESSAGE : SIGN_IN_MESSAGE,
  );
}

/** The caller's roles, lower-cased. A lookup error is reported to the caller as denial. */
export async function rolesOf(db: Database, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('user_roles').select('role').where('user_id', '=', userId).execute();
  return rows.map((row) => row.role.trim().toLowerCase());
}

export async function activeAdminTier(db: Database, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('admin_users')
    .select('admin_role')
    .where('user_id', '=', userId)
    .where('is_active', '=', true)
    .executeTakeFirst();
  return row?.admin_role ?? null;
}

export interface StaffAccess {
  roles: string[];
  isAdmin: boolean;
}

/** staff and admin: a moderator or admin role. */
export async function requireStaff(db: Database, user: AccessClaims, log: Log): Promise<StaffAccess> {
  let roles: string[];
  try {
    roles = await rolesOf(db, user.userId);
  } catch (error) {
    // Denied either way; a database that cannot be reached says so (503), not "no permission".
    const down = infrastructureFailure(error);
    if (down) throw unavailableError(down, error);
    log.warn({ err: error }, 'role lookup failed: access denied');
    throw new AppError('FORBIDDEN', STAFF_FORBIDDEN_MESSAGE);
  }
  if (!hasStaffRole(roles)) throw new AppError('FORBIDDEN', STAFF_FORBIDDEN_MESSAGE);
  return { roles, isAdmin: roles.includes('admin') };
}

/** admin: staff with the role admin. */
export function requireAdminRole(staff: StaffAccess): void {
  if (!staff.isAdmin) throw new AppError('FORBIDDEN', ADMIN_ROLE_REQUIRED_MESSAGE);
}

export interface TierAccess {
  adminTier: string;
  adminLevel: number;
}

/** The tier a `tier:<n>` level names (an unknown level is a programming error). */
export function requiredTierOf(requiredLevel: number): string {
  const tier = tierForLevel(requiredLevel);
  if (!tier) throw new Error(`No admin tier has level ${requiredLevel}`);
  return tier;
}

/** tier:<n>: an active admin record at or above the level. */
export async function requireTier(
  db: Database,
  user: AccessClaims,
  requiredLevel: number,
  log: Log,
): Promise<TierAccess> {
  const requiredTier = requiredTierOf(requiredLevel);
  let tier: string | null;
  try {
    tier = await activeAdminTier(db, user.userId);
  } catch (error) {
    const down = infrastructureFailure(error);
    if (down) throw unavailableError(down, error);
    log.warn({ err: error }, 'admin record lookup failed: access denied');
    throw new AppError('FORBIDDEN', TIER_LOOKUP_FAILED_MESSAGE);
  }
  if (!tier) throw new AppError('FORBIDDEN', ADMIN_RECORD_REQUIRED_MESSAGE);
  if (tierLevel(tier) < requiredLevel) {
    throw new AppError('FORBIDDEN', `Access denied: ${requiredTier} role required`);
  }
  return { adminTier: tier, adminLevel: tierLevel(tier) };
}

export interface Access {
  level: AccessLevel;
  auth: AuthState;
  /** The signed-in caller (null only at the level public). */
  user: AccessClaims | null;
  staff?: StaffAccess;
  tier?: TierAccess;
}

/** The whole ladder for one level, in the tRPC ladder's order. */
export async function checkAccess(
  db: Database,
  auth: AuthState,
  level: AccessLevel,
  options: { mutation: boolean; log: Log },
): Promise<Access> {
  checkCredential(auth, options.mutation);
  if (level === 'public') return { level, auth, user: auth.claims };
  const user = requireSignedIn(auth);
  if (level === 'authed') return { level, auth, user };
  if (level === 'staff' || level === 'admin') {
    const staff = await requireStaff(db, user, options.log);
    if (level === 'admin') requireAdminRole(staff);
    return { level, auth, user, staff };
  }
  const tier = await requireTier(db, user, Number(level.slice('tier:'.length)), options.log);
  return { level, auth, user, tier };
}

// ---- raw Fastify routes ------------------------------------------------------------------------

/** How a route's caller is identified: the app's one resolveAuth (app.ts), as tRPC's context. */
export type Authenticate = (
  request: FastifyRequest,
  reply: FastifyReply,
  options: { cookies: boolean },
) => Promise<AuthState>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route (requireAccess); the access matrix test reads it. */
    access?: AccessLevel;
    /** The route calls a procedure, which checks `access` itself (the REST API). */
    accessCheckedBy?: 'procedure';
  }
  interface FastifyRequest {
    /** The caller as requireAccess found them (null on public routes and before the check). */
    access: Access | null;
  }
  interface FastifyInstance {
    /** Set by buildApp: resolves the caller's credentials for tRPC, REST and the raw routes. */
    authenticate: Authenticate;
    /** Set by buildApp: what requireAccess needs besides the credentials. */
    accessDeps: { db: Database; config: AppConfig };
  }
}

/**
 * Resolves credentials with `resolve`, and a failure to check them (the database or the sign-in
 * service not answering) as the AppError to answer with (503 with Retry-After, never a 401).
 */
export async function authenticateWith(
  resolve: () => Promise<AuthState>,
  log: Parameters<typeof logUnavailable>[0],
): Promise<AuthState> {
  try {
    return await resolve();
  } catch (error) {
    const known = asAppError(error);
    if (!known) throw error;
    if (error instanceof AppError) log.warn({ err: error }, 'credentials could not be checked');
    else logUnavailable(log, error);
    throw known;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A raw route's access rule, spread into its options: `scope.post(PATH, requireAccess('authed'),
 * handler)`. It states the level (config.access) and, for any level but public, checks it before
 * the handler runs: CSRF for a POST, the credentials (cookies or a bearer token), suspension, and
 * the staff, admin or tier check. Refusals are errors.ts AppErrors, answered by the app's error
 * handler as JSON { error, message }. The handler reads the caller from `request.access`.
 */
export function requireAccess(level: AccessLevel): {
  config: { access: AccessLevel };
  preHandler: preHandlerAsyncHookHandler;
} {
  if (!ACCESS_LEVEL_PATTERN.test(level)) throw new Error(`Unknown access level ${level}`);
  if (level.startsWith('tier:')) requiredTierOf(Number(level.slice('tier:'.length)));
  const preHandler: preHandlerAsyncHookHandler = async function checkRouteAccess(request, reply) {
    if (level === 'public') return;
    const { db, config } = request.server.accessDeps;
    if (request.method === 'POST') {
      await csrfGuard(config)(request, reply);
      if (reply.sent) return reply;
    }
    const auth = await authenticateWith(
      () => request.server.authenticate(request, reply, { cookies: true }),
      request.log,
    );
    request.access = await checkAccess(db, auth, level, {
      mutation: !READS.has(request.method),
      log: request.log,
    });
  };
  return { config: { access: level }, preHandler };
}

/** The caller of a route behind requireAccess (authed or above). */
export function callerOf(request: FastifyRequest): AccessClaims {
  const user = request.access?.user;
  if (!user) throw new Error(`${request.routeOptions.url}: no caller (is the route behind requireAccess?)`);
  return user;
}

/**
 * Declares one level for every route a plugin registers in this scope (e.g. @fastify/static's
 * file routes, which take no route options of ours): routes that state their own keep it.
 * 'procedure': the scope's routes call procedures, each of which checks its own level (/trpc).
 */
export function declareScopeAccess(scope: FastifyInstance, level: AccessLevel | 'procedure'): void {
  const declared = level === 'procedure' ? null : requireAccess(level);
  const hook: onRouteHookHandler = (route) => {
    if (route.config?.access || route.config?.accessCheckedBy) return;
    if (!declared) {
      route.config = { ...route.config, accessCheckedBy: 'procedure' };
      return;
    }
    route.config = { ...route.config, ...declared.config };
    if (level !== 'public') {
      route.preHandler = [declared.preHandler, ...[route.preHandler ?? []].flat()];
    }
  };
  scope.addHook('onRoute', hook);
}

export interface Door {
  method: string;
  url: string;
  access: AccessLevel | undefined;
  accessCheckedBy: 'procedure' | undefined;
}

/**
 * Records every route the app registers with the level it declares (onRoute, added first so
 * every scope inherits it): the access matrix test walks this list. The level is read when
 * asked, after a scope's own onRoute hooks (declareScopeAccess) have run.
 */
export function recordDoors(app: FastifyInstance): Door[] {
  const doors: Door[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      doors.push({
        method,
        url: route.url,
        get access() {
          return route.config?.access;
        },
        get accessCheckedBy() {
          return route.config?.accessCheckedBy;
        },
      });
    }
  });
  return doors;
}
