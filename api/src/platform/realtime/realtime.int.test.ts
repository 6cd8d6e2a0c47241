/**
 * The realtime core against real PostgreSQL: two BFF instances on one database, subscribers over
 * real SSE with bearer tokens (as the app and scripts subscribe), resuming after a lost
 * connection, transactions committing out of id order, a lost LISTEN connection, and clients
 * that read too slowly, vanish, or outstay the stream's lifetime.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createDatabase, type DatabaseHandle } from '../../db/index.ts';
import { runJob } from '../../jobs.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { recordSubscription, testClient } from '../../testing/realtime.ts';
import { until } from '../../testing/until.ts';
import { RealtimeStreamEnded } from './hub.ts';
import { publish, userTopic } from './realtime.ts';

interface Event {
  kind: string;
  entityId: string | null;
  at: string;
}

let a: TestApp;
let b: FastifyInstance;
let bDatabase: DatabaseHandle;
let c: FastifyInstance;
let cDatabase: DatabaseHandle;
let urlA: string;
let urlB: string;
let urlC: string;
let alice: TestUser;
let bob: TestUser;

const quiet = new Writable({ write: (_chunk, _encoding, callback) => callback() });

async function listenOn(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Commits events for a member in one transaction, through instance A's own connection pool. */
async function publishFor(user: TestUser, ...entityIds: string[]) {
  await a.database.appHandle.db.transaction().execute((trx) =>
    publish(
      trx,
      entityIds.map((entityId) => ({ topic: userTopic(user.id), kind: 'test.event', entityId })),
    ),
  );
}

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function subscribe(url: string, user: TestUser | null, lastEventId?: string) {
  const client = testClient(url, user?.accessToken);
  return recordSubscription<Event>((handlers) =>
    client.platform.realtime.events.subscribe(lastEventId ? { lastEventId } : undefined, handlers),
  );
}

/** Until the instance has a live subscriber for each of `count` subscriptions. */
async function live(app: FastifyInstance, count = 1) {
  await until(() => app.realtime.stats().live >= count, `${count} live subscriber(s)`);
}

beforeAll(async () => {
  a = await createTestApp();
  urlA = await listenOn(a.app);
  // A second instance of the BFF on the same database, with its own pool and LISTEN connection.
  bDatabase = createDatabase(a.database.appUrl, { max: 4 });
  b = await buildApp({ config: a.config, database: bDatabase, secrets: a.secrets, logStream: quiet });
  urlB = await listenOn(b);
  // A third with short streams and small queues.
  cDatabase = createDatabase(a.database.appUrl, { max: 4 });
  c = await buildApp({
    config: a.config,
    database: cDatabase,
    secrets: a.secrets,
    logStream: quiet,
    realtime: { maxConnectionMs: 1_500, queueLimit: 5 },
  });
  urlC = await listenOn(c);
  alice = await createUser(a.database.handle.db, a.services.identity, 'alice@realtime.test');
  bob = await createUser(a.database.handle.db, a.services.identity, 'bob@realtime.test');
});

afterAll(async () => {
  await c?.close();
  await cDatabase?.close();
  await b?.close();
  await bDatabase?.close();
  await a?.close();
});

describe('realtime events', () => {
  it('reach a subscriber on another instance of the BFF', async () => {
    const onB = subscribe(urlB, alice);
    await live(b);
    await publishFor(alice, uuid(1));
    const [first] = await onB.waitFor(1);
    expect(first?.data).toMatchObject({ kind: 'test.event', entityId: uuid(1) });
    expect(first?.id).toMatch(/^\d+:\d+(:[\d.,]+)?$/);
    onB.close();
    await until(() => b.realtime.stats().subscribers === 0, 'the subscriber to leave');
  });

  it('leave nothing behind once closed: no subscriber, topic, queued event or announced answer', async () => {
    const streams = [
      ...Array.from({ length: 10 }, () => subscribe(urlB, alice)),
      ...Array.from({ length: 10 }, () => subscribe(urlB, bob)),
    ];
    await live(b, 20);
    expect(b.realtime.stats()).toMatchObject({ subscribers: 20, topics: 2 });
    // Every stream's answer is on its way, so the request log waits for each.
    expect(b.requestLog.pending).toBeGreaterThanOrEqual(20);
    await publishFor(alice, uuid(90));
    await publishFor(bob, uuid(91));
    for (const stream of streams) await stream.waitFor(1);
    for (const stream of streams) stream.close();
    await until(() => b.realtime.stats().subscribers === 0, 'every subscriber to leave');
    await until(() => b.requestLog.pending === 0, 'every stream’s answer to be settled');
    expect(b.realtime.stats()).toMatchObject({ subscribers: 0, live: 0, topics: 0, queued: 0 });
    expect(b.requestLog.pending).toBe(0);
  });

  it('resume after a lost connection with exactly the events missed, once', async () => {
    const first = subscribe(urlA, alice);
    await live(a.app);
    await publishFor(alice, uuid(10));
    await first.waitFor(1);
    const resumeFrom = first.lastEventId() as string;
    first.close();
    await until(() => a.app.realtime.stats().subscribers === 0, 'the connection to close');

    await publishFor(alice, uuid(11));
    await publishFor(alice, uuid(12));
    await publishFor(alice, uuid(13));

    // Back on the other instance, from the last event it had.
    const again = subscribe(urlB, alice, resumeFrom);
    await again.waitFor(3, 'the three missed events');
    await live(b);
    await publishFor(alice, uuid(14));
    const received = await again.waitFor(4, 'the next event');
    expect(received.map((event) => event.data.entityId)).toEqual([uuid(11), uuid(12), uuid(13), uuid(14)]);
    again.close();
  });

  it('miss nothing when transactions commit out of id order', async () => {
    const owner = new pg.Client({ connectionString: a.database.url });
    await owner.connect();
    try {
      const subscriber = subscribe(urlA, alice);
      await live(a.app);
      // The first transaction takes the lower id and stays open; the second commits first.
      await owner.query('begin');
      await owner.query(
        "insert into public.realtime_events (topic, kind, entity_id) values ($1, 'test.event', $2)",
        [userTopic(alice.id), uuid(20)],
      );
      await publishFor(alice, uuid(21));
      await subscriber.waitFor(1);
      const afterLater = subscriber.lastEventId() as string;
      subscriber.close();
      await until(() => a.app.realtime.stats().subscribers === 0, 'the connection to close');
      await owner.query('commit');

      // Resuming from "after id 21" still brings id 20, and 21 does not come twice.
      const resumed = subscribe(urlB, alice, afterLater);
      const [late] = await resumed.waitFor(1, 'the earlier id committed later');
      expect(late?.data.entityId).toBe(uuid(20));
      await live(b);
      await publishFor(alice, uuid(22));
      expect((await resumed.waitFor(2)).map((event) => event.data.entityId)).toEqual([uuid(20), uuid(22)]);

      // And live: an open transaction's event arrives when it commits, after a later one.
      await owner.query('begin');
      await owner.query(
        "insert into public.realtime_events (topic, kind, entity_id) values ($1, 'test.event', $2)",
        [userTopic(alice.id), uuid(23)],
      );
      await publishFor(alice, uuid(24));
      await resumed.waitFor(3);
      await owner.query('commit');
      expect((await resumed.waitFor(4)).map((event) => event.data.entityId).slice(2)).toEqual([
        uuid(24),
        uuid(23),
      ]);
      resumed.close();
    } finally {
      await owner.query('rollback').catch(() => {});
      await owner.end();
    }
  });

  it('arrive after the LISTEN connection was lost and came back', async () => {
    const subscriber = subscribe(urlB, alice);
    await live(b);
    // Every instance's LISTEN connections to this test's database.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'reshelf-api-listen' and datname = current_database()`.execute(
      a.database.handle.db,
    );
    await publishFor(alice, uuid(30));
    const [event] = await subscriber.waitFor(1, 'the event committed while nobody listened');
    expect(event?.data.entityId).toBe(uuid(30));
    subscriber.close();
  });

  it('are only ever a member’s own: no topic in the input, no session no stream', async () => {
    const anonymous = subscribe(urlA, null);
    await until(() => anonymous.errors.length > 0, 'the refusal');
    expect(anonymous.errors[0]?.data?.code).toBe('UNAUTHORIZED');
    anonymous.close();

    const client = testClient(urlA, alice.accessToken);
    const nosy = recordSubscription<Event>((handlers) =>
      client.platform.realtime.events.subscribe({ topic: userTopic(bob.id) } as never, handlers),
    );
    await until(() => nosy.errors.length > 0, 'the refusal');
    expect(nosy.errors[0]?.data?.code).toBe('BAD_REQUEST');
    nosy.close();

    const forged = subscribe(urlA, { ...alice, accessToken: `${alice.accessToken}x` });
    await until(() => forged.errors.length > 0, 'the refusal');
    expect(forged.errors[0]?.data?.code).toBe('UNAUTHORIZED');
    forged.close();

    const bad = subscribe(urlA, alice, 'not-a-cursor');
    await until(() => bad.errors.length > 0, 'the refusal');
    expect(bad.errors[0]?.data?.code).toBe('BAD_REQUEST');
    bad.close();

    const mine = subscribe(urlA, alice);
    await live(a.app);
    await publishFor(bob, uuid(40));
    await publishFor(alice, uuid(41));
    const [only] = await mine.waitFor(1);
    expect(only?.data.entityId).toBe(uuid(41));
    mine.close();
  });
});

describe('realtime streams', () => {
  it('end after their maximum duration, and the client reconnects and resumes', async () => {
    const subscriber = subscribe(urlC, alice);
    await until(() => subscriber.connections >= 2, 'a reconnection', 20_000);
    expect(subscriber.errors).toEqual([]);
    await live(c);
    await publishFor(alice, uuid(50));
    const [event] = await subscriber.waitFor(1);
    expect(event?.data.entityId).toBe(uuid(50));
    subscriber.close();
    await until(() => c.realtime.stats().subscribers === 0, 'the subscriber to leave');
  });

  it('drop a client that does not read, freeing its queue', async () => {
    const stream = c.realtime.subscribe({ topic: userTopic(bob.id) });
    const first = stream.next();
    await live(c);
    await publishFor(bob, uuid(60));
    expect((await first).value).toMatchObject({ event: { entityId: uuid(60) } });
    const before = c.realtime.stats().dropped;
    // More than its queue holds, while it reads nothing.
    await publishFor(bob, ...Array.from({ length: 8 }, (_, i) => uuid(61 + i)));
    await until(() => c.realtime.stats().dropped === before + 1, 'the slow subscriber to be dropped');
    expect(c.realtime.stats()).toMatchObject({ subscribers: 0, queued: 0 });
    await expect(stream.next()).rejects.toBeInstanceOf(RealtimeStreamEnded);
  });

  it('forget a client whose connection vanished', async () => {
    const request = http.get(`${urlB}/trpc/platform.realtime.events`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${bob.accessToken}` },
    });
    request.on('error', () => {});
    await live(b);
    request.destroy();
    await until(() => b.realtime.stats().subscribers === 0, 'the subscriber to be forgotten');
  });

  it('are pruned after seven days by the job runner', async () => {
    const db = a.database.handle.db;
    await db
      .insertInto('realtime_events')
      .values([
        { topic: userTopic(bob.id), kind: 'test.old', created_at: new Date(Date.now() - 8 * 86_400_000) },
        { topic: userTopic(bob.id), kind: 'test.recent', created_at: new Date(Date.now() - 6 * 86_400_000) },
      ])
      .execute();
    expect(
      await runJob(
        {
          db: a.database.appHandle.db,
          payments: a.services.payments,
          mailer: a.services.mailer,
          storage: a.services.storage,
          origin: urlA,
        },
        'realtime.prune',
      ),
    ).toBe(1);
    const kinds = await db
      .selectFrom('realtime_events')
      .select('kind')
      .where('kind', 'like', 'test.%')
      .execute();
    expect(kinds.map((row) => row.kind)).not.toContain('test.old');
    expect(kinds.map((row) => row.kind)).toContain('test.recent');
  });
});
