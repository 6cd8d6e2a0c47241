/**
 * The access matrix for the doors outside /trpc (decision 0037): every route the app registers,
 * read from Fastify's own route list (app.doors, recorded by an onRoute hook before any route),
 * must declare its level with requireAccess (http/access.ts), or, for /trpc, leave it to each
 * procedure (access-matrix.int.test.ts walks those). Then every door is called as signed-out,
 * a buyer, a suspended account, a moderator and an admin, and must answer as its level says:
 * allowed (anything but 401 and 403), 401 or 403. Calls carry an input no door accepts, so an
 * allowed call stops at validation or "not found" and changes nothing.
 *
 * The app runs against the hosted sign-in service's stand-in, whose access tokens stay valid
 * until they expire: only the access check itself turns the suspended account away.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tierLevel } from '@reshelf/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LEVEL_PATTERN, type AccessLevel, type Door } from './http/access.ts';
import { SNAPSHOT_BOOKS } from './seed/books.ts';
import { createTestApp, type TestApp } from './testing/app.ts';
import { createUser } from './testing/auth.ts';
import { type FakeSupabase, hostedEnv, startFakeSupabase } from './testing/fake-supabase.ts';

interface Caller {
  name: string;
  anonymous?: boolean;
  suspended?: boolean;
  roles?: string[];
  tier?: string;
}

const CALLERS: Caller[] = [
  { name: 'signed out', anonymous: true },
  { name: 'buyer' },
  { name: 'suspended', suspended: true },
  { name: 'moderator', roles: ['moderator'] },
  { name: 'admin', roles: ['admin'] },
  { name: 'super_admin', tier: 'super_admin' },
];

function expected(access: AccessLevel, caller: Caller): 'allowed' | 401 | 403 {
  if (access === 'public') return 'allowed';
  if (caller.anonymous || caller.suspended) return 401;
  if (access === 'authed') return 'allowed';
  const roles = caller.roles ?? [];
  if (access === 'staff')
    return roles.some((role) => ['admin', 'moderator'].includes(role)) ? 'allowed' : 403;
  if (access === 'admin') return roles.includes('admin') ? 'allowed' : 403;
  const required = Number(access.slice('tier:'.length));
  return caller.tier && tierLevel(caller.tier) >= required ? 'allowed' : 403;
}

/** A concrete address for a route: every parameter (and wildcard) an unlikely value. */
function addressOf(url: string): string {
  return url.replace(/:\w+/g, 'matrix-x').replace(/\*$/, 'matrix-x');
}

let t: TestApp;
let fake: FakeSupabase;
let doors: Door[];
let webDist: string;
const tokens = new Map<string, string>();

beforeAll(async () => {
  // A built web of two files, so the static file routes are doors too.
  webDist = await mkdtemp(path.join(tmpdir(), 'reshelf-doors-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Reshelf</title>');
  await writeFile(path.join(webDist, 'assets', 'app-1234.js'), 'console.log(1);');
  t = await createTestApp({
    env: async (database) => {
      fake = await startFakeSupabase({ databaseUrl: database.url, snapshot: SNAPSHOT_BOOKS });
      return { ...hostedEnv(fake), WEB_DIST: webDist };
    },
  });
  doors = t.app.doors;
  const db = t.database.handle.db;
  for (const [index, caller] of CALLERS.entries()) {
    if (caller.anonymous) continue;
    const user = await createUser(db, t.services.identity, `door${index}@matrix.test`, {
      roles: caller.roles,
      tier: caller.tier,
    });
    if (caller.suspended) {
      await db
        .updateTable('auth.users')
        .set({ banned_until: new Date('9999-12-31T00:00:00Z') })
        .where('id', '=', user.id)
        .execute();
    }
    tokens.set(caller.name, user.accessToken);
  }
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
  if (webDist) await rm(webDist, { recursive: true, force: true });
});

describe('access matrix of the raw routes', () => {
  it('finds every route with a declared level (a new route without one fails here)', () => {
    expect(doors.length).toBeGreaterThan(20);
    const undeclared = doors
      .filter((door) =>
        door.access
          ? !ACCESS_LEVEL_PATTERN.test(door.access)
          : !(door.accessCheckedBy === 'procedure' && door.url.startsWith('/trpc')),
      )
      .map((door) => `${door.method} ${door.url}: ${door.access ?? 'no level'}`);
    expect(undeclared).toEqual([]);
    const urls = new Set(doors.map((door) => door.url));
    for (const known of [
      '/api/uploads/listing-photo',
      '/api/uploads/charity-logo',
      '/api/uploads/charity-listings',
      '/api/uploads/message-photo',
      '/api/admin/exports/:file',
      '/api/unsubscribe',
      '/storage/*',
      '/sitemap.xml',
      '/api/webhooks/payments/:provider',
      '/healthz',
      '/assets/app-1234.js',
    ]) {
      expect(urls).toContain(known);
    }
  });

  it('keeps each area at or above its minimum level', () => {
    const rules: [RegExp, RegExp][] = [
      [/^\/api\/admin\//, /^(staff|admin|tier:[1-4])$/],
      [/^\/api\/uploads\//, /^(authed|staff|admin|tier:[1-4])$/],
    ];
    const weakened = doors
      .filter((door) =>
        rules.some(([area, allowed]) => area.test(door.url) && !allowed.test(door.access ?? '')),
      )
      .map((door) => `${door.method} ${door.url}: ${door.access}`);
    expect(weakened).toEqual([]);
  });

  it('answers every door, for every caller, as its level says', async () => {
    const mismatches: string[] = [];
    const checked = doors.filter((door) => door.access && !['OPTIONS'].includes(door.method));
    for (const door of checked) {
      const access = door.access as AccessLevel;
      for (const caller of CALLERS) {
        const token = tokens.get(caller.name);
        const address = addressOf(door.url);
        let call = request(t.app.server)[door.method.toLowerCase() as 'get'](address);
        if (!['GET', 'HEAD'].includes(door.method)) {
          call = call.set('x-reshelf-client', 'matrix').set('content-type', 'application/json');
        }
        if (token) call = call.set('authorization', `Bearer ${token}`);
        const response = ['GET', 'HEAD'].includes(door.method) ? await call : await call.send('987654321');
        const want = expected(access, caller);
        const got = response.status === 401 || response.status === 403 ? response.status : 'allowed';
        const label = `${door.method} ${door.url} [${access}] as ${caller.name}`;
        if (got !== want) mismatches.push(`${label}: got ${response.status}, want ${want}`);
        if (response.status >= 500)
          mismatches.push(`${label}: ${response.status} ${response.text.slice(0, 200)}`);
        if (got !== 'allowed' && door.method !== 'HEAD' && typeof response.body?.message !== 'string') {
          mismatches.push(`${label}: a refusal without a message: ${response.text.slice(0, 200)}`);
        }
      }
    }
    expect(checked.length).toBeGreaterThan(20);
    expect(mismatches).toEqual([]);
  }, 180_000);
});
