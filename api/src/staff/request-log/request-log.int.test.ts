/**
 * The request log: each API request answered through the real app becomes one line (path
 * without its query, status, duration, who), static files and health checks none; staff search
 * it by status class, method, path or procedure, request id, person and slowness, newest first
 * by keyset; others may not; lines past 14 days are pruned.
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createDatabase } from '../../db/index.ts';
import {
  createRequestLogRecorder,
  loggedPath,
  type RequestLine,
} from '../../platform/request-log/request-log.recorder.ts';
import { pruneRequestLog } from '../../platform/request-log/request-log.service.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { api, type RouterInputs, refusal, statusOf } from '../../testing/client.ts';
import { startDatabaseProxy } from '../../testing/db-proxy.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;
let member: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  moderator = await createUser(db, t.services.identity, 'moderator@requests.test', { roles: ['moderator'] });
  member = await createUser(db, t.services.identity, 'member@requests.test');
});

afterAll(async () => {
  await t.close();
});

const search = async (input: RouterInputs['staff']['requestLog']['search'] = {}) => {
  await t.app.requestLog.flush();
  return api(t.app, moderator.accessToken).staff.requestLog.search.query(input);
};

describe('the request log', () => {
  it('keeps only API paths, never their query strings', () => {
    expect(loggedPath('/trpc/catalogue.search?input=%7B%22q%22%3A%22me%40x.com%22%7D')).toBe(
      '/trpc/catalogue.search',
    );
    expect(loggedPath('/api/v1/listings?token=secret')).toBe('/api/v1/listings');
    expect(loggedPath('/payments/webhook/test')).toBe('/payments/webhook/test');
    for (const path of [
      '/healthz',
      '/readyz',
      '/assets/index.js',
      '/listing/a-book',
      '/storage/x.webp',
      '/trpcx',
    ])
      expect(loggedPath(path)).toBeNull();
  });

  it('records a signed-in call with who made it, and a failed one with its status', async () => {
    const marker = `req-${Date.now()}`;
    const ok = api(t.app, { token: member.accessToken, headers: { 'x-request-id': `${marker}-ok` } });
    expect(await statusOf(ok.account.member.profile.query())).toBe(200);
    const missing = await request(t.app.server)
      .get('/trpc/no.such.procedure?input=%7B%7D')
      .set('x-request-id', `${marker}-404`);
    expect(missing.status).toBe(404);
    await request(t.app.server).get('/healthz');

    const mine = await search({ requestId: `${marker}-ok` });
    expect(mine.rows).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/trpc/account.member.profile',
        status: 200,
        userEmail: 'member@requests.test',
      }),
    ]);
    expect(mine.rows[0]?.durationMs).toBeGreaterThanOrEqual(0);
    const notFound = await search({ requestId: `${marker}-404` });
    expect(notFound.rows).toEqual([
      expect.objectContaining({ path: '/trpc/no.such.procedure', status: 404, userEmail: null }),
    ]);
    expect((await search({ path: '/healthz' })).rows).toEqual([]);
  });

  it('filters by status class, method, procedure, person and slowness, newest first, 50 at a time', async () => {
    for (let i = 0; i < 3; i += 1) await api(t.app, member.accessToken).account.member.profile.query();
    const errors = await search({ status: '4xx' });
    expect(errors.rows.length).toBeGreaterThan(0);
    expect(errors.rows.every((row: { status: number }) => row.status >= 400 && row.status < 500)).toBe(true);

    const byProcedure = await search({
      path: 'account.member.profile',
      user: 'member@requests',
      method: 'GET',
    });
    expect(byProcedure.rows.length).toBeGreaterThanOrEqual(4);
    const ids = byProcedure.rows.map((row: { id: string }) => Number(row.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const first = await search({ path: '/trpc/', limit: 2 });
    expect(first.rows).toHaveLength(2);
    const next = await search({ path: '/trpc/', limit: 2, before: first.nextBefore ?? undefined });
    expect(Number(next.rows[0]?.id)).toBeLessThan(Number(first.rows[1]?.id));

    expect((await search({ slowerThanMs: 600_000 })).rows).toEqual([]);
  });

  it('is for staff only, and explains bad filters', async () => {
    expect(await statusOf(api(t.app, member.accessToken).staff.requestLog.search.query({}))).toBe(403);
    const bad = await refusal(
      api(t.app, moderator.accessToken).staff.requestLog.search.query({ status: '6xx' } as never),
    );
    expect(bad).toMatchObject({ status: 400 });
    expect(bad.message).toMatch(/Choose 2xx, 3xx, 4xx or 5xx/);
  });

  it('keeps lines while the database is away and writes them once it is back', async () => {
    const proxy = await startDatabaseProxy(t.database.url);
    const handle = createDatabase(proxy.url, { max: 1 });
    const problems: number[] = [];
    const recorder = createRequestLogRecorder(handle.db, {
      flushEveryMs: 60_000,
      onError: (_error, dropped) => problems.push(dropped),
    });
    const marker = `outage-${Date.now()}`;
    try {
      proxy.cut();
      for (const n of [1, 2, 3]) {
        recorder.record({
          at: new Date(),
          requestId: `${marker}-${n}`,
          method: 'GET',
          path: '/trpc/catalogue.taxonomy.public.categories',
          status: 503,
          durationMs: 1,
          userId: null,
        });
      }
      await recorder.flush();
      await recorder.flush();
      // Said once, nothing dropped.
      expect(problems).toEqual([0]);
      proxy.restore();
      await recorder.flush();
      const written = await db
        .selectFrom('request_log')
        .select('request_id')
        .where('request_id', 'like', `${marker}-%`)
        .orderBy('request_id')
        .execute();
      expect(written.map((row) => row.request_id)).toEqual([1, 2, 3].map((n) => `${marker}-${n}`));
    } finally {
      await recorder.stop();
      await handle.close();
      await proxy.close();
    }
  });

  it('prunes lines older than 14 days', async () => {
    await db
      .insertInto('request_log')
      .values({
        at: new Date(Date.now() - 15 * 86_400_000),
        request_id: 'old-line',
        method: 'GET',
        path: '/trpc/old',
        status: 200,
        duration_ms: 1,
      })
      .execute();
    expect(await pruneRequestLog(db)).toBeGreaterThanOrEqual(1);
    expect((await search({ requestId: 'old-line' })).rows).toEqual([]);
    expect((await search({ path: 'account.member.profile' })).rows.length).toBeGreaterThan(0);
  });
});

describe('what flush() guarantees', () => {
  /** A response as the recorder sees it: finished or not, then closed. */
  function response(): ServerResponse & { end(finished: boolean): void } {
    const raw = new EventEmitter() as EventEmitter & {
      writableFinished: boolean;
      end(finished: boolean): void;
    };
    raw.writableFinished = false;
    raw.end = (finished) => {
      raw.writableFinished = finished;
      raw.emit('close');
    };
    return raw as unknown as ServerResponse & { end(finished: boolean): void };
  }
  const line = (requestId: string): RequestLine => ({
    at: new Date(),
    requestId,
    method: 'GET',
    path: '/trpc/flush.test',
    status: 200,
    durationMs: 1,
    userId: null,
  });
  const written = async (requestId: string) =>
    (await db.selectFrom('request_log').select('id').where('request_id', '=', requestId).execute()).length;

  it('writes the line of every answer already sent, even one whose line is not recorded yet', async () => {
    // A long interval: only flush() writes here.
    const recorder = createRequestLogRecorder(db, { flushEveryMs: 3_600_000 });
    const sent = response();
    recorder.answering(sent); // the answer left (onSend)…
    let flushed = false;
    const flushing = recorder.flush().then(() => {
      flushed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushed).toBe(false); // …so flush() waits for its line,
    recorder.record(line('flush-late-line'), sent); // which comes once it has finished (onResponse).
    await flushing;
    expect(await written('flush-late-line')).toBe(1);
    await recorder.stop();
  });

  it('does not wait for an answer that was cut off before it finished', async () => {
    const recorder = createRequestLogRecorder(db, { flushEveryMs: 3_600_000 });
    const cut = response();
    recorder.answering(cut);
    recorder.record(line('flush-before-cut'));
    const flushing = recorder.flush();
    cut.end(false); // the client went away: no onResponse will come
    await flushing;
    expect(await written('flush-before-cut')).toBe(1);
    await recorder.stop();
  });

  it('holds through the app: a line is written by the time flush() returns after the answer', async () => {
    for (let i = 0; i < 5; i += 1) {
      const id = `flush-app-${Date.now()}-${i}`;
      const answer = await request(t.app.server).get('/trpc/no.such.procedure').set('x-request-id', id);
      expect(answer.status).toBe(404);
      await t.app.requestLog.flush();
      expect(await written(id)).toBe(1);
    }
  });
});

describe('batches and sampling', () => {
  const lineOf = (requestId: string, status: number, durationMs: number, userId: string | null = null) => ({
    at: new Date('2026-11-24T12:00:00.000Z'),
    requestId,
    method: 'GET',
    path: `/trpc/batch.test,it's "quoted"`,
    status,
    durationMs,
    userId,
  });
  const rowsLike = (prefix: string) =>
    db
      .selectFrom('request_log')
      .select(['request_id', 'at', 'method', 'path', 'status', 'duration_ms', 'user_id'])
      .where('request_id', 'like', `${prefix}%`)
      .orderBy('request_id')
      .execute();

  it('writes every column of every line, a batch at a time', async () => {
    const recorder = createRequestLogRecorder(db, { flushEveryMs: 3_600_000, batchSize: 2 });
    const prefix = `batch-${Date.now()}-`;
    for (let i = 0; i < 5; i += 1) {
      recorder.record(lineOf(`${prefix}${i}`, 200 + i, 12.5 + i, i % 2 === 0 ? member.id : null));
    }
    await recorder.flush();
    const rows = await rowsLike(prefix);
    expect(rows).toEqual(
      [0, 1, 2, 3, 4].map((i) => ({
        request_id: `${prefix}${i}`,
        at: new Date('2026-11-24T12:00:00.000Z'),
        method: 'GET',
        path: `/trpc/batch.test,it's "quoted"`,
        status: 200 + i,
        duration_ms: 12.5 + i,
        user_id: i % 2 === 0 ? member.id : null,
      })),
    );
    await recorder.stop();
  });

  it('keeps one in N fast successful requests, and every error and slow request', async () => {
    const recorder = createRequestLogRecorder(db, { flushEveryMs: 3_600_000, keepOneIn: 3 });
    const prefix = `sample-${Date.now()}-`;
    for (let i = 0; i < 6; i += 1) recorder.record(lineOf(`${prefix}fast-${i}`, 200, 3));
    recorder.record(lineOf(`${prefix}not-found`, 404, 2));
    recorder.record(lineOf(`${prefix}failed`, 500, 2));
    recorder.record(lineOf(`${prefix}slow`, 200, 800));
    await recorder.flush();
    const kept = (await rowsLike(prefix)).map((row) => row.request_id.slice(prefix.length));
    expect(kept).toEqual(['failed', 'fast-0', 'fast-3', 'not-found', 'slow']);
    await recorder.stop();
  });

  it('refuses a sampling rate that is not a whole number of 1 or more', () => {
    expect(() => createRequestLogRecorder(db, { keepOneIn: 0 })).toThrow(/whole number of 1 or more/);
    expect(() => createRequestLogRecorder(db, { keepOneIn: 2.5 })).toThrow(/whole number of 1 or more/);
  });
});
