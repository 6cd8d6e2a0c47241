/**
 * `pnpm ops` against the real app listening on a port: each command through the typed tRPC
 * client with an API token, the dashboard's numbers, the CSV export, staff accounts and
 * roles, and the messages for no token, a read-only token, a wrong role and no server.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { formatPence } from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOps } from '../../../scripts/ops.ts';
import { freePort } from '../../db/embedded.ts';
import type { Database } from '../../db/index.ts';
import { createApiToken } from '../../platform/identity/api-tokens.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, lastEmailTo } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';
import { periodBounds } from './ops.service.ts';

const OPS_SCRIPT = fileURLToPath(new URL('../../../scripts/ops.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

let t: TestApp;
let db: Database;
let url: string;
const tokens: Record<'superWrite' | 'superRead' | 'moderator' | 'ops', string> = {
  superWrite: '',
  superRead: '',
  moderator: '',
  ops: '',
};
let dir: string;

async function ops(args: string[], token?: string, env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const code = await runOps(args, {
    env: { RESHELF_URL: url, ...(token ? { RESHELF_TOKEN: token } : {}), ...env },
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return { code, out, err };
}

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  url = `http://127.0.0.1:${address.port}`;
  const token = async (userId: string, scope: 'read' | 'read_write') =>
    (await createApiToken(db, t.secrets, userId, { name: 'ops test', scope, expiresInDays: 7 })).token;
  const superAdmin = await createUser(db, t.services.identity, 'ops-super@example.com', {
    roles: ['admin'],
    tier: 'super_admin',
  });
  tokens.superWrite = await token(superAdmin.id, 'read_write');
  tokens.superRead = await token(superAdmin.id, 'read');
  const moderator = await createUser(db, t.services.identity, 'ops-moderator@example.com', {
    roles: ['moderator'],
  });
  tokens.moderator = await token(moderator.id, 'read_write');
  const opsAdmin = await createUser(db, t.services.identity, 'ops-admin@example.com', { tier: 'ops_admin' });
  tokens.ops = await token(opsAdmin.id, 'read_write');
  dir = await mkdtemp(path.join(tmpdir(), 'reshelf-ops-'));
});

afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('pnpm ops', () => {
  it('seeds, then shows the dashboard numbers for a period', async () => {
    const seeded = await ops(['seed'], tokens.superWrite);
    expect(seeded).toMatchObject({ code: 0, out: 'Seeded demo data: 40 listings, 24 orders\n' });
    const expected = await t.services.functions.adminMetrics({ period: 'ytd' }, {});
    const metrics = await ops(['metrics', '--period', 'ytd'], tokens.superRead);
    expect(metrics.code).toBe(0);
    expect(metrics.out).toBe(
      [
        'Period: YTD',
        `Open Disputes: ${expected.disputes_open}`,
        `Active Listings: ${expected.active_listings}`,
        `Buyer Protection revenue: ${formatPence(expected.buyer_protection_minor)}`,
        '',
      ].join('\n'),
    );
    expect(expected.active_listings).toBe(40);
    const json = await ops(['metrics', '--period', 'today', '--json'], tokens.superRead);
    expect(JSON.parse(json.out)).toEqual(await t.services.functions.adminMetrics({ period: 'today' }, {}));
  });

  it('exports the orders paid in a period as CSV', async () => {
    const file = path.join(dir, 'orders.csv');
    const result = await ops(['export-orders', '--period', 'ytd', '--out', file], tokens.ops);
    expect(result.code).toBe(0);
    const ytd = await periodBounds(db, 'ytd');
    const paid = await db
      .selectFrom('orders')
      .select(['reference', 'total_minor'])
      .where('paid_at', '>=', ytd.starts_at)
      .where('paid_at', '<=', new Date())
      .execute();
    expect(paid.length).toBeGreaterThan(0);
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'reference,status,paid_at,created_at,dispatched_at,delivered_at,completed_at,cancelled_at,refunded_at,title,isbn13,charity,seller_id,buyer_id,items,item_gbp,bundle_discount_gbp,postage_gbp,buyer_protection_gbp,discount_gbp,total_gbp',
    );
    expect(lines.length - 1).toBe(paid.length);
    expect(result.err).toBe(`Wrote ${paid.length} orders paid YTD to ${file}\n`);
    const first = paid.find((order) => lines[1]!.startsWith(`${order.reference},`))!;
    expect(lines[1]!.endsWith(`,${(first.total_minor / 100).toFixed(2)}`)).toBe(true);
    // Without --out, the CSV goes to stdout.
    const today = await ops(['export-orders', '--period', 'today'], tokens.ops);
    expect(today.out.split('\r\n')[0]).toBe(lines[0]);
  });

  it('exports an order of several books as one row naming every book (decision 0043)', async () => {
    const seller = await createUser(db, t.services.identity, 'ops-bundle-seller@example.com');
    const buyer = await createUser(db, t.services.identity, 'ops-bundle-buyer@example.com');
    const listings: string[] = [];
    for (const [title, isbn13, price] of [
      ['Bundle First', '9780140449136', 600],
      ['Bundle Second', null, 400],
    ] as const) {
      const bookId = await createBook(db, { title, isbn13 });
      listings.push((await createListing(db, { sellerId: seller.id, bookId, price, status: 'sold' })).id);
    }
    await db.transaction().execute(async (trx) => {
      const order = await trx
        .insertInto('orders')
        .values({
          buyer_id: buyer.id,
          seller_id: seller.id,
          status: 'paid',
          item_price_minor: 1000,
          bundle_discount_minor: 50,
          postage_minor: 399,
          buyer_protection_minor: 118,
          total_minor: 1000 - 50 + 399 + 118,
          paid_at: new Date(),
        })
        .returning(['id', 'reference'])
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('order_items')
        .values([
          {
            order_id: order.id,
            listing_id: listings[0]!,
            position: 1,
            price_minor: 600,
            bundle_discount_minor: 30,
            protection_minor: 71,
          },
          {
            order_id: order.id,
            listing_id: listings[1]!,
            position: 2,
            price_minor: 400,
            bundle_discount_minor: 20,
            protection_minor: 47,
          },
        ])
        .execute();
    });
    const result = await ops(['export-orders', '--period', 'today'], tokens.ops);
    expect(result.code).toBe(0);
    const row = result.out.split('\r\n').find((line) => line.includes('Bundle First'));
    expect(row).toContain(',Bundle First | Bundle Second,9780140449136 | ,');
    expect(row).toMatch(/,2,10\.00,0\.50,3\.99,1\.18,0\.00,14\.67$/);
    const json = JSON.parse((await ops(['export-orders', '--period', 'today', '--json'], tokens.ops)).out);
    const order = json.orders.find((o: { title: string }) => o.title === 'Bundle First');
    expect(
      order.items.map((item: { title: string; priceMinor: number }) => [item.title, item.priceMinor]),
    ).toEqual([
      ['Bundle First', 600],
      ['Bundle Second', 400],
    ]);
  });

  it('resets and seeds; previews the clean-up (staff) and runs it (admins)', async () => {
    const reset = await ops(['reset-seed'], tokens.superWrite);
    expect(reset.out).toBe('Reset and seeded: 40 listings, 24 orders\n');
    // A listing without any image, so there is something to clean up.
    const seller = await createUser(db, t.services.identity, 'ops-seller@example.com');
    await createListing(db, {
      sellerId: seller.id,
      bookId: await createBook(db, { title: 'The Faceless Folio' }),
    });
    const preview = await ops(['cleanup', '--dry-run'], tokens.moderator);
    expect(preview).toMatchObject({ code: 0, err: '' });
    expect(preview.out).toBe(
      'Would withdraw: 0 duplicates, 1 without an image, 1 in all\n  no image   “The Faceless Folio” (ops-seller)\n',
    );
    const refused = await ops(['cleanup'], tokens.moderator);
    expect(refused.code).toBe(4);
    expect(refused.err).toMatch(/^Not allowed: Access denied: admin role required/);
    const cleanup = await ops(['cleanup'], tokens.superWrite);
    expect(cleanup).toMatchObject({
      code: 0,
      out: 'Cleanup complete: 0 duplicates, 1 without an image, 1 withdrawn in all\n',
    });
  });

  it('creates a staff user who is emailed a link to set a password, and refuses the same email twice', async () => {
    const created = await ops(
      ['create-staff-user', '--email', 'New.Mod@Example.com', '--name', 'New Mod', '--role', 'moderator'],
      tokens.ops,
    );
    expect(created).toMatchObject({
      code: 0,
      out: 'Created new.mod@example.com (moderator); an email to set a password is on its way.\n',
    });
    const user = await db
      .selectFrom('auth.users')
      .innerJoin('user_roles', 'user_roles.user_id', 'auth.users.id')
      .select(['auth.users.id', 'user_roles.role'])
      .where('auth.users.email', '=', 'new.mod@example.com')
      .executeTakeFirstOrThrow();
    expect(user.role).toBe('moderator');
    expect((await lastEmailTo(db, 'new.mod@example.com'))?.text_body).toMatch(/\/reset-password\?token=/);
    const again = await ops(
      ['create-staff-user', '--email', 'new.mod@example.com', '--name', 'New Mod'],
      tokens.ops,
    );
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already exists\. Give it the role with `pnpm ops grant-role`/);
  });

  it('grants and withdraws roles, tiers only for super admins', async () => {
    await createUser(db, t.services.identity, 'ops-target@example.com');
    const granted = await ops(
      ['grant-role', '--email', 'ops-target@example.com', '--role', 'admin'],
      tokens.ops,
    );
    expect(granted).toMatchObject({ code: 0, out: 'ops-target@example.com now has admin\n' });
    const tierByOps = await ops(
      ['grant-role', '--email', 'ops-target@example.com', '--role', 'support_agent'],
      tokens.ops,
    );
    expect(tierByOps.code).toBe(4);
    expect(tierByOps.err).toMatch(/super_admin role required/);
    const tier = await ops(
      ['grant-role', '--email', 'ops-target@example.com', '--role', 'support_agent'],
      tokens.superWrite,
    );
    expect(tier.code).toBe(0);
    const record = await db
      .selectFrom('admin_users')
      .innerJoin('auth.users', 'auth.users.id', 'admin_users.user_id')
      .select(['admin_role', 'is_active'])
      .where('auth.users.email', '=', 'ops-target@example.com')
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ admin_role: 'support_agent', is_active: true });
    const revoked = await ops(
      ['revoke-role', '--email', 'ops-target@example.com', '--role', 'admin'],
      tokens.ops,
    );
    expect(revoked.out).toBe('ops-target@example.com no longer has admin\n');
    const unknown = await ops(['grant-role', '--email', 'nobody@example.com', '--role', 'admin'], tokens.ops);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/No account has the email nobody@example.com/);
  });

  it('says clearly what is wrong: no token, a read-only token, a wrong role, bad usage, no server', async () => {
    const none = await ops(['metrics']);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/^No API token\. Create one in Account settings/);

    const readOnly = await ops(['seed'], tokens.superRead);
    expect(readOnly.code).toBe(4);
    expect(readOnly.err).toMatch(/This API token can only read/);

    const wrongRole = await ops(['export-orders'], tokens.moderator);
    expect(wrongRole.code).toBe(4);
    expect(wrongRole.err).toMatch(/^Not allowed: Access denied: Admin privileges required/);

    const staffOnly = await ops(['metrics'], tokens.ops);
    expect(staffOnly.code).toBe(4);
    expect(staffOnly.err).toMatch(/permission to access the admin portal/);

    const revoked = await ops(['metrics'], 'rsk_not-a-real-token-at-all-000000000000000');
    expect(revoked.code).toBe(4);
    expect(revoked.err).toMatch(/^The server refused the token: This API token is not valid/);

    const usage = await ops(['metrics', '--period', 'decade'], tokens.superRead);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/--period must be one of today, mtd, last30, ytd/);

    const port = await freePort();
    const offline = await ops(['metrics'], tokens.superRead, { RESHELF_URL: `http://127.0.0.1:${port}` });
    expect(offline.code).toBe(3);
    expect(offline.err).toMatch(
      new RegExp(`^Could not reach the Reshelf server at http://127.0.0.1:${port}`),
    );
  });

  it('runs as a command with its exit code', async () => {
    const run = promisify(execFile);
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', OPS_SCRIPT, 'metrics', '--period', 'ytd'],
      {
        cwd: ROOT,
        env: { ...process.env, RESHELF_URL: url, RESHELF_TOKEN: tokens.superRead },
      },
    );
    expect(stdout).toMatch(
      /^Period: YTD\nOpen Disputes: \d+\nActive Listings: \d+\nBuyer Protection revenue: £/,
    );
    const failed = await run(process.execPath, ['--import', 'tsx', OPS_SCRIPT, 'seed'], {
      cwd: ROOT,
      env: { ...process.env, RESHELF_URL: url, RESHELF_TOKEN: tokens.superRead },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 4 });
    expect((failed as { stderr: string }).stderr).toMatch(/can only read/);
  });
});
