/**
 * The tRPC instance, its context and the procedure builders. Every procedure is built from
 * exactly one access level, recorded in its meta so a test can walk them all:
 *   publicProcedure        anyone (cachedPublicProcedure: anyone, answer shared and cached)
 *   authedProcedure        a signed-in person (401 otherwise)
 *   staffProcedure         a user_roles row admin or moderator, compared lower-cased (403)
 *   adminProcedure         staff with the role admin (moderators: 403)
 *   tierProcedure(level)   an active admin_users record at or above the level (403)
 * Access checks run before input validation, so a caller without access learns nothing
 * about what input a procedure expects. Then, before any schema, the raw input is refused
 * whole (400, naming the field) when any text in it holds a NUL character or half of a
 * surrogate pair, which PostgreSQL cannot store: one check for every procedure, on /trpc and
 * the REST API alike. A personal API token (Bearer rsk_…) acts as its
 * owner; a read-only one is refused every mutation, a refused one every procedure.
 *
 * Publishing a procedure on the REST API (/api/v1, openapi/openapi.json) is one meta line,
 * `.meta({ openapi: { method: 'GET', path: '/listings/{slug}', tags: ['Catalogue'] } })`, plus
 * its `.output()`: see openapi/README.md.
 *
 * Staff and tier procedures run inside an audit trail (platform/audit): a mutation that
 * succeeds without recording what it did in the audit log is a defect, reported here.
 *
 * The levels themselves (what each one checks, and the words a refusal uses) live in
 * http/access.ts, shared with the raw Fastify routes' requireAccess: one rule for every door.
 */
import { type ADMIN_TIERS, DEFAULT_REQUIRED_TIER_LEVEL, findTextFault } from '@reshelf/contracts';
import { initTRPC, TRPCError } from '@trpc/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod';
import type { AppConfig } from './config.ts';
import type { Database } from './db/index.ts';
import { AppError, asAppError, ERRORS, INTERNAL_MESSAGE, logUnavailable, retryAfterOf } from './errors.ts';
import {
  type AccessLevel,
  checkCredential,
  requireAdminRole,
  requiredTierOf,
  requireSignedIn,
  requireStaff,
  requireTier,
} from './http/access.ts';
import type { BackgroundWork } from './http/background.ts';
import { runInAuditTrail } from './platform/audit/audit.service.ts';
import type { BookLookupPort } from './platform/book-lookup/book-lookup.ts';
import type { CarrierProvider } from './platform/carriers/port.ts';
import type { AccessClaims, IdentityProvider } from './platform/identity/port.ts';
import type { AuthState } from './platform/identity/resolve-auth.ts';
import type { Mailer, MailLog } from './platform/mail/port.ts';
import type { PaymentProvider } from './platform/payments/port.ts';
import type { RealtimeHub } from './platform/realtime/port.ts';
import type { ServerFunctions } from './platform/server-functions/server-functions.ts';
import type { StoragePort } from './platform/storage/port.ts';
import { signPrivateUrls } from './platform/storage/private-photos.ts';
import type { Secrets } from './secrets.ts';

export type { AccessLevel } from './http/access.ts';
export {
  ADMIN_RECORD_REQUIRED_MESSAGE,
  ADMIN_ROLE_REQUIRED_MESSAGE,
  activeAdminTier,
  READ_ONLY_TOKEN_MESSAGE,
  rolesOf,
  STAFF_FORBIDDEN_MESSAGE,
} from './http/access.ts';

export interface Meta {
  access?: AccessLevel;
  /** The answer is public data, the same for every visitor: the public cache may keep it. */
  cache?: boolean;
  /** Published on the REST API under /api/v1 (http/rest). */
  openapi?: OpenApiMeta['openapi'];
  /**
   * A query's answer to every caller who presents no credential (no bearer token, no session
   * cookie) and no input: the same for all of them, so the lean /trpc path sends it without a
   * context or a procedure call (http/trpc-lean.ts). The procedure itself must answer the same
   * (it returns this very value; trpc-lean.int.test.ts compares the two byte for byte).
   */
  anonymousAnswer?: unknown;
}

/**
 * Everything a procedure's service may depend on, built once per request where the context is
 * made (app.ts createContext). Routers hand `ctx.deps` to services; a service declares the slice
 * it needs (e.g. OrderDeps) and TypeScript checks that `deps` has it.
 */
export interface Deps {
  db: Database;
  config: AppConfig;
  secrets: Secrets;
  identity: IdentityProvider;
  mailer: Mailer;
  functions: ServerFunctions;
  payments: PaymentProvider;
  /** Drop-off points, labels and scans (decision 0083). */
  carriers: CarrierProvider;
  storage: StoragePort;
  bookLookup: BookLookupPort;
  /** Work that goes on after the answer (tracked, so tests can wait for it). */
  background: BackgroundWork;
  /** This instance's realtime fan-out: subscriptions read their topics through it. */
  realtime: RealtimeHub;
  /** The site's one origin (config.siteOrigin), for links in emails and return URLs. */
  origin: string;
  /** Logs an error against this request. */
  log: MailLog;
}

/** The deps, also spread flat for existing code (`ctx.db`, `ctx.mailer`), plus who is calling. */
export interface Context extends Omit<Deps, 'origin' | 'log'> {
  deps: Deps;
  auth: AuthState;
  req: FastifyRequest;
  res: FastifyReply;
}

/**
 * Subscriptions stream over server-sent events (docs/realtime.md): a ping comment every 15 s
 * keeps proxies from closing an idle stream, and tells the client the server is there (its
 * EventSource starts afresh after 45 s without a byte). The stream itself ends after a few
 * minutes (platform/realtime/hub.ts) and the client resumes from its last event.
 */
export const SSE_PING_MS = 15_000;
export const SSE_CLIENT_RECONNECT_AFTER_INACTIVITY_MS = 45_000;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    sse: {
      ping: { enabled: true, intervalMs: SSE_PING_MS },
      client: { reconnectAfterInactivityMs: SSE_CLIENT_RECONNECT_AFTER_INACTIVITY_MS },
    },
    errorFormatter({ shape, error }) {
      const zodError = error.cause instanceof z.ZodError ? z.flattenError(error.cause) : null;
      return {
        ...shape,
        message: zodError ? summariseZodError(error.cause as z.ZodError) : shape.message,
        data: {
          ...shape.data,
          // A domain error's status from the one error table (errors.ts), as REST and raw routes.
          httpStatus:
            error.cause instanceof AppError ? ERRORS[error.cause.code].status : shape.data.httpStatus,
          stack: undefined,
          zodError,
          // Which field a domain error is about, when it says (e.g. the password policy).
          field:
            error.cause instanceof AppError && typeof error.cause.details?.field === 'string'
              ? error.cause.details.field
              : undefined,
          // A basket checkout refused because the price changed: the new quote (decision 0043).
          quote:
            error.cause instanceof AppError && error.cause.details?.reason === 'QUOTE_CHANGED'
              ? error.cause.details.quote
              : undefined,
        },
      };
    },
  });

function summariseZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/**
 * Turns domain errors into tRPC errors and hides anything unexpected. A database that cannot be
 * reached (or a pool too busy to queue for) is UNAVAILABLE: 503 with Retry-After (errors.ts).
 */
const errorBoundary = t.middleware(async ({ next, ctx }) => {
  const result = await next();
  if (!result.ok) {
    const cause = asAppError(result.error.cause);
    if (cause) {
      if (!(result.error.cause instanceof AppError)) logUnavailable(ctx.req.log, result.error.cause);
      const retryAfter = retryAfterOf(cause);
      if (retryAfter !== undefined) ctx.res.header('retry-after', String(retryAfter));
      throw cause.toTRPC();
    }
    if (result.error.code === 'INTERNAL_SERVER_ERROR') {
      ctx.req.log.error({ err: cause ?? result.error }, 'procedure failed');
      throw new TRPCError({
        code: 'INTERNAL_SERVER_ERROR',
        message: INTERNAL_MESSAGE,
      });
    }
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/** Personal API tokens: a refused token fails every call; a read-only one fails mutations. */
const apiTokenGuard = t.middleware(({ ctx, type, next }) => {
  checkCredential(ctx.auth, type === 'mutation');
  return next();
});

const baseProcedure = t.procedure.use(errorBoundary).use(apiTokenGuard);

/**
 * Refuses an input with text PostgreSQL cannot store (a NUL character, or half of a surrogate
 * pair) in any field or key, before the procedure's schema runs, as a validation error naming
 * the field ("title: Text cannot contain a NUL character"). Each builder adds it after its
 * access checks.
 */
const rejectUnstorableText = t.middleware(async ({ getRawInput, next }) => {
  const fault = findTextFault(await getRawInput());
  if (fault) {
    const issue = { code: 'custom' as const, path: fault.path, message: fault.message, input: undefined };
    throw new TRPCError({
      code: 'BAD_REQUEST',
      message: fault.message,
      // ZodRealError, the Error that zod's own parse throws (a plain ZodError is not an Error).
      cause: new z.ZodRealError([issue]),
    });
  }
  return next();
});

export const publicProcedure = baseProcedure.meta({ access: 'public' }).use(rejectUnstorableText);

/** A public read whose answer is the same for everyone: cached briefly (http/public-cache.ts). */
export const cachedPublicProcedure = baseProcedure
  .meta({ access: 'public', cache: true })
  .use(rejectUnstorableText);

/**
 * A procedure whose answer its service builds, typed, from typed rows (the hot catalogue reads:
 * browse, search, the listing page): its `.output()` schema stays on the procedure, for the
 * OpenAPI document and the REST door (rest.route.ts validates every answer against it, as the
 * published contract promises), but /trpc no longer parses each answer against it again
 * (≈6.5% of the CPU of a page of results). tRPC 11 adds `.output()` as a middleware
 * of the procedure; this takes that one middleware out. That the schema would leave these
 * answers unchanged is tested (listings.int.test.ts).
 */
export function withTrustedOutput<P>(procedure: P): P {
  const def = (procedure as unknown as { _def: TrustableDef })._def;
  const index = def.middlewares.findIndex((middleware) => middleware._type === 'output');
  if (index === -1 || def.output === undefined) {
    throw new Error('withTrustedOutput: the procedure declares no .output() schema');
  }
  def.middlewares.splice(index, 1);
  def.trustedOutput = true;
  return procedure;
}

interface TrustableDef {
  middlewares: { _type?: string }[];
  output?: unknown;
  trustedOutput?: boolean;
}

/** Whether /trpc skips this procedure's output validation (the REST door then does it). */
export function hasTrustedOutput(procedure: unknown): boolean {
  return (procedure as { _def?: TrustableDef })._def?.trustedOutput === true;
}

const requireUser = t.middleware(({ ctx, next }) => next({ ctx: { user: requireSignedIn(ctx.auth) } }));

/**
 * A signed-in procedure's answer, once its own checks have let the caller see it, with every
 * private stored address in it signed for a short while (conversation photos:
 * platform/storage/private-photos.ts). Public answers never hold one.
 */
const signPrivatePhotos = t.middleware(async ({ ctx, type, next }) => {
  const result = await next();
  if (!result.ok || type === 'subscription') return result;
  return { ...result, data: signPrivateUrls(result.data, ctx.secrets) };
});

export const authedProcedure = baseProcedure
  .meta({ access: 'authed' })
  .use(requireUser)
  .use(signPrivatePhotos)
  .use(rejectUnstorableText);

export const AUDIT_MISSING_MESSAGE = 'staff mutation finished without an audit log entry';

/**
 * Staff and tier procedures: the actor and request are known to recordAudit, and a mutation
 * that succeeds without an audit entry is an error outside production (a logged error in it).
 */
const auditTrail = t.middleware(async ({ ctx, type, path, next }) => {
  const claims = ctx.auth.claims as AccessClaims;
  return runInAuditTrail(
    { actorId: claims.userId, actorEmail: claims.email ?? null, requestId: String(ctx.req.id) },
    async (trail) => {
      const result = await next();
      if (type === 'mutation' && result.ok && trail.recorded === 0) {
        ctx.req.log.error({ path }, AUDIT_MISSING_MESSAGE);
        if (ctx.config.env !== 'production') {
          throw new TRPCError({
            code: 'INTERNAL_SERVER_ERROR',
            message: `${path}: ${AUDIT_MISSING_MESSAGE}`,
          });
        }
      }
      return result;
    },
  );
});

const staffOnly = baseProcedure
  .meta({ access: 'staff' })
  .use(requireUser)
  .use(signPrivatePhotos)
  .use(async ({ ctx, next }) => next({ ctx: await requireStaff(ctx.db, ctx.user, ctx.req.log) }));

export const staffProcedure = staffOnly.use(auditTrail).use(rejectUnstorableText);

/** Staff with the role admin: user roles, settings and templates (moderators get 403). */
export const adminProcedure = staffOnly
  .meta({ access: 'admin' })
  .use(({ ctx, next }) => {
    requireAdminRole(ctx);
    return next();
  })
  .use(auditTrail)
  .use(rejectUnstorableText);

export function tierProcedure(requiredLevel: number = DEFAULT_REQUIRED_TIER_LEVEL) {
  requiredTierOf(requiredLevel);
  return baseProcedure
    .meta({ access: `tier:${requiredLevel}` })
    .use(requireUser)
    .use(signPrivatePhotos)
    .use(async ({ ctx, next }) => {
      const { adminTier, adminLevel } = await requireTier(ctx.db, ctx.user, requiredLevel, ctx.req.log);
      return next({ ctx: { adminTier: adminTier as keyof typeof ADMIN_TIERS, adminLevel } });
    })
    .use(auditTrail)
    .use(rejectUnstorableText);
}
