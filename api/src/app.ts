/**
 * buildApp(): the whole BFF as a Fastify instance, for main.ts and for tests that inject
 * requests into the real app. The database is passed in already started.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { DestinationStream } from 'pino';
import { createViewRecorder, registerSitemapRoutes } from './catalogue/index.ts';
import { registerCharityUploadRoutes } from './charities/index.ts';
import {
  registerExportRoutes,
  registerOutboundScans,
  registerParcelRoutes,
  registerPaymentRoutes,
  registerReturnScans,
} from './commerce/index.ts';
import { registerMessagePhotoRoute } from './community/index.ts';
import type { AppConfig } from './config.ts';
import type { DatabaseHandle } from './db/index.ts';
import {
  AppError,
  asAppError,
  ERRORS,
  INTERNAL_MESSAGE,
  logUnavailable,
  retryAfterOf,
  titleOfStatus,
} from './errors.ts';
import {
  type Authenticate,
  authenticateWith,
  type Door,
  declareScopeAccess,
  recordDoors,
} from './http/access.ts';
import { createBackgroundWork } from './http/background.ts';
import { compressedStream, registerCompression } from './http/compression.ts';
import { csrfGuard } from './http/csrf.ts';
import { registerLoadShedding, webRootFiles } from './http/load-shedding.ts';
import { isDevPagePath, isLoopbackAddress } from './http/loopback.ts';
import { isApiPath, pathOf } from './http/paths.ts';
import { PROBE_PATHS, probeLogLevels, registerProbes } from './http/probes.ts';
import { etagOf, publicAnswers } from './http/public-answers.ts';
import { createPublicCache, isPublicCall, type PublicCache } from './http/public-cache.ts';
import { securityHeaders } from './http/security-headers.ts';
import { type CallProcedure, createPageRenderer } from './http/ssr.ts';
import { rejectUnstorableParameters } from './http/text-guard.ts';
import { registerLeanTrpc, type TrpcPathStats } from './http/trpc-lean.ts';
import { humanLogStream, loggerOptions, logRequest } from './logger.ts';
import { registerTestCarrierRoutes } from './platform/carriers/index.ts';
import { type AuthState, presentsNoCredential, resolveAuth } from './platform/identity/resolve-auth.ts';
import { type MailDelivery, startMailDelivery } from './platform/mail/delivery.ts';
import { createRealtimeHub, type RealtimeHub, type RealtimeHubOptions } from './platform/realtime/hub.ts';
import {
  createRequestLogRecorder,
  loggedPath,
  requestLine,
} from './platform/request-log/request-log.recorder.ts';
import { registerStorageRoute } from './platform/storage/storage.route.ts';
import { registerUnsubscribeRoutes } from './platform/unsubscribe/unsubscribe.route.ts';
import { registerRestApi } from './rest/rest.route.ts';
import { type AppRouter, appRouter } from './router.ts';
import type { Secrets } from './secrets.ts';
import { registerUploadRoutes } from './selling/index.ts';
import { createServices, type Services } from './services.ts';
import type { Context, Deps, Meta } from './trpc.ts';

export interface BuildAppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  secrets: Secrets;
  /** Backend adapters; made from the configuration when not given. */
  services?: Services;
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
  /** Realtime limits (tests shorten the streams' lifetime and queues). */
  realtime?: Omit<RealtimeHubOptions, 'log'>;
}

/**
 * TRUST_PROXY as Fastify's trustProxy. A hop count becomes proxy-addr's trust function
 * (believe the nearest `hops` addresses): Fastify 5.12 takes a bare number as "trust nothing".
 */
export function trustProxyOption(trust: AppConfig['trustProxy']) {
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust;
}

/** The largest request body any route reads (uploads set their own, larger, limits). */
export const BODY_LIMIT = 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's mail sender: tests await mail.idle() after a wake-up. */
    mail: MailDelivery;
    /** This instance's realtime fan-out (stats for tests and the benchmark). */
    realtime: RealtimeHub;
    /** The public cache, when PUBLIC_CACHE_SECONDS is not 0 (tests see which changes it heard). */
    publicCache: PublicCache | null;
    /** Every route registered, with the access level it declares (the access matrix test). */
    doors: Door[];
    /** Which path serves /trpc, and how many requests each answered (decision 0040). */
    trpcPath: TrpcPathStats;
  }
}

/**
 * How long a browser may keep a file of the built web: the hashed files under assets/ (their
 * name changes with their content) for a year without asking; everything else (index.html,
 * the icons, the manifest) only after checking it is unchanged (ETag / Last-Modified).
 */
export function webCacheControl(webDist: string, filePath: string): string {
  const relative = path.relative(webDist, filePath).split(path.sep);
  return relative[0] === 'assets' && relative.length > 1 ? 'public, max-age=31536000, immutable' : 'no-cache';
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database, secrets, logStream } = options;
  const services = options.services ?? (await createServices(config, database, secrets));
  const app = Fastify({
    // Tests pass a stream of their own and read JSON; a terminal outside production reads people's lines.
    logger: loggerOptions(
      config.logLevel,
      logStream ?? (config.logFormat === 'human' ? humanLogStream() : undefined),
    ),
    // Batched tRPC calls put every procedure name into one path segment.
    routerOptions: { maxParamLength: 5000 },
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Only the configured proxies' X-Forwarded-For (TRUST_PROXY; none by default): trusting
    // every hop let a client forge the address the per-IP limits count.
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: BODY_LIMIT,
    // One line per request instead of Fastify's two: logRequest, from onResponse below.
    logController: new LogController({ disableRequestLogging: true }),
  });

  // Before any route, so that it sees every one: who may call each door (http/access.ts).
  const doors = recordDoors(app);
  app.decorate('doors', doors);

  // First, so that every route registered below uses it (routes keep the handler in force when
  // they are registered). Every raw route's refusal is JSON { error, message }: the status and
  // title of a domain error from the one error table (errors.ts).
  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    // Domain errors and infrastructure failures (503 with Retry-After) from the raw routes.
    const known = asAppError(error);
    if (known) {
      const { status, title } = ERRORS[known.code];
      if (!(error instanceof AppError)) logUnavailable(request.log, error);
      if (status >= 500 && known.code !== 'UNAVAILABLE') {
        request.log.error({ err: error, details: known.details }, 'request failed');
      }
      const retryAfter = retryAfterOf(known);
      if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
      return reply.code(status).send({ error: title, message: known.message });
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (status === 413) {
      return reply.code(413).send({
        error: ERRORS.PAYLOAD_TOO_LARGE.title,
        message: `The request body is too large: send at most ${BODY_LIMIT / 1024 / 1024} MB.`,
      });
    }
    return reply.code(status).send({
      error: status >= 500 ? ERRORS.INTERNAL.title : (STATUS_CODES[status] ?? titleOfStatus(status)),
      message: status >= 500 ? INTERNAL_MESSAGE : error.message,
    });
  });

  // Text PostgreSQL cannot store (a NUL, half a surrogate pair) in a parameter of the routes
  // outside the procedures; tRPC and the REST API refuse it in their own shape (trpc.ts). The
  // probes read no parameter.
  app.addHook(
    'onRequest',
    rejectUnstorableParameters({
      only: (urlPath) =>
        isApiPath(urlPath) && !PROBE_PATHS.has(urlPath) && !/^\/(?:trpc|api\/v1)(?:\/|$)/.test(urlPath),
    }),
  );

  // The development pages (the mailbox, which holds password-reset links): a client on this
  // machine only, and nobody in production; anyone else finds nothing there.
  app.addHook('onRequest', (request, reply, done) => {
    const urlPath = pathOf(request.url);
    if (!isDevPagePath(urlPath) || (config.env !== 'production' && isLoopbackAddress(request.ip)))
      return done();
    reply
      .code(404)
      .send({ error: ERRORS.NOT_FOUND.title, message: `No route for ${request.method} ${urlPath}` });
  });

  // CSP, HSTS (production), Referrer-Policy, nosniff, no-store on private API answers.
  const headers = securityHeaders(config, path.join(config.webDist, 'index.html'));
  app.decorateRequest('publicAnswer', false);
  // The request log on /admin/logs: one line per API request, written after the answer.
  const requestLog = createRequestLogRecorder(database.db, {
    keepOneIn: config.requestLogSample,
    onError: (error, lines) => app.log.warn({ err: error, lines }, 'request log lines not written'),
  });
  app.decorate('requestLog', requestLog);
  app.decorateRequest('actorId', null);
  // Every answer, in one plain-callback hook (no promise per hook per request): the request id,
  // the security headers, and for a logged request the note that its answer starts to leave
  // (its line will follow, and requestLog.flush() waits for it).
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    headers.apply(request, reply);
    if (loggedPath(request.url)) requestLog.answering(reply.raw);
    done(null, payload);
  });
  // A good health probe's line is mostly at debug (http/probes.ts, decision 0070).
  const probeLevel = probeLogLevels();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    const level =
      route !== undefined && PROBE_PATHS.has(route)
        ? probeLevel(route, reply.statusCode, reply.elapsedTime)
        : 'info';
    logRequest(request, reply, request.actorId, level);
    const line = requestLine(request, reply, request.actorId);
    if (line) requestLog.record(line, reply.raw);
    done();
  });
  app.addHook('onClose', async () => requestLog.stop());
  // Listing views: buffered in memory, written in batches (catalogue/listings).
  const listingViews = createViewRecorder(database.db, {
    onError: (error, views) => app.log.warn({ err: error, views }, 'listing views not written'),
  });
  app.decorate('listingViews', listingViews);
  app.addHook('onClose', async () => listingViews.stop());
  // Work left running after an answer (a covers backfill): tests wait for it to settle.
  const background = createBackgroundWork();
  app.decorate('background', background);

  // Overloaded (event loop lagging, or the database pool's queue full): 503 with Retry-After
  // at the door, before any work, except for /healthz and /readyz.
  await registerLoadShedding(app, {
    database,
    maxEventLoopDelayMs: config.maxEventLoopDelayMs,
    webRootFiles: webRootFiles(config.webDist),
  });
  // Mail leaves through the outbox: this instance's sender wakes on every queued message.
  const mail = await startMailDelivery(database, services.mailer, (message, error) =>
    error ? app.log.warn({ err: error }, message) : app.log.info(message),
  );
  app.decorate('mail', mail);
  app.addHook('onClose', async () => {
    await mail.stop();
    await services.mailer.close();
  });

  // Realtime: one LISTEN connection for this instance, fanned out to its subscriptions. It must
  // be a direct (session) connection, never a transaction pooler's (database.listen's is).
  const realtime = createRealtimeHub(database, {
    ...options.realtime,
    log: (message, error) => (error ? app.log.warn({ err: error }, message) : app.log.info(message)),
  });
  await realtime.start();
  app.decorate('realtime', realtime);
  // Before the server stops taking connections: open streams end (their clients reconnect to
  // another instance), or closing would wait for them.
  app.addHook('preClose', async () => realtime.close());

  // The health probes, before compression (http/probes.ts): as little work as a route can do.
  registerProbes(app, database);
  // Before every other route: the plugin adds its onSend to each route as it is declared.
  await registerCompression(app);
  await app.register(fastifyCookie);
  await import('./http/cors.ts').then(({ registerCors }) => registerCors(app, config));

  // The identity of a caller, for tRPC, the REST API and the raw routes alike (http/access.ts).
  const authenticate: Authenticate = (req, res, { cookies }) =>
    resolveAuth(req, res, services.identity, config, {
      apiTokens: { db: database.db, secrets },
      cookies,
      suspensions: database.db,
    });
  app.decorate('authenticate', authenticate);
  app.decorate('accessDeps', { db: database.db, config });
  app.decorateRequest('access', null);

  // tRPC replaces the JSON body parser inside its own scope, so it gets a scope of its own.
  // Public catalogue answers, cached briefly; a change drops the answers it touches (per key).
  const cacheable = new Set(
    Object.entries(
      (appRouter as unknown as { _def: { procedures: Record<string, { _def: { meta?: Meta } }> } })._def
        .procedures,
    )
      .filter(([, procedure]) => procedure._def.meta?.cache === true)
      .map(([path]) => path),
  );
  const publicCache =
    config.publicCacheSeconds > 0 && cacheable.size > 0
      ? createPublicCache({
          ttlMs: config.publicCacheSeconds * 1000,
          cacheable: (path) => cacheable.has(path),
          etagOf,
        })
      : undefined;
  if (publicCache) {
    const stopListening = await database.listen(
      'reshelf_catalogue',
      (payload) => publicCache.invalidateFor(payload),
      () => publicCache.invalidate(),
    );
    app.addHook('onClose', async () => stopListening());
  }
  app.decorate('publicCache', publicCache ?? null);
  // ETag, Cache-Control and 304 on public GETs (/trpc and /api/v1, both registered below).
  app.addHook('onSend', publicAnswers({ cache: publicCache }));

  /** One context for /trpc and /api/v1; the REST API reads bearer tokens only. */
  async function createContext(req: FastifyRequest, res: FastifyReply, cookies: boolean): Promise<Context> {
    let auth: AuthState;
    try {
      auth = await authenticateWith(() => authenticate(req, res, { cookies }), req.log);
    } catch (error) {
      // The database (or sign-in service) did not answer: 503 with Retry-After, never a 401.
      if (!(error instanceof AppError)) throw error;
      const retryAfter = retryAfterOf(error);
      if (retryAfter !== undefined) res.header('retry-after', String(retryAfter));
      throw error.toTRPC();
    }
    // Hosted Edge Functions verify a Supabase session token: an API-token caller (already
    // checked by the procedure's access level) runs the same SQL in-process (decision 0014).
    const functions =
      auth.apiToken && services.functionsForApiTokens ? services.functionsForApiTokens : services.functions;
    const deps: Deps = {
      db: database.db,
      config,
      secrets,
      identity: services.identity,
      mailer: services.mailer,
      functions,
      payments: services.payments,
      carriers: services.carriers,
      storage: services.storage,
      bookLookup: services.bookLookup,
      background,
      realtime,
      origin: config.siteOrigin,
      log: (message, error) => req.log.error({ err: error }, message),
    };
    // Made once per request (a batch shares it), as two literals of a fixed shape: no rest copy
    // of deps (decision 0040). Middlewares that only check call next() without a new context.
    return {
      db: database.db,
      config,
      secrets,
      identity: services.identity,
      mailer: services.mailer,
      functions,
      payments: services.payments,
      carriers: services.carriers,
      storage: services.storage,
      bookLookup: services.bookLookup,
      background,
      realtime,
      deps,
      auth,
      req,
      res,
    };
  }

  const trpcStats: TrpcPathStats = { path: config.trpcPath, lean: 0, stock: 0, anonymous: 0 };
  app.decorate('trpcPath', trpcStats);
  await app.register(async (scope) => {
    scope.addHook('onRequest', csrfGuard(config));
    // Public catalogue reads may be kept by caches; every other answer is no-store.
    const isCacheable = (procedurePath: string) => cacheable.has(procedurePath);
    scope.addHook('onRequest', (request, _reply, done) => {
      request.publicAnswer = isPublicCall(request, isCacheable);
      done();
    });
    if (publicCache) scope.addHook('onRequest', publicCache.onRequest);
    // Each procedure declares and checks its own level (trpc.ts, on the same checks).
    declareScopeAccess(scope, 'procedure');
    const trpcOptions = {
      router: appRouter,
      createContext: ({ req, res }) => createContext(req, res, true),
      onError({ error, path: procedurePath, req }) {
        if (error.code === 'INTERNAL_SERVER_ERROR') {
          req.log.error({ err: error.cause ?? error, procedure: procedurePath }, 'tRPC error');
        }
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'];
    // The lean route by default (decision 0040); TRPC_PATH=stock serves tRPC's own plugin.
    if (config.trpcPath === 'stock') {
      await scope.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions });
    } else {
      await scope.register(
        (trpcScope) =>
          registerLeanTrpc(trpcScope, trpcOptions, trpcStats, (request) =>
            presentsNoCredential(request, config),
          ),
        { prefix: '/trpc' },
      );
    }
  });

  await registerPaymentRoutes(app, {
    db: database.db,
    payments: services.payments,
    mailer: services.mailer,
    origin: config.siteOrigin,
  });
  // Parcels (issue 37): what the carrier's scans of a parcel to the buyer do to its order, the
  // carriers' signed webhooks and the label downloads.
  registerOutboundScans({ db: database.db, mailer: services.mailer, origin: config.siteOrigin });
  await registerParcelRoutes(app, { db: database.db, carriers: services.carriers });
  // What a return label's scans do: the return is sent, then received and refunded (issue 37).
  registerReturnScans({
    db: database.db,
    payments: services.payments,
    mailer: services.mailer,
    storage: services.storage,
    carriers: services.carriers,
    origin: config.siteOrigin,
  });
  // The test carrier's scan page and tracking pages (not in production: CARRIERS=test only).
  await registerTestCarrierRoutes(app, { db: database.db, carriers: services.carriers });
  // One-click unsubscribe (RFC 8058) from a non-essential email's List-Unsubscribe header.
  await registerUnsubscribeRoutes(app, { db: database.db, secrets });
  // Stored files (GET /storage/<key>) and uploads (POST /api/uploads/...), each in its own scope.
  await registerStorageRoute(app, services.storage, secrets);
  await registerUploadRoutes(app, { db: database.db, services });
  await registerCharityUploadRoutes(app, {
    db: database.db,
    services,
    origin: config.siteOrigin,
    background,
  });
  await registerMessagePhotoRoute(app, { db: database.db, services, secrets });
  // The REST API (/api/v1) and its docs (/api/docs): the published procedures, bearer only.
  await registerRestApi(app, { createContext: (req, res) => createContext(req, res, false) });
  await registerExportRoutes(app, { db: database.db });
  // robots.txt and the sitemaps, for search engines (not the web's index.html).
  // Kept in memory like the public catalogue answers, and not at all when that cache is off.
  await registerSitemapRoutes(app, {
    db: database.db,
    config,
    ...(config.publicCacheSeconds > 0 ? {} : { cacheMs: 0 }),
  });

  const indexHtml = path.join(config.webDist, 'index.html');
  const serveWeb = existsSync(indexHtml);
  if (serveWeb) {
    // The built web's files: public (declared for each file route the plugin adds).
    declareScopeAccess(app, 'public');
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: false,
      // The build's .br/.gz copies (web/precompress.ts), chosen by Accept-Encoding.
      preCompressed: true,
      // Ours below, not the plugin's `public, max-age=0`, which overwrote the page's no-cache.
      cacheControl: false,
      setHeaders(reply, filePath) {
        reply.header('cache-control', webCacheControl(config.webDist, filePath));
      },
    });
  }

  // The public pages rendered on the server (http/ssr.ts); the rest get the shell below.
  const pages = serveWeb
    ? createPageRenderer({ entry: config.webSsrEntry, indexHtml, siteOrigin: config.siteOrigin })
    : undefined;
  /**
   * Runs a procedure for the page being rendered, in-process, as an anonymous visitor (no
   * cookies: the page is the same for everyone, so it never holds anyone's data). Only the reads
   * whose answer is the same for everyone (`cachedPublicProcedure`, the `cacheable` set above)
   * are answered; any other (auth.me, a member's own data) is refused and left for the browser
   * to ask with its own session, as before. The context is built once, on the first call.
   */
  function callerFor(request: FastifyRequest, reply: FastifyReply): CallProcedure {
    let caller: Promise<Record<string, unknown>> | undefined;
    return async (procedurePath, input) => {
      if (!cacheable.has(procedurePath)) throw new Error(`${procedurePath} is left for the browser`);
      caller ??= createContext(request, reply, false).then(
        (ctx) => appRouter.createCaller(ctx) as unknown as Record<string, unknown>,
      );
      let target: unknown = await caller;
      for (const part of procedurePath.split('.')) target = (target as Record<string, unknown>)[part];
      return (target as (input: unknown) => Promise<unknown>)(input);
    };
  }

  app.setNotFoundHandler(async (request, reply) => {
    const isApi = isApiPath(request.url);
    // A file of the built web that is not there (an old deploy's chunk, a typo) is a 404: the
    // app's page in its place would be run as the script or style the browser asked for.
    const missingFile = pathOf(request.url).startsWith('/assets/');
    if (serveWeb && !isApi && !missingFile && (request.method === 'GET' || request.method === 'HEAD')) {
      if (pages && request.method === 'GET') {
        const page = await pages.render(request.url, callerFor(request, reply), request.log);
        // The page decided, from its answers, to send the visitor elsewhere (no hits for a search).
        if (page && 'location' in page) {
          return reply.header('cache-control', 'no-cache').redirect(page.location, page.status);
        }
        if (page) {
          // The same for every visitor; asked again each time, like the shell (the catalogue moves).
          // Compressed here (http/compression.ts): @fastify/compress hooks routes, and this handler
          // is not one, so a page went out as it was (130 KB for home, 0.6 s of a phone's slow 4G).
          return reply
            .code(page.status)
            .header('content-type', 'text/html; charset=utf-8')
            .header('cache-control', 'no-cache')
            .send(compressedStream(request, reply, page.body));
        }
      }
      // The client router owns every other path, including its not-found page (no-cache, from
      // setHeaders: every deploy's page names that deploy's assets).
      return reply.sendFile('index.html');
    }
    return reply
      .code(404)
      .send({ error: ERRORS.NOT_FOUND.title, message: `No route for ${request.method} ${request.url}` });
  });

  return app;
}
