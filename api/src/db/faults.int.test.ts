/**
 * The database layer when PostgreSQL misbehaves (decision 0024): a connection that dies while a
 * request holds it is an error for that request, never a crash; LISTEN comes back by itself; a
 * pool whose queue is full refuses at once instead of queueing; /readyz's probe does not queue
 * behind the requests.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { infrastructureFailure, PoolSaturatedError } from '../errors.ts';
import { createTestDatabase, type TestDatabase } from '../testing/db.ts';
import { startDatabaseProxy } from '../testing/db-proxy.ts';
import { createDatabase } from './index.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
});

/** Ends a server process from outside, as a restart or an operator would. */
async function terminate(where: string, ...values: unknown[]): Promise<number> {
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    const result = await admin.query<{ count: string }>(
      `select count(pg_terminate_backend(pid)) as count from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and ${where}`,
      values,
    );
    return Number(result.rows[0]?.count ?? 0);
  } finally {
    await admin.end();
  }
}

describe('a connection lost while in use', () => {
  it('fails the statement that was running, does not end the process, and the pool carries on', async () => {
    const handle = createDatabase(database.url, { max: 2 });
    try {
      const failure = await handle.db
        .connection()
        .execute(async (connection) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection);
          const running = sql`select pg_sleep(30)`.execute(connection).then(
            () => null,
            (error: unknown) => error,
          );
          await vi.waitFor(
            async () => expect(await terminate('pid = $1 and state = $2', rows[0]!.pid, 'active')).toBe(1),
            { timeout: 10_000, interval: 50 },
          );
          return running;
        })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(infrastructureFailure(failure)).toBe('database');

      // The pinned connection was held, idle, when its server went away: pg emits 'error' on it.
      await handle.db.connection().execute(async (connection) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection);
        expect(await terminate('pid = $1', rows[0]!.pid)).toBe(1);
        await expect(sql`select 1`.execute(connection)).rejects.toSatisfy(
          (error) => infrastructureFailure(error) === 'database',
        );
      });

      const { rows } = await sql<{ ok: number }>`select 1 as ok`.execute(handle.db);
      expect(rows).toEqual([{ ok: 1 }]);
    } finally {
      await handle.close();
    }
  });
});

describe('LISTEN', () => {
  it('reconnects by itself after its connection is ended, and hears notifications again', async () => {
    const handle = createDatabase(database.url, { max: 2 });
    const heard: string[] = [];
    let connected = 0;
    const stop = await handle.listen(
      'reshelf_fault_test',
      (payload) => heard.push(payload),
      () => {
        connected += 1;
      },
    );
    try {
      expect(connected).toBe(1);
      expect(await terminate(`application_name = 'reshelf-api-listen'`)).toBe(1);
      await vi.waitFor(() => expect(connected).toBeGreaterThanOrEqual(3), { timeout: 10_000, interval: 50 });
      // Told once when the connection was lost, once when it was back: re-read what may have changed.
      await vi.waitFor(
        async () => {
          await sql`select pg_notify('reshelf_fault_test', 'after')`.execute(database.handle.db);
          expect(heard).toContain('after');
        },
        { timeout: 10_000, interval: 200 },
      );
    } finally {
      await stop();
      await handle.close();
    }
  });

  it('keeps trying, further apart each time, while the database cannot be reached', async () => {
    const proxy = await startDatabaseProxy(database.url);
    const handle = createDatabase(proxy.url, { max: 1 });
    let connected = 0;
    const stop = await handle.listen(
      'reshelf_fault_test',
      () => {},
      () => {
        connected += 1;
      },
    );
    try {
      proxy.cut();
      await vi.waitFor(() => expect(connected).toBe(2), { timeout: 10_000, interval: 20 });
      proxy.restore();
      await vi.waitFor(() => expect(connected).toBe(3), { timeout: 15_000, interval: 50 });
    } finally {
      await stop();
      await handle.close();
      await proxy.close();
    }
  });
});

describe('a saturated pool', () => {
  it('refuses at once beyond its bound of waiting requests, and /readyz still answers', async () => {
    const handle = createDatabase(database.url, { max: 1, maxWaiting: 2 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      const holder = handle.db.connection().execute(async (connection) => {
        await sql`select 1`.execute(connection);
        await held;
      });
      await vi.waitFor(() => expect(handle.poolStats()).toMatchObject({ total: 1, idle: 0 }));
      const waiting = [1, 2].map((n) => sql<{ n: number }>`select ${n}::int as n`.execute(handle.db));
      await vi.waitFor(() => expect(handle.poolStats().waiting).toBe(2));
      expect(handle.saturated()).toBe(true);

      await expect(sql`select 3`.execute(handle.db)).rejects.toBeInstanceOf(PoolSaturatedError);
      await expect(handle.pool.query('select 3')).rejects.toBeInstanceOf(PoolSaturatedError);
      expect(infrastructureFailure(new PoolSaturatedError(2))).toBe('overloaded');
      expect(await handle.ping()).toBe(true);

      release();
      await holder;
      expect((await Promise.all(waiting)).map((result) => result.rows[0]!.n)).toEqual([1, 2]);
      expect(handle.saturated()).toBe(false);
    } finally {
      release();
      await handle.close();
    }
  });
});
