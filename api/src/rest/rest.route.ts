/**
 * The REST API under /api/v1: every published procedure (meta.openapi) as a Fastify route of
 * its own, called through the router's server-side caller, so the same access levels,
 * middlewares, validation and output checks run as on /trpc. A thin adapter of ours rather
 * than trpc-to-openapi's Fastify plugin (decision 0014): that plugin coerces query strings by
 * switching `coerce` on inside the shared zod schemas (so `charityOnly=false` became true, and
 * tRPC calls were coerced too) and answers input errors with a generic message.
 *
 * Only bearer tokens authenticate here (personal API tokens or session access tokens), never
 * cookies: a page elsewhere cannot make a visitor's browser call it, so it needs no CSRF guard.
 * Its own scope keeps Fastify's JSON body parser (the tRPC plugin replaces it in its scope).
 *
 *   /api/v1/...               the operations in openapi/openapi.json
 *   /api/v1/openapi.json      that document, with this site as its server
 *   /api/docs                 interactive docs (Swagger UI, served from node_modules: offline)
 */
import { createRequire } from 'node:module';
import fastifyStatic from '@fastify/static';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { asAppError, errorOfTRPCCode, INTERNAL_MESSAGE, logUnavailable, retryAfterOf } from '../errors.ts';
import { declareScopeAccess, requireAccess } from '../http/access.ts';
import { appRouter } from '../router.ts';
import { type Context, hasTrustedOutput } from '../trpc.ts';
import {
  buildOpenApiDocument,
  type PublishedProcedure,
  publishedProcedures,
  REST_PREFIX,
} from './document.ts';

export const DOCS_PATH = '/api/docs';

export interface RestApiOptions {
  /** The same context tRPC gets, built from the request (bearer tokens only). */
  createContext(request: FastifyRequest, reply: FastifyReply): Promise<Context>;
}

interface ErrorBody {
  code: string;
  message: string;
  issues?: { path: string; message: string }[];
}

function sendError(reply: FastifyReply, status: number, body: ErrorBody) {
  return reply.code(status).type('application/json').send(body);
}

/** The status from the one error table (errors.ts); tRPC's own for a code outside it. */
export function errorBody(error: TRPCError): { status: number; body: ErrorBody } {
  const status = errorOfTRPCCode(error.code)?.status ?? getHTTPStatusCodeFromError(error);
  if (error.cause instanceof z.ZodError) {
    const issues = error.cause.issues.map((issue) => ({
      path: issue.path.join('.'),
      message: issue.message,
    }));
    return {
      status,
      body: {
        code: error.code,
        message: issues
          .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))
          .join('; '),
        issues,
      },
    };
  }
  return { status, body: { code: error.code, message: error.message } };
}

// ---- input from the query string and path ---------------------------------------------------

type AnySchema = z.ZodType & { _zod: { def: { type: string; innerType?: AnySchema; in?: AnySchema } } };

/** The kind of value a field takes, looking through optional, default, nullable and pipes. */
function baseKind(schema: AnySchema): string {
  let current: AnySchema | undefined = schema;
  for (let depth = 0; current && depth < 10; depth += 1) {
    const def: AnySchema['_zod']['def'] = current._zod.def;
    if (['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch'].includes(def.type)) {
      current = def.innerType;
    } else if (def.type === 'pipe') {
      current = def.in;
    } else {
      return def.type;
    }
  }
  return 'unknown';
}

function objectShape(schema: unknown): Record<string, AnySchema> | undefined {
  let current = schema as AnySchema | undefined;
  for (let depth = 0; current && depth < 10; depth += 1) {
    const def = current._zod.def as AnySchema['_zod']['def'] & { shape?: Record<string, AnySchema> };
    if (def.type === 'object') return def.shape;
    current = def.type === 'pipe' ? def.in : def.innerType;
  }
  return undefined;
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Query and path values are text; a field that takes a number or a yes/no gets one when the
 * text is exactly that ("2", "true"/"false"), and otherwise the text, for zod to refuse with
 * its message. Nothing in the shared schemas changes.
 */
function fromText(kind: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if ((kind === 'number' || kind === 'int') && NUMBER.test(value)) return Number(value);
  if (kind === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function inputFor(entry: PublishedProcedure, request: FastifyRequest): unknown {
  const parser = entry.procedure._def.inputs[0] as AnySchema | undefined;
  if (!parser || baseKind(parser) === 'void') return undefined;
  const shape = objectShape(parser) ?? {};
  const params = Object.fromEntries(
    Object.entries((request.params ?? {}) as Record<string, string>).map(([key, value]) => [
      key,
      shape[key] ? fromText(baseKind(shape[key]), value) : value,
    ]),
  );
  if (entry.method === 'GET' || entry.method === 'DELETE') {
    const query = Object.fromEntries(
      Object.entries((request.query ?? {}) as Record<string, unknown>).map(([key, value]) => [
        key,
        shape[key] ? fromText(baseKind(shape[key]), value) : value,
      ]),
    );
    return { ...query, ...params };
  }
  const body = request.body;
  if (body === undefined || body === null) {
    if (Object.keys(params).length) return params;
    return parser.safeParse(undefined).success ? undefined : {};
  }
  if (typeof body !== 'object' || Array.isArray(body)) return body;
  return { ...(body as Record<string, unknown>), ...params };
}

// ---- routes -----------------------------------------------------------------------------------

type CallerFn = (input: unknown) => Promise<unknown>;

function callerFor(ctx: Context, path: string): CallerFn {
  const caller = appRouter.createCaller(ctx) as unknown as Record<string, unknown>;
  return path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as CallerFn;
}

/**
 * The answer of a procedure /trpc trusts (trpc.ts withTrustedOutput), checked here against its
 * schema as tRPC's output middleware would: the REST API's answers are what its document says.
 */
export async function validOutput(entry: Pick<PublishedProcedure, 'procedure'>, answer: unknown) {
  const schema = entry.procedure._def.output as z.ZodType;
  const result = await schema.safeParseAsync(answer);
  if (!result.success) {
    throw new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      message: 'Output validation failed',
      cause: result.error,
    });
  }
  return result.data;
}

export async function registerRestApi(app: FastifyInstance, options: RestApiOptions): Promise<void> {
  const published = publishedProcedures();
  const document = buildOpenApiDocument();
  // Served copy: this site first, so "Try it out" in the docs calls the site it is on.
  const served = {
    ...document,
    servers: [{ url: REST_PREFIX, description: 'This site' }, ...(document.servers ?? [])],
  };

  await app.register(
    async (scope) => {
      scope.setNotFoundHandler((request, reply) =>
        sendError(reply, 404, {
          code: 'NOT_FOUND',
          message: `There is no ${request.method} ${request.url.split('?')[0]}. The operations are listed in ${REST_PREFIX}/openapi.json.`,
        }),
      );
      scope.setErrorHandler(
        (error: { statusCode?: number; message: string; code?: string }, request, reply) => {
          const status =
            error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
          if (status >= 500) {
            request.log.error({ err: error }, 'REST request failed');
            return sendError(reply, 500, { code: 'INTERNAL_SERVER_ERROR', message: INTERNAL_MESSAGE });
          }
          // Fastify's own refusals: a body that is not JSON, one too large, a bad content type.
          const code =
            status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST';
          const message =
            status === 415
              ? 'Send the request body as JSON (content-type: application/json).'
              : status === 413
                ? 'The request body is too large.'
                : `The request could not be read: ${error.message}`;
          return sendError(reply, status, { code, message });
        },
      );

      scope.get('/openapi.json', requireAccess('public'), async (_request, reply) =>
        reply.header('cache-control', 'no-cache').send(served),
      );

      for (const entry of published) {
        scope.route({
          method: entry.method,
          url: entry.route.replace(/\{(\w+)\}/g, ':$1'),
          // The procedure's own level, checked by the procedure (trpc.ts) on the same checks.
          config: { access: entry.access, accessCheckedBy: 'procedure' },
          handler: async (request, reply) => {
            // Public catalogue reads may be kept by caches (security-headers.ts: no-store otherwise).
            request.publicAnswer = entry.method === 'GET' && entry.procedure._def.meta?.cache === true;
            try {
              const ctx = await options.createContext(request, reply);
              const answer = await callerFor(ctx, entry.path)(inputFor(entry, request));
              const data = hasTrustedOutput(entry.procedure) ? await validOutput(entry, answer) : answer;
              return reply
                .code(200)
                .type('application/json')
                .send(JSON.stringify(data ?? null));
            } catch (cause) {
              // A procedure's errors arrive as TRPCErrors (the error boundary mapped them);
              // anything else is a domain error, the database being unreachable (503), or a bug.
              const known = cause instanceof TRPCError ? null : asAppError(cause);
              if (known) {
                if (known !== cause) logUnavailable(request.log, cause);
                const retryAfter = retryAfterOf(known);
                if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
              }
              const error =
                cause instanceof TRPCError
                  ? cause
                  : (known?.toTRPC() ??
                    new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal error', cause }));
              if (error.code === 'INTERNAL_SERVER_ERROR') {
                request.log.error(
                  { err: error.cause ?? error, procedure: entry.path },
                  'REST operation failed',
                );
                return sendError(reply, 500, { code: error.code, message: INTERNAL_MESSAGE });
              }
              const { status, body } = errorBody(error);
              return sendError(reply, status, body);
            }
          },
        });
      }
    },
    { prefix: REST_PREFIX },
  );

  await registerDocs(app);
}

/** Swagger UI over the served document, its files from the swagger-ui-dist package (no CDN). */
async function registerDocs(app: FastifyInstance): Promise<void> {
  const require = createRequire(import.meta.url);
  const root = (require('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();
  const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Reshelf API</title>
    <link rel="stylesheet" href="${DOCS_PATH}/assets/swagger-ui.css" />
    <link rel="icon" type="image/png" href="${DOCS_PATH}/assets/favicon-32x32.png" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_PATH}/assets/swagger-ui-bundle.js"></script>
    <script src="${DOCS_PATH}/init.js"></script>
  </body>
</html>
`;
  const init = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(`${REST_PREFIX}/openapi.json`)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  persistAuthorization: false,
});
`;
  await app.register(async (scope) => {
    declareScopeAccess(scope, 'public');
    await scope.register(fastifyStatic, {
      root,
      prefix: `${DOCS_PATH}/assets/`,
      decorateReply: false,
      index: false,
      allowedPath: (pathName) => /^\/[\w.-]+\.(css|js|png)$/.test(pathName),
    });
    scope.get(DOCS_PATH, async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
    scope.get(`${DOCS_PATH}/init.js`, async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').send(init),
    );
  });
}
