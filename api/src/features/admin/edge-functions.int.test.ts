/**
 * The BFF in hosted mode invokes the Edge Functions over HTTP (served by Deno as
 * `supabase functions serve` would) against the same PostgreSQL, and gets the same answers
 * as the in-process adapter.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMetrics } from '../../../../supabase/functions/_shared/admin.ts';
import { freePort } from '../../db/embedded.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser } from '../../testing/auth.ts';
import { createLocalIdentity } from '../auth/identity/local.ts';
import { createEdgeFunctions, poolClient } from './server-functions.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SERVICE_KEY = 'service-role-key-for-edge-tests';
const JWT_SECRET = 'edge-test-jwt-secret-0123456789abcdef';

let deno: ChildProcess;
let functionsUrl: string;
let t: TestApp;

async function startFunctions(databaseUrl: string): Promise<string> {
  const port = await freePort();
  deno = spawn(
    path.join(ROOT, 'node_modules/.bin/deno'),
    [
      'run',
      '--allow-net',
      '--allow-env',
      '--allow-read',
      '--allow-sys',
      '--config',
      'supabase/functions/deno.json',
      'supabase/functions/serve-all.ts',
      String(port),
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        SUPABASE_DB_URL: databaseUrl,
        SUPABASE_SERVICE_ROLE_KEY: SERVICE_KEY,
        SUPABASE_JWT_SECRET: JWT_SECRET,
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Deno did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes(`functions listening on ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    deno.stdout!.on('data', onData);
    deno.stderr!.on('data', onData);
    deno.on('exit', (code) => reject(new Error(`Deno exited (${code}):\n${output}`)));
  });
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  t = await createTestApp({
    services: async (defaults, database) => {
      functionsUrl = await startFunctions(database.url);
      return {
        ...defaults,
        // Tokens signed with the key the functions verify with (Supabase's JWT secret).
        identity: createLocalIdentity({
          db: database.handle.db,
          secrets: { key: () => Buffer.alloc(32), sign: () => '', verify: () => false },
          mailer: defaults.mailer,
          jwtKey: new TextEncoder().encode(JWT_SECRET),
        }),
        functions: createEdgeFunctions({ url: functionsUrl, serviceRoleKey: SERVICE_KEY }),
      };
    },
  });
}, 120_000);

afterAll(async () => {
  deno?.kill('SIGTERM');
  await t?.close();
});

describe('Edge Functions over HTTP (hosted mode)', () => {
  it('answers admin.metrics through admin-metrics with the same numbers as in-process', async () => {
    const db = t.database.handle.db;
    const staff = await createUser(db, t.services.identity, 'edge-staff@example.com', { roles: ['admin'] });
    for (const period of ['today', 'mtd', 'last30', 'ytd'] as const) {
      const response = await request(t.app.server)
        .get(`/trpc/admin.metrics?input=${encodeURIComponent(JSON.stringify({ period }))}`)
        .set('authorization', `Bearer ${staff.accessToken}`);
      expect(response.status).toBe(200);
      expect(response.body.result.data).toEqual(
        await adminMetrics(poolClient(t.database.handle.pool), { period }),
      );
    }
  });

  it('runs admin-cleanup-listings through the function', async () => {
    const staff = await createUser(t.database.handle.db, t.services.identity, 'edge-cleanup@example.com', {
      roles: ['moderator'],
    });
    const response = await request(t.app.server)
      .post('/trpc/admin.cleanupListings')
      .set('authorization', `Bearer ${staff.accessToken}`)
      .send({});
    expect(response.status).toBe(200);
    expect(response.body.result.data).toEqual({
      duplicates_removed: 0,
      no_image_removed: 0,
      total_deleted: 0,
    });
  });

  it('refuses callers without the service key, without a valid token, or without a staff role', async () => {
    const buyer = await createUser(t.database.handle.db, t.services.identity, 'edge-buyer@example.com');
    const post = (headers: Record<string, string>) =>
      fetch(`${functionsUrl}/functions/v1/admin-metrics`, {
        method: 'POST',
        headers,
        body: '{"period":"mtd"}',
      });
    expect((await post({ authorization: `Bearer ${buyer.accessToken}` })).status).toBe(401);
    expect((await post({ apikey: SERVICE_KEY, authorization: 'Bearer not-a-jwt' })).status).toBe(401);
    const forbidden = await post({ apikey: SERVICE_KEY, authorization: `Bearer ${buyer.accessToken}` });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({
      error: "You don't have permission to access the admin portal with your current account.",
    });
    const staff = await createUser(t.database.handle.db, t.services.identity, 'edge-input@example.com', {
      roles: ['admin'],
    });
    const bad = await post({
      apikey: SERVICE_KEY,
      authorization: `Bearer ${staff.accessToken}`,
      'x-period': '',
    });
    expect(bad.status).toBe(200);
    const badPeriod = await fetch(`${functionsUrl}/functions/v1/admin-metrics`, {
      method: 'POST',
      headers: { apikey: SERVICE_KEY, authorization: `Bearer ${staff.accessToken}` },
      body: '{"period":"fortnight"}',
    });
    expect(badPeriod.status).toBe(400);
    expect(await badPeriod.json()).toEqual({ error: 'period must be one of today, mtd, last30, ytd' });
  });
});
