/**
 * startDatabase against a PostgreSQL of one's own (Docker, self-hosted): migrations as the
 * owner (DATABASE_MIGRATION_URL), the pool as the runtime role (DATABASE_URL), and what
 * start-up says or refuses about the runtime connection (decision 0026).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from './config.ts';
import { RUNTIME_ROLE, withCredentials } from './db/runtime-role.ts';
import { startDatabase } from './runtime.ts';
import { createEmptyDatabase } from './testing/db.ts';

let database: Awaited<ReturnType<typeof createEmptyDatabase>>;
const password = randomBytes(12).toString('hex');
const NO_BYPASS = `reshelf_nobypass_${randomBytes(3).toString('hex')}`;

function logger() {
  const lines: string[] = [];
  return {
    lines,
    log: {
      info: (line: string) => lines.push(`info ${line}`),
      warn: (line: string) => lines.push(`warn ${line}`),
      debug: () => {},
    },
  };
}

async function asOwner(work: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  database = await createEmptyDatabase();
});

afterAll(async () => {
  await asOwner((client) =>
    client.query(`drop owned by ${NO_BYPASS}; drop role if exists ${NO_BYPASS}`),
  ).catch(() => {});
  await database.drop();
});

describe('the runtime connection of a PostgreSQL of your own', () => {
  it('migrates as the owner and serves as the runtime role', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_MIGRATION_URL: database.url,
      DATABASE_URL: withCredentials(database.url, RUNTIME_ROLE, inject('pgAppPassword')),
    });
    const { lines, log } = logger();
    const running = await startDatabase(config, log);
    try {
      expect(running.ownerUrl).toBe(database.url);
      expect(running.runtimeRole).toMatchObject({ role: RUNTIME_ROLE, superuser: false, ownsTables: false });
      expect(lines).toContain(
        'info database: the BFF connects as reshelf_app (not superuser, owns no tables)',
      );
      const { rows } = await running.handle.pool.query<{ user: string; migrations: number }>(
        'select current_user as user, (select count(*)::int from public.schema_migrations) as migrations',
      );
      expect(rows[0]!.user).toBe(RUNTIME_ROLE);
      expect(rows[0]!.migrations).toBeGreaterThan(20);
    } finally {
      await running.stop();
    }
  });

  it('warns when the only connection is the owner: grants and policies are then no second wall', async () => {
    const { lines, log } = logger();
    const running = await startDatabase(loadConfig({ NODE_ENV: 'test', DATABASE_URL: database.url }), log);
    await running.stop();
    expect(lines.filter((line) => line.startsWith('warn'))).toEqual([
      'warn database: the BFF connects as postgres, which is a superuser: grants and policies are no second wall. ' +
        'Connect as the runtime role reshelf_app (DATABASE_URL) and keep the owner for migrations (DATABASE_MIGRATION_URL): docker/README.md.',
    ]);
  });

  it('says what to do when the runtime role cannot connect', async () => {
    const { log } = logger();
    await expect(
      startDatabase(
        loadConfig({
          NODE_ENV: 'test',
          DATABASE_MIGRATION_URL: database.url,
          DATABASE_URL: withCredentials(database.url, 'nobody_here', 'wrong'),
        }),
        log,
      ),
    ).rejects.toThrow(
      /^Could not connect to the database as nobody_here \(DATABASE_URL\): password authentication failed for user "nobody_here"\. Check its password, or give it a login as the owner/,
    );
  });

  it('refuses a runtime role that could not see a row, saying what to run', async () => {
    await asOwner((client) =>
      client.query(`create role ${NO_BYPASS} login password '${password}' nobypassrls;
        grant select, insert, update, delete on all tables in schema public to ${NO_BYPASS};`),
    );
    const { log } = logger();
    await expect(
      startDatabase(
        loadConfig({
          NODE_ENV: 'test',
          DATABASE_MIGRATION_URL: database.url,
          DATABASE_URL: withCredentials(database.url, NO_BYPASS, password),
        }),
        log,
      ),
    ).rejects.toThrow(
      `The database role ${NO_BYPASS} (DATABASE_URL) cannot bypass row-level security, so the BFF would see no rows: run \`alter role ${NO_BYPASS} bypassrls;\``,
    );
  });

  it('refuses a runtime role without the grants the BFF needs, naming them', async () => {
    await asOwner((client) =>
      client.query(`alter role ${NO_BYPASS} bypassrls; revoke insert, update, delete on public.orders from ${NO_BYPASS};
        revoke select on auth.users from ${NO_BYPASS};`),
    );
    const { log } = logger();
    await expect(
      startDatabase(
        loadConfig({
          NODE_ENV: 'test',
          DATABASE_MIGRATION_URL: database.url,
          DATABASE_URL: withCredentials(database.url, NO_BYPASS, password),
        }),
        log,
      ),
    ).rejects.toThrow(
      `The database role ${NO_BYPASS} (DATABASE_URL) lacks privileges the BFF needs: SELECT on auth.users; INSERT, UPDATE, DELETE on public.orders.`,
    );
  });
});
