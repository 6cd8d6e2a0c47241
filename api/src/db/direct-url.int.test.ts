/**
 * DATABASE_DIRECT_URL (decision 0032): what needs a session — LISTEN and the job runner's
 * session-level advisory locks — goes to the session connection, not the pool's (which may be a
 * transaction pooler, where neither works). Here the two strings name two different databases,
 * so where each thing happens can be seen.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/db.ts';
import { until } from '../testing/until.ts';
import { createDatabase, type DatabaseHandle } from './index.ts';

let pooled: TestDatabase;
let direct: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  [pooled, direct] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  handle = createDatabase(pooled.url, { max: 2, sessionConnectionString: direct.url });
});

afterAll(async () => {
  await handle?.close();
  await pooled?.drop();
  await direct?.drop();
});

async function notify(url: string, channel: string, payload: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_notify($1, $2)', [channel, payload]);
  } finally {
    await client.end();
  }
}

describe('the session connection', () => {
  it('LISTENs on the direct connection', async () => {
    const heard: string[] = [];
    const stop = await handle.listen('direct_test', (payload) => heard.push(payload));
    try {
      await notify(pooled.url, 'direct_test', 'on the pool’s database');
      await notify(direct.url, 'direct_test', 'on the direct database');
      await until(() => heard.length > 0, 'a notification');
      expect(heard).toEqual(['on the direct database']);
    } finally {
      await stop();
    }
  });

  it('takes session-level advisory locks on the direct connection, one holder at a time', async () => {
    const release = await handle.tryAdvisoryLock('job:direct-test');
    expect(release).not.toBeNull();
    const held = await direct.handle.pool.query<{ count: string }>(
      `select count(*)::text as count from pg_locks l join pg_database d on d.oid = l.database
       where l.locktype = 'advisory' and d.datname = current_database()`,
    );
    expect(held.rows[0]!.count).toBe('1');
    expect(await handle.tryAdvisoryLock('job:direct-test')).toBeNull();
    await release!();
    const again = await handle.tryAdvisoryLock('job:direct-test');
    expect(again).not.toBeNull();
    await again!();
  });
});
