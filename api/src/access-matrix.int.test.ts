/**
 * Walks every procedure of the API against every access level and checks the answer is
 * allowed, 401 or 403 as its declared level says. A procedure without a declared level
 * fails the test. Calls send an input no procedure accepts, so an allowed call stops at
 * validation (400) and changes nothing. Subscriptions are opened as the client does (GET,
 * text/event-stream) and their refusal read from the stream.
 */
import { tierLevel } from '@reshelf/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from './router.ts';
import { createTestApp, type TestApp } from './testing/app.ts';
import { createUser } from './testing/auth.ts';
import type { AccessLevel } from './trpc.ts';

interface Level {
  name: string;
  roles?: string[];
  tier?: string;
  tierActive?: boolean;
  anonymous?: boolean;
}

const LEVELS: Level[] = [
  { name: 'anonymous', anonymous: true },
  { name: 'signed in' },
  { name: 'moderator', roles: ['moderator'] },
  { name: 'admin', roles: ['admin'] },
  { name: 'admin stored upper-case', roles: ['ADMIN'] },
  { name: 'read_only', tier: 'read_only' },
  { name: 'support_agent', tier: 'support_agent' },
  { name: 'ops_admin', tier: 'ops_admin' },
  { name: 'super_admin', tier: 'super_admin' },
  { name: 'deactivated super_admin', tier: 'super_admin', tierActive: false },
];

type Procedure = { _def: { type: 'query' | 'mutation' | 'subscription'; meta?: { access?: AccessLevel } } };
const procedures = Object.entries(
  (appRouter as unknown as { _def: { procedures: Record<string, Procedure> } })._def.procedures,
);

function expected(access: AccessLevel, level: Level): 200 | 401 | 403 {
  if (access === 'public') return 200;
  if (level.anonymous) return 401;
  if (access === 'authed') return 200;
  if (access === 'staff') {
    return (level.roles ?? []).some((role) => ['admin', 'moderator'].includes(role.toLowerCase()))
      ? 200
      : 403;
  }
  if (access === 'admin') {
    return (level.roles ?? []).some((role) => role.toLowerCase() === 'admin') ? 200 : 403;
  }
  const required = Number(access.slice('tier:'.length));
  const active = level.tier && level.tierActive !== false;
  return active && tierLevel(level.tier) >= required ? 200 : 403;
}

/**
 * A subscription answers 200 and streams (server-sent events): a refusal is its first event,
 * `serialized-error`, whose HTTP status is in its data. The stream then ends (as it does after
 * the validation error an allowed call meets here).
 */
function streamStatus(body: string): number {
  const match = /event: serialized-error\ndata: (.*)\n/.exec(body);
  if (!match?.[1]) return 200;
  return (JSON.parse(match[1]) as { data?: { httpStatus?: number } }).data?.httpStatus ?? 500;
}

let t: TestApp;
const tokens = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp();
  for (const [index, level] of LEVELS.entries()) {
    if (level.anonymous) continue;
    const user = await createUser(t.database.handle.db, t.services.identity, `level${index}@matrix.test`, {
      roles: level.roles,
      tier: level.tier,
      tierActive: level.tierActive,
    });
    tokens.set(level.name, user.accessToken);
  }
});

afterAll(async () => {
  await t.close();
});

describe('access matrix', () => {
  it('finds every procedure with exactly one declared access level', () => {
    expect(procedures.length).toBeGreaterThan(10);
    const undeclared = procedures
      .filter(([, procedure]) => !procedure._def.meta?.access)
      .map(([path]) => path);
    expect(undeclared).toEqual([]);
    for (const [, procedure] of procedures) {
      expect(procedure._def.meta?.access).toMatch(/^(public|authed|staff|admin|tier:[1-4])$/);
    }
  });

  it('keeps each area at or above its minimum level, and each rule guards at least one procedure', () => {
    const STAFF_OR_ABOVE = /^(staff|admin|tier:[1-4])$/;
    const rules: [area: RegExp, allowed: RegExp][] = [
      // The staff area's own tools, and every `staff` audience of a domain.
      [/^staff\.(?!globalAdmin\.|ops\.)/, STAFF_OR_ABOVE],
      [/^staff\.(audit|emailTemplates)\./, /^(staff|admin)$/],
      [/^staff\.dashboard\.cleanupListings$/, /^admin$/],
      // Reset and Seed deletes what earlier seeds made: admins only, moderators may preview it.
      [/^staff\.dashboard\.resetAndSeed$/, /^admin$/],
      [/^staff\.globalAdmin\./, /^tier:[1-4]$/],
      [/^staff\.ops\./, /^tier:[3-4]$/],
      [/\.staff\./, STAFF_OR_ABOVE],
      [/^commerce\.(refunds|revenue|promotions)\./, STAFF_OR_ABOVE],
      [/^community\.moderation\.listings\./, STAFF_OR_ABOVE],
      // Books' staff tools; `catalogue.books.public` (search, the book page) is anyone's (decision 0081).
      [/^catalogue\.(books\.(?!public\.)\w+|discovery\.(picks|trending|bookSignings))\./, STAFF_OR_ABOVE],
      // What members call about themselves.
      [/\.member\./, /^(authed|staff|admin|tier:[1-4])$/],
      [/^account\.(member|apiTokens|notifications)\./, /^(authed|staff|admin|tier:[1-4])$/],
      [/^selling\./, /^(authed|staff|admin|tier:[1-4])$/],
      [/^commerce\.(checkout|payouts|taxReporting\.member)\./, /^(authed|staff|admin|tier:[1-4])$/],
    ];
    // A rule whose pattern matches no procedure guards nothing (the router moved under it): it fails here.
    const unmatched = rules
      .filter(([area]) => !procedures.some(([path]) => area.test(path)))
      .map(([area]) => String(area));
    expect(unmatched).toEqual([]);
    const weakened = procedures
      .filter(([path, procedure]) =>
        rules.some(([area, allowed]) => area.test(path) && !allowed.test(procedure._def.meta?.access ?? '')),
      )
      .map(([path, procedure]) => `${path}: ${procedure._def.meta?.access}`);
    expect(weakened).toEqual([]);
  });

  it('answers every procedure at every level as declared', async () => {
    const mismatches: string[] = [];
    for (const [path, procedure] of procedures) {
      const access = procedure._def.meta?.access as AccessLevel;
      for (const level of LEVELS) {
        const token = tokens.get(level.name);
        const input = encodeURIComponent(JSON.stringify(987654321));
        let call =
          procedure._def.type === 'mutation'
            ? request(t.app.server).post(`/trpc/${path}`).set('x-reshelf-client', 'matrix').send('987654321')
            : request(t.app.server).get(`/trpc/${path}?input=${input}`);
        call = call.set('content-type', 'application/json');
        if (procedure._def.type === 'subscription')
          call = call.set('accept', 'text/event-stream').buffer(true);
        if (token) call = call.set('authorization', `Bearer ${token}`);
        const response = await call;
        const want = expected(access, level);
        const status = procedure._def.type === 'subscription' ? streamStatus(response.text) : response.status;
        const got = status === 401 || status === 403 ? status : 200;
        if (got !== want)
          mismatches.push(`${path} [${access}] as ${level.name}: got ${response.status}, want ${want}`);
        if (want === 200 && status >= 500) mismatches.push(`${path} as ${level.name}: ${status}`);
      }
    }
    expect(mismatches).toEqual([]);
    // About a thousand requests one after another: a budget for a loaded machine, not a speed goal.
  }, 180_000);
});
