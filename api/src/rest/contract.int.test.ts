/**
 * The REST contract: every operation of the committed openapi/openapi.json is called on the
 * real app (anonymous, with a staff member's read-write API token, and with their session
 * token), and every answer must have a status the document lists for that operation and a
 * body that matches the schema it gives. New operations are covered without editing this
 * file: inputs come from the document (examples, defaults, enums, then the type). Path
 * parameters come from PATH_VALUES when a path needs a real id; any other path is still
 * driven (with its example) and its documented 404 checked.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../platform/identity/api-tokens.ts';
import { seedDemoAccounts } from '../seed/demo-accounts.ts';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser } from '../testing/auth.ts';
import { OPENAPI_FILE, REST_PREFIX } from './document.ts';

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, { $ref?: string; content?: { 'application/json'?: { schema: Schema } } }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas?: Record<string, Schema>;
    responses?: Record<string, Operation['responses'][string]>;
  };
}

const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Document;
const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];
const operations = Object.entries(document.paths)
  .flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHOD_ORDER.includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  )
  // Reads first, then changes (a clean-up empties the catalogue the reads look at).
  .sort(
    (a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method) || a.path.localeCompare(b.path),
  );

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

/** A value the schema accepts: its example, default, first enum value, or one of its type. */
function sample(schema: Schema | undefined): unknown {
  if (!schema) return undefined;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return sample(options[0] as Schema);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (schema.format === 'date-time') return new Date().toISOString();
      return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
    case 'integer':
    case 'number':
      return Math.max(1, Number(schema.minimum ?? 1));
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((name) => [name, sample(properties[name])]));
    }
    default:
      return undefined;
  }
}

function responseFor(operation: Operation, status: number) {
  const response = operation.responses[String(status)] ?? operation.responses.default;
  if (!response?.$ref) return response;
  return document.components.responses?.[response.$ref.split('/').pop() ?? ''];
}

let t: TestApp;
let apiToken: string;
let sessionToken: string;
/** Path parameters that must name something real for the operation to succeed. */
let PATH_VALUES: Record<string, Record<string, string>>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.handle.db;
  // A marketplace as a first start leaves it: the demo accounts and the seed's books and orders.
  await seedDemoAccounts(db, t.services.identity);
  await t.services.functions.seedOpenLibraryRecent({ reset: false }, {});
  const admin = await createUser(db, t.services.identity, 'contract-admin@example.com', {
    roles: ['admin'],
    tier: 'super_admin',
  });
  sessionToken = admin.accessToken;
  apiToken = (
    await createApiToken(db, t.secrets, admin.id, {
      name: 'Contract test',
      scope: 'read_write',
      expiresInDays: 7,
    })
  ).token;
  const spare = await createApiToken(db, t.secrets, admin.id, {
    name: 'To revoke',
    scope: 'read',
    expiresInDays: 7,
  });
  const listing = await db
    .selectFrom('listings')
    .select('slug')
    .where('status', '=', 'active')
    .where('slug', 'is not', null)
    .orderBy('published_at', 'desc')
    .executeTakeFirstOrThrow();
  PATH_VALUES = {
    '/listings/{slug}': { slug: listing.slug as string },
    '/me/tokens/{id}': { id: spare.id },
  };
});

afterAll(async () => {
  await t?.close();
});

interface Outcome {
  who: string;
  status: number;
}

describe('the committed OpenAPI document against the running app', () => {
  it('has operations to check', () => {
    expect(operations.length).toBeGreaterThanOrEqual(10);
  });

  it('answers every operation as documented, and each one succeeds for someone', async () => {
    const problems: string[] = [];
    const succeeded = new Map<string, Outcome[]>();
    for (const { path, method, operation } of operations) {
      const known = PATH_VALUES[path];
      const parameters = operation.parameters ?? [];
      let url = `${REST_PREFIX}${path}`;
      const query: Record<string, string> = {};
      for (const parameter of parameters) {
        const value =
          parameter.in === 'path'
            ? (known?.[parameter.name] ?? sample(parameter.schema))
            : sample(parameter.schema);
        if (parameter.in === 'path')
          url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
        else if (parameter.in === 'query' && parameter.required) query[parameter.name] = String(value);
      }
      const body = operation.requestBody
        ? sample(operation.requestBody.content['application/json'].schema)
        : undefined;
      const outcomes: Outcome[] = [];
      for (const [who, token] of [
        ['anonymous', undefined],
        ['API token', apiToken],
        ['session', sessionToken],
      ] as const) {
        let call = request(t.app.server)[method as 'get'](url).query(query);
        if (token) call = call.set('authorization', `Bearer ${token}`);
        if (body !== undefined) call = call.send(body as object);
        const response = await call;
        const label = `${method.toUpperCase()} ${path} (${who}): ${response.status}`;
        outcomes.push({ who, status: response.status });
        const documented = responseFor(operation, response.status);
        if (!documented) {
          problems.push(`${label} is not a documented status`);
          continue;
        }
        const schema = documented.content?.['application/json']?.schema;
        if (!schema) {
          problems.push(`${label} has no documented JSON body`);
          continue;
        }
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        const validate = ajv.compile({ ...schema, components: document.components });
        if (!validate(response.body)) {
          problems.push(`${label} does not match its schema: ${ajv.errorsText(validate.errors)}`);
        }
        if (response.status >= 500) problems.push(`${label}: ${JSON.stringify(response.body)}`);
      }
      succeeded.set(`${method.toUpperCase()} ${path}`, outcomes);
      const needsRealPath = parameters.some((parameter) => parameter.in === 'path');
      if ((!needsRealPath || known) && !outcomes.some((outcome) => outcome.status < 300)) {
        problems.push(`${method.toUpperCase()} ${path} never succeeded: ${JSON.stringify(outcomes)}`);
      }
    }
    expect(problems).toEqual([]);
    // Spot checks that the walk really exercised access: anonymous callers are refused the
    // staff and personal operations, and the API token reached them.
    expect(succeeded.get('GET /admin/metrics')).toEqual([
      { who: 'anonymous', status: 401 },
      { who: 'API token', status: 200 },
      { who: 'session', status: 200 },
    ]);
    expect(succeeded.get('POST /me/tokens')?.map((outcome) => outcome.status)).toEqual([401, 403, 200]);
  });
});
