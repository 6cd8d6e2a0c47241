/**
 * The public REST API's OpenAPI document, generated from the procedures whose meta has an
 * `openapi` entry (trpc-to-openapi's generator over zod-openapi). Two things are ours:
 *  - whether an operation needs a token comes from the procedure's access level (public or
 *    not), so it cannot disagree with what the server enforces;
 *  - every error has one shape, `Error` ({code, message, issues?}), and each operation lists
 *    the error statuses it can really give (see errorStatuses).
 * `pnpm openapi` writes it to openapi/openapi.json; a test fails when that file is stale.
 */
import path from 'node:path';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import packageJson from '../../package.json' with { type: 'json' };
import { REPO_ROOT } from '../paths.ts';
import { appRouter } from '../router.ts';
import type { AccessLevel, Meta } from '../trpc.ts';

export const OPENAPI_FILE = path.join(REPO_ROOT, 'openapi/openapi.json');
export const REST_PREFIX = '/api/v1';

const API_VERSION = packageJson.version;

export interface PublishedProcedure {
  path: string;
  type: 'query' | 'mutation';
  access: AccessLevel;
  method: NonNullable<Meta['openapi']>['method'];
  route: string;
  /** The operation's id in the OpenAPI document, pinned in the meta. */
  operationId: string;
  procedure: AnyProcedure;
}

// The parts of a procedure's internals the generator and the adapter read.
export interface AnyProcedure {
  _def: {
    type: 'query' | 'mutation' | 'subscription';
    meta?: Meta;
    inputs: unknown[];
    output?: unknown;
  };
}

function procedures(): [string, AnyProcedure][] {
  return Object.entries(
    (appRouter as unknown as { _def: { procedures: Record<string, AnyProcedure> } })._def.procedures,
  );
}

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Every procedure published on the REST API, by REST path then method: the document's order
 * follows the published paths, never the router's shape, so regrouping the router leaves it as it is.
 */
export function publishedProcedures(): PublishedProcedure[] {
  return procedures()
    .filter(([, procedure]) => procedure._def.meta?.openapi && procedure._def.meta.openapi.enabled !== false)
    .map(([path, procedure]) => {
      const meta = procedure._def.meta as Meta & { openapi: NonNullable<Meta['openapi']> };
      if (procedure._def.type === 'subscription')
        throw new Error(`${path}: subscriptions cannot be published`);
      // Pinned in the meta, so that regrouping the router never renames an operation.
      if (!meta.openapi.operationId) throw new Error(`${path}: a published procedure names its operationId`);
      return {
        path,
        type: procedure._def.type,
        access: meta.access ?? 'public',
        method: meta.openapi.method,
        route: meta.openapi.path,
        operationId: meta.openapi.operationId,
        procedure,
      };
    })
    .sort(
      (a, b) =>
        a.route.localeCompare(b.route, 'en') ||
        METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
    );
}

const ERROR_SCHEMA = {
  type: 'object',
  description:
    'Every error has this shape. `message` is written for people: it says what is wrong and what to do.',
  properties: {
    code: {
      type: 'string',
      description:
        'What kind of error, e.g. BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, TOO_MANY_REQUESTS',
      examples: ['NOT_FOUND'],
    },
    message: { type: 'string', examples: ['We could not find that listing.'] },
    issues: {
      type: 'array',
      description: 'For invalid input: each problem, and the field it is about.',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'The field, dotted (empty for the whole input)' },
          message: { type: 'string' },
        },
        required: ['path', 'message'],
        additionalProperties: false,
      },
    },
  },
  required: ['code', 'message'],
  additionalProperties: false,
} as const;

const ERROR_RESPONSES = {
  BadRequest: 'The input is not valid: `issues` says which field and why.',
  Unauthorized: 'No valid session or token: sign in, or the API token is unknown, revoked or expired.',
  Forbidden: 'Signed in, but not allowed: a read-only token, or a role the operation needs.',
  NotFound: 'Nothing with that id or slug.',
  TooManyRequests:
    'Too many attempts (for example with tokens that do not work): wait for Retry-After seconds.',
  ServiceUnavailable:
    'Unavailable for a moment: the database cannot be reached, or this server is too busy. Try again after Retry-After seconds; your session or token stays valid.',
  Error: 'Any other error, with the same shape.',
} as const;
type ErrorResponseName = keyof typeof ERROR_RESPONSES;

const ref = (name: ErrorResponseName) => ({ $ref: `#/components/responses/${name}` });

/** The error statuses an operation can give, from what it is. */
export function errorStatuses(options: {
  hasInput: boolean;
  hasPathParameters: boolean;
  /** Staff or a global-admin tier: anyone else is refused. */
  isRestricted: boolean;
  isMutation: boolean;
}): Record<string, ErrorResponseName> {
  return {
    ...(options.hasInput ? { '400': 'BadRequest' } : {}),
    // A refused API token is answered 401 on every operation, public ones too.
    '401': 'Unauthorized',
    ...(options.isRestricted || options.isMutation ? { '403': 'Forbidden' } : {}),
    ...(options.hasPathParameters ? { '404': 'NotFound' } : {}),
    '429': 'TooManyRequests',
    // Any operation, when the database blinks or the server sheds load (decision 0024).
    '503': 'ServiceUnavailable',
    default: 'Error',
  };
}

type Operation = {
  operationId?: string;
  parameters?: { in: string }[];
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, unknown>;
};

export function buildOpenApiDocument(): OpenAPIObject {
  const published = publishedProcedures();
  // The generator reads only `_def.procedures`; give it each published procedure with
  // `protect` set from the access level the server enforces.
  const view = {
    _def: {
      procedures: Object.fromEntries(
        published.map(({ path, procedure, access }) => [
          path,
          {
            ...procedure,
            _def: {
              ...procedure._def,
              meta: {
                ...procedure._def.meta,
                openapi: { ...procedure._def.meta?.openapi, protect: access !== 'public' },
              },
            },
          },
        ]),
      ),
    },
  };
  const document = generateOpenApiDocument(view as unknown as Parameters<typeof generateOpenApiDocument>[0], {
    title: 'Reshelf API',
    version: API_VERSION,
    description: [
      'The Reshelf marketplace for pre-loved books: the catalogue, listings, your own listings and',
      'tokens, and staff operations. Send `Authorization: Bearer <token>` with a personal API token',
      '(`rsk_…`, created in Account settings by staff, sellers and charities) or a session access',
      'token from sign-in. A read-only token is refused every change (403). Amounts are integer pence.',
    ].join(' '),
    baseUrl: REST_PREFIX,
    license: { name: 'Proprietary', identifier: 'LicenseRef-Reshelf' },
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description: 'A personal API token (rsk_…) from Account settings, or a session access token.',
      },
    },
  });

  document.servers = [
    {
      url: `{origin}${REST_PREFIX}`,
      description: 'A Reshelf site',
      variables: {
        origin: { default: 'http://localhost:3000', description: 'The site origin (PUBLIC_ORIGIN)' },
      },
    },
  ];

  const byOperationId = new Map(published.map((entry) => [entry.operationId, entry]));
  for (const item of Object.values(document.paths ?? {})) {
    for (const [method, value] of Object.entries(item as Record<string, Operation>)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const operation = value;
      const entry = byOperationId.get(operation.operationId ?? '');
      if (!entry) throw new Error(`No published procedure for operation ${operation.operationId}`);
      const parameters = operation.parameters ?? [];
      const statuses = errorStatuses({
        hasInput: parameters.length > 0 || operation.requestBody !== undefined,
        hasPathParameters: parameters.some((parameter) => parameter.in === 'path'),
        isRestricted: entry.access !== 'public' && entry.access !== 'authed',
        isMutation: entry.type === 'mutation',
      });
      const success = Object.fromEntries(
        Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status)),
      );
      operation.responses = {
        ...success,
        ...Object.fromEntries(Object.entries(statuses).map(([status, name]) => [status, ref(name)])),
      };
      // Public operations take no token, but accept one (a signed-in caller's view).
      if (entry.access === 'public') operation.security = [{}, { bearerAuth: [] }];
    }
  }

  document.components ??= {};
  const components = document.components;
  components.schemas ??= {};
  const schemas = components.schemas;
  for (const name of Object.keys(schemas)) if (name.startsWith('error.')) delete schemas[name];
  schemas.Error = ERROR_SCHEMA as never;
  components.responses = Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([name, description]) => [
      name,
      {
        description,
        ...(name === 'ServiceUnavailable'
          ? {
              headers: {
                'Retry-After': {
                  description: 'Seconds to wait before trying again.',
                  schema: { type: 'integer', minimum: 1 },
                },
              },
            }
          : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );
  return document;
}

/** The document as committed: two-space JSON with a final newline. */
export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
