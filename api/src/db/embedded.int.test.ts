/**
 * The embedded PostgreSQL is ours to look after (decision 0024): killed or crashed, it is started
 * again on the same port with its data, so the site serves again without a restart.
 */
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './embedded.ts';

let dir: string;
let server: EmbeddedPostgres;
const notices: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'reshelf-embedded-'));
  await chmod(dir, 0o755);
  // Durable, not ephemeral: a commit must outlive the kill.
  server = await startEmbeddedPostgres({ dataDir: dir, notice: (line) => notices.push(line) });
});

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The running server's process, as PostgreSQL itself records it. */
async function postmasterPid(): Promise<number> {
  const text = await readFile(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').catch(() => '');
  return Number(text.split('\n')[0]);
}

async function query<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.url(), connectionTimeoutMillis: 2_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL', () => {
  it('is started again, with its data, when it is killed', async () => {
    await query('create table kept (n int); insert into kept values (42)');
    const first = await postmasterPid();
    expect(first).toBe(server.pid);
    process.kill(first, 'SIGKILL');
    await vi.waitFor(
      async () => {
        expect(await postmasterPid()).not.toBe(first);
        expect(server.pid).toBe(await postmasterPid());
        expect(await query<{ n: number }>('select n from kept')).toEqual([{ n: 42 }]);
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(notices[0]).toMatch(/^PostgreSQL stopped unexpectedly \(SIGKILL\): starting it again$/);
    expect(notices).toContain('PostgreSQL is running again');
  });

  it('refuses to open its data with another major, saying which made it', async () => {
    // Checked before anything touches the data: the running server is left alone.
    const pid = server.pid;
    await expect(startEmbeddedPostgres({ dataDir: dir, major: 17 })).rejects.toThrow(
      `The database in ${path.join(dir, 'pg')} was created by PostgreSQL 18, and this start asked for PostgreSQL 17`,
    );
    expect(await postmasterPid()).toBe(pid);
    expect(await query<{ n: number }>('select 1 as n')).toEqual([{ n: 1 }]);
  });
});
