/**
 * The hostile-input sweep, generated from the router (no hand list): every procedure whose
 * input has text in it is called through the real app, as a caller every access level admits
 * (staff admin and super_admin), with
 *   - a NUL character in each text field            → 400 naming the field
 *   - half of a surrogate pair in each text field   → 400 naming the field (jsonb refuses it)
 *   - 10 KB of text in each text field              → a 4xx naming the problem, or a 2xx when
 *                                                      the schema accepts it; never a 5xx
 *   - the wrong type at each field (a number for text, an object for a list, text for a
 *     number...) and for the whole input           → 4xx with a message
 *   - a body larger than the body limit             → 413 with a message
 * and no answer may be a 5xx. The other fields of each call are a sample value that the
 * procedure's own schema accepts (built from the schema), so the hostile part reaches as deep
 * as it can: through validation and into the handler.
 */
import { fieldName, LONE_SURROGATE_MESSAGE, NUL_MESSAGE } from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { BODY_LIMIT } from './app.ts';
import { appRouter } from './router.ts';
import { createTestApp, type TestApp } from './testing/app.ts';
import { createUser, TEST_PASSWORD } from './testing/auth.ts';

type Path = (string | number)[];
type Def = {
  type: string;
  shape?: Record<string, Schema>;
  element?: Schema;
  innerType?: Schema;
  in?: Schema;
  options?: Schema[];
  left?: Schema;
  right?: Schema;
  keyType?: Schema;
  valueType?: Schema;
  items?: Schema[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  getter?: () => Schema;
};
type Schema = z.ZodType & { _zod: { def: Def } };
type Procedure = { _def: { type: 'query' | 'mutation' | 'subscription'; inputs: Schema[] } };

const procedures = Object.entries(
  (appRouter as unknown as { _def: { procedures: Record<string, Procedure> } })._def.procedures,
);

const UUID = '7d5b1a52-3c1e-4f43-9a3e-2f4b6f9c0d11';
const STRING_CANDIDATES = [
  'Sample text for a field',
  UUID,
  'sample@example.com',
  'https://example.com/sample',
  '9780140449136',
  '0140449132',
  'sample-slug',
  '2026-01-15',
  '2026-01-15T10:00:00.000Z',
  '2026-01',
  'OX1 1AA',
  '1148393',
  'D-00123',
  'SAVE10',
  '/account',
  'like_new',
  '0123456789abcdef0123456789abcdef',
  'A long enough password 123!',
  'sample',
  'a',
];
const NUMBER_CANDIDATES = [1, 100, 500, 0, 2026, 0.5];

async function accepts(schema: Schema, value: unknown): Promise<boolean> {
  try {
    return (await schema.safeParseAsync(value)).success;
  } catch {
    return false;
  }
}

/** A value the schema accepts where one can be found (optional fields included), else a guess. */
async function sample(schema: Schema, depth = 0): Promise<unknown> {
  const guess = await guessFor(schema, depth);
  if (guess !== undefined && (await accepts(schema, guess))) return guess;
  // Wrappers (pipes, refinements of text) may want one of the common shapes instead.
  for (const candidate of [...STRING_CANDIDATES, ...NUMBER_CANDIDATES, false, true]) {
    if (await accepts(schema, candidate)) return candidate;
  }
  return guess;
}

async function guessFor(schema: Schema, depth: number): Promise<unknown> {
  if (depth > 12) return undefined;
  const def = schema._zod.def;
  const first = async (candidates: unknown[]) => {
    for (const candidate of candidates) if (await accepts(schema, candidate)) return candidate;
    return candidates[0];
  };
  switch (def.type) {
    case 'string':
    case 'template_literal':
      return first(STRING_CANDIDATES);
    case 'number':
    case 'int':
      return first(NUMBER_CANDIDATES);
    case 'boolean':
      return first([false, true]);
    case 'enum':
      return first(Object.values(def.entries ?? {}));
    case 'literal':
      return def.values?.[0];
    case 'null':
      return null;
    case 'any':
    case 'unknown':
      return 'sample';
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(def.shape ?? {})) {
        const item = await sample(child, depth + 1);
        if (item !== undefined) value[key] = item;
      }
      return value;
    }
    case 'array': {
      const item = await sample(def.element as Schema, depth + 1);
      for (let length = 1; length <= 5; length += 1) {
        const candidate = Array.from({ length }, () => structuredClone(item));
        if (await accepts(schema, candidate)) return candidate;
      }
      return [item];
    }
    case 'tuple':
      return Promise.all((def.items ?? []).map((item) => sample(item, depth + 1)));
    case 'record': {
      const key = await sample(def.keyType as Schema, depth + 1);
      return { [typeof key === 'string' ? key : 'sample']: await sample(def.valueType as Schema, depth + 1) };
    }
    case 'union': {
      const candidates = await Promise.all((def.options ?? []).map((option) => sample(option, depth + 1)));
      return first(candidates);
    }
    case 'intersection': {
      const left = await sample(def.left as Schema, depth + 1);
      const right = await sample(def.right as Schema, depth + 1);
      return typeof left === 'object' && typeof right === 'object' ? { ...left, ...right } : left;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return sample(def.innerType as Schema, depth + 1);
    case 'pipe':
      return sample(def.in as Schema, depth + 1);
    case 'lazy':
      return sample((def.getter as () => Schema)(), depth + 1);
    default:
      return undefined;
  }
}

/** Every leaf of a JSON value with its path (strings, numbers, booleans, nulls, and containers). */
function leaves(value: unknown, path: Path = []): { path: Path; value: unknown }[] {
  const here = [{ path, value }];
  if (Array.isArray(value))
    return [...here, ...value.flatMap((item, index) => leaves(item, [...path, index]))];
  if (value && typeof value === 'object') {
    return [...here, ...Object.entries(value).flatMap(([key, item]) => leaves(item, [...path, key]))];
  }
  return here;
}

function replaced(value: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1) as string | number] = next;
  return copy;
}

/** A value of the wrong kind for what is there now. */
function wrongType(value: unknown): unknown {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number') return 'not a number';
  if (typeof value === 'boolean') return 'yes';
  if (value === null) return { unexpected: true };
  if (Array.isArray(value)) return { not: 'a list' };
  return 'not an object';
}

interface Variant {
  label: string;
  input: unknown;
  /** What the answer must be: a 400 with this message for the field, any 4xx, or below 500. */
  expect: { message: string } | 'refused' | 'not-5xx';
  path: Path;
}

let t: TestApp;
let token = '';

beforeAll(async () => {
  t = await createTestApp();
  const caller = await createUser(t.database.handle.db, t.services.identity, 'sweeper@example.com', {
    roles: ['admin'],
    tier: 'super_admin',
  });
  token = caller.accessToken;
}, 120_000);

afterAll(async () => {
  await t.close();
});

async function call(path: string, type: Procedure['_def']['type'], input: unknown) {
  const headers = { authorization: `Bearer ${token}` };
  if (type === 'query') {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return t.app.inject({ method: 'GET', url: `/trpc/${path}${query}`, headers });
  }
  return t.app.inject({
    method: 'POST',
    url: `/trpc/${path}`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(input ?? null),
  });
}

function messageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string }; message?: string };
    return parsed.error?.message ?? parsed.message ?? '';
  } catch {
    return '';
  }
}

/** A session that still works (a procedure may have signed the caller out). */
async function keepSignedIn() {
  const profile = await call('account.member.profile', 'query', undefined);
  if (profile.statusCode === 200) return;
  token = (await t.services.identity.signIn('sweeper@example.com', TEST_PASSWORD, {})).accessToken;
}

describe('hostile input on every procedure with text in its input', () => {
  it('answers every call with a 4xx naming the problem (or a 2xx the schema allows), never a 5xx', async () => {
    const problems: string[] = [];
    const counts = { procedures: 0, reachable: 0, calls: 0 };
    for (const [path, procedure] of procedures) {
      const parser = procedure._def.inputs[0];
      if (!parser || procedure._def.type === 'subscription') continue;
      const base = await sample(parser);
      const all = leaves(base);
      const strings = all.filter((leaf) => typeof leaf.value === 'string');
      if (strings.length === 0) continue;
      counts.procedures += 1;
      if (await accepts(parser, base)) counts.reachable += 1;

      // The sample itself: it reaches the handler (mostly to be told an id does not exist).
      const variants: Variant[] = [{ label: 'the sample', input: base, expect: 'not-5xx', path: [] }];
      for (const leaf of strings) {
        const text = leaf.value as string;
        variants.push({
          label: `NUL in ${fieldName(leaf.path) || 'input'}`,
          input: replaced(base, leaf.path, `${text.slice(0, 1)}\u0000${text.slice(1)}`),
          expect: { message: NUL_MESSAGE },
          path: leaf.path,
        });
        variants.push({
          label: `half a surrogate pair in ${fieldName(leaf.path) || 'input'}`,
          input: replaced(base, leaf.path, `${text}\ud800`),
          expect: { message: LONE_SURROGATE_MESSAGE },
          path: leaf.path,
        });
        const long = replaced(base, leaf.path, 'x'.repeat(10 * 1024));
        variants.push({
          label: `10 KB in ${fieldName(leaf.path) || 'input'}`,
          input: long,
          expect: (await accepts(parser, long)) ? 'not-5xx' : 'refused',
          path: leaf.path,
        });
      }
      for (const leaf of all) {
        const wrong = replaced(base, leaf.path, wrongType(leaf.value));
        variants.push({
          label: `wrong type at ${fieldName(leaf.path) || 'input'}`,
          input: wrong,
          expect: (await accepts(parser, wrong)) ? 'not-5xx' : 'refused',
          path: leaf.path,
        });
      }

      for (const variant of variants) {
        const response = await call(path, procedure._def.type, variant.input);
        counts.calls += 1;
        const status = response.statusCode;
        const message = messageOf(response.body);
        const where = `${path} (${variant.label})`;
        if (status >= 500) problems.push(`${where}: ${status} ${message}`);
        else if (typeof variant.expect === 'object') {
          const want = variant.path.length
            ? `${fieldName(variant.path)}: ${variant.expect.message}`
            : variant.expect.message;
          if (status !== 400 || !message.includes(want)) {
            problems.push(`${where}: ${status} "${message}", want 400 "${want}"`);
          }
        } else if (variant.expect === 'refused' && (status < 400 || status >= 500 || message.trim() === '')) {
          problems.push(`${where}: ${status} "${message}", want a 4xx with a message`);
        }
      }

      // A body over the limit is refused before anything reads it.
      const oversized = await t.app.inject({
        method: 'POST',
        url: `/trpc/${path}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(replaced(base, strings[0]!.path, 'x'.repeat(BODY_LIMIT + 1))),
      });
      counts.calls += 1;
      if (oversized.statusCode !== 413 || !/too large/i.test(messageOf(oversized.body))) {
        problems.push(
          `${path} (oversized body): ${oversized.statusCode} "${messageOf(oversized.body)}", want 413`,
        );
      }
      await keepSignedIn();
    }
    console.info(
      `hostile-input sweep: ${counts.procedures} procedures with text inputs (${counts.reachable} with a sample their schema accepts), ${counts.calls} calls, ${problems.length} problems`,
    );
    expect(counts.procedures).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  }, 600_000);
});
