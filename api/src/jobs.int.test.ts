/**
 * The job runner while the database comes and goes (decision 0024): it never stops for good,
 * retries sooner than its interval but further apart each time while PostgreSQL is away, and
 * runs every job again once it is back.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDatabase, type DatabaseHandle } from './db/index.ts';
import { JOBS, startJobRunner } from './jobs.ts';
import { createMailer } from './platform/mail/mailer.ts';
import { createDevTransport } from './platform/mail/transports.ts';
import { createTestProvider } from './platform/payments/test-provider.ts';
import { createEmbeddedStorage } from './platform/storage/embedded.ts';
import { createSecrets } from './secrets.ts';
import { createTestDatabase, type TestDatabase } from './testing/db.ts';
import { type DatabaseProxy, startDatabaseProxy } from './testing/db-proxy.ts';

let database: TestDatabase;
let proxy: DatabaseProxy;
let handle: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  proxy = await startDatabaseProxy(database.url);
  handle = createDatabase(proxy.url, { max: 2 });
});

afterAll(async () => {
  await handle.close();
  await proxy.close();
  await database.drop();
});

describe('the job runner', () => {
  it('backs off while the database is unreachable and resumes every job when it is back', async () => {
    const rounds: { ok: boolean; nextInMs: number }[] = [];
    const logged: string[] = [];
    proxy.cut();
    const stop = startJobRunner(
      {
        db: handle.db,
        payments: createTestProvider({ secrets: createSecrets('x'.repeat(32)) }),
        mailer: createMailer({
          db: handle.db,
          transport: createDevTransport(),
          from: 'Reshelf <no-reply@reshelf.test>',
          secrets: createSecrets('x'.repeat(32)),
          origin: 'http://shop.test',
        }),
        // Never written to here: the jobs only find the database unreachable.
        storage: createEmbeddedStorage(path.join(tmpdir(), 'reshelf-jobs-storage')),
        origin: 'http://shop.test',
      },
      {
        firstRunMs: 0,
        intervalMs: 60_000,
        backoff: { baseMs: 40, capMs: 300 },
        log: (message) => logged.push(message),
        onRound: (round) => rounds.push(round),
      },
    );
    try {
      await vi.waitFor(() => expect(rounds.length).toBeGreaterThanOrEqual(5), { timeout: 15_000 });
      expect(rounds.slice(0, 5).every((round) => !round.ok)).toBe(true);
      // Doubling from 40 ms (each drawn from the upper half of its range), never past the cap.
      const waits = rounds.slice(0, 5).map((round) => round.nextInMs);
      expect(waits[0]).toBeLessThanOrEqual(40);
      expect(waits[3]).toBeGreaterThanOrEqual(150);
      for (const wait of waits) expect(wait).toBeLessThanOrEqual(300);
      // One line when the outage began, not one per attempt.
      expect(logged.filter((line) => line.startsWith('jobs paused'))).toHaveLength(1);

      proxy.restore();
      await vi.waitFor(() => expect(rounds.at(-1)).toEqual({ ok: true, nextInMs: 60_000 }), {
        timeout: 15_000,
      });
      expect(logged).toContain('jobs resumed: the database answers again');
      const ran = await database.handle.db.selectFrom('job_runs').select(['job', 'error']).execute();
      expect(new Set(ran.map((run) => run.job))).toEqual(new Set(Object.keys(JOBS)));
      expect(ran.every((run) => run.error === null)).toBe(true);
    } finally {
      await stop();
    }
  });
});
