/**
 * `pnpm bench` (second part): realtime fan-out on one BFF instance (docs/realtime.md).
 *
 * A throwaway embedded PostgreSQL, migrated; 100 members (accounts made as the tests make them,
 * each with a session and its bearer token); the real BFF in its own process (production mode);
 * then 1,000 subscriptions to `platform.realtime.events`, 10 per member, each its own SSE connection
 * opened as the native app and scripts open them (httpSubscriptionLink over the `eventsource`
 * package with `Authorization: Bearer`), from this process.
 *
 *  - Memory: the BFF's RSS (/proc/<pid>/status VmRSS) before the streams open and once every
 *    one of them has received an event (so each is live on the server, not just connected);
 *    the difference over the number of streams is the memory per connection.
 *  - Fan-out latency: each round publishes one event to all 100 members' topics in one
 *    transaction from this process (`publish`, as a feature does); the clock starts as COMMIT
 *    is sent and stops, for each of the 1,000 streams, when its client hands over the event.
 *  - CPU: the BFF's utime + stime (/proc/<pid>/stat) over the rounds, per event delivered.
 *  - Closing: every stream is closed and the bench waits for the BFF to hold none of their
 *    sockets (/proc/net/tcp); RSS is read again then.
 *
 * Writes tests/bench/results/realtime.json and prints a table. Not part of the test run.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { createDatabase } from '../../api/src/db/index.ts';
import { createLocalIdentity } from '../../api/src/platform/identity/local.ts';
import { createMailer } from '../../api/src/platform/mail/mailer.ts';
import { createDevTransport } from '../../api/src/platform/mail/transports.ts';
import { publish, userTopic } from '../../api/src/platform/realtime/realtime.ts';
import { createSecrets } from '../../api/src/secrets.ts';
import { seedReferenceData } from '../../api/src/seed/demo.ts';
import { createUser, type TestUser } from '../../api/src/testing/auth.ts';
import { testClient } from '../../api/src/testing/realtime.ts';
import {
  type Bff,
  log,
  machine as machineLine,
  percentiles,
  ROOT,
  round2,
  startBff,
  stopBff,
  throwawayDatabase,
} from './harness.ts';

const RESULTS = path.join(ROOT, 'tests/bench/results/realtime.json');
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100);
const STREAMS_PER_MEMBER = Number(process.env.BENCH_STREAMS_PER_MEMBER ?? 10);
const STREAMS = MEMBERS * STREAMS_PER_MEMBER;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
/** Streams opened at once while ramping up (each opening reads the session and the topic). */
const OPEN_BATCH = 50;
/** A stream the BFF turned away (503 while shedding load) is opened again, at most this often. */
const MAX_REOPENS = 5;
const ROUND_TIMEOUT_MS = 30_000;
const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux: /proc/<pid>/stat counts in these.

// The BFF's process, from /proc ----------------------------------------------------------------

function rssKiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]);
}

/**
 * Loaded into the BFF beside tsx (a data: URL, so nothing else changes): on SIGUSR2 it runs a
 * full garbage collection and writes process.memoryUsage() to BENCH_MEMORY_FILE. RSS alone
 * moves with whenever V8 last collected; after a full collection the figures are comparable.
 */
const MEMORY_PROBE = [
  "import { writeFileSync, renameSync } from 'node:fs';",
  "import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';",
  "import { Session } from 'node:inspector';",
  'let snapshots = 0;',
  'let signals = 0;',
  'const sampling = process.env.BENCH_ALLOCATIONS ? new Session() : undefined;',
  'sampling?.connect();',
  "process.on('SIGUSR2', () => {",
  '  signals += 1;',
  // BENCH_ALLOCATIONS=<file>: every allocation sampled (the garbage too) from the streams being live to their close.
  "  if (sampling && signals === 2) sampling.post('HeapProfiler.startSampling', { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });",
  "  if (sampling && signals === 3) sampling.post('HeapProfiler.stopSampling', (error, result) => writeFileSync(process.env.BENCH_ALLOCATIONS, JSON.stringify(result.profile)));",
  '  const beforeGc = { ...process.memoryUsage(), spaces: Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, Math.round(s.space_size / 1048576)])) };',
  '  globalThis.gc(); globalThis.gc();',
  '  const file = process.env.BENCH_MEMORY_FILE;',
  '  const dir = process.env.BENCH_HEAP_SNAPSHOTS;',
  "  if (dir) writeHeapSnapshot(dir + '/' + String(++snapshots) + '.heapsnapshot');",
  "  writeFileSync(file + '.tmp', JSON.stringify({ ...process.memoryUsage(), beforeGc }));",
  "  renameSync(file + '.tmp', file);",
  '});',
].join('\n');

interface MemoryAfterGc {
  rssKiB: number;
  heapUsedKiB: number;
  /** Memory outside the JS heap that V8 knows of (Buffers and the like). */
  externalKiB: number;
}

/** The BFF's memory right after a full collection (see MEMORY_PROBE). */
async function memoryAfterGc(pid: number, file: string): Promise<MemoryAfterGc> {
  await rm(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  const started = performance.now();
  for (;;) {
    try {
      const usage = JSON.parse(await readFile(file, 'utf8')) as NodeJS.MemoryUsage & { beforeGc: unknown };
      if (process.env.BENCH_MEMORY_DETAIL) log(`memory: ${JSON.stringify(usage)}`);
      return {
        rssKiB: usage.rss / 1024,
        heapUsedKiB: usage.heapUsed / 1024,
        externalKiB: usage.external / 1024,
      };
    } catch {
      // A heap snapshot (BENCH_HEAP_SNAPSHOTS) takes a while on a busy machine.
      const patience = process.env.BENCH_HEAP_SNAPSHOTS ? 300_000 : 30_000;
      if (performance.now() - started > patience) throw new Error('the BFF did not report its memory');
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** utime + stime of a process, in milliseconds. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name is in parentheses and may contain spaces: fields follow the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat(5), counted from 1 with pid and comm as 1 and 2.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * TCP connections the server still holds on its port: ESTABLISHED (01), or CLOSE_WAIT (08),
 * where the client has gone but the server has not yet let the socket go.
 */
function serverConnections(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      if (columns.length < 4) continue;
      const localPort = columns[1]?.split(':')[1];
      if (localPort === hexPort && (columns[3] === '01' || columns[3] === '08')) count += 1;
    }
  }
  return count;
}

async function waitFor(condition: () => boolean, what: string, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return performance.now() - started;
}

// Statistics ---------------------------------------------------------------------------------

const stats = percentiles;

// The BFF ------------------------------------------------------------------------------------

/** The BFF with the memory probe loaded and the bench's secret (so it accepts the members' tokens). */
function startRealtimeBff(databaseUrl: string, appSecret: string, memoryFile: string): Promise<Bff> {
  return startBff({
    databaseUrl,
    nodeArgs: ['--expose-gc', '--import', `data:text/javascript,${encodeURIComponent(MEMORY_PROBE)}`],
    env: {
      BENCH_MEMORY_FILE: memoryFile,
      // A heap snapshot at each measurement (1 before, 2 live, 3 after closing), for a diff.
      ...(process.env.BENCH_HEAP_SNAPSHOTS ? { BENCH_HEAP_SNAPSHOTS: process.env.BENCH_HEAP_SNAPSHOTS } : {}),
      // A sampled allocation profile (.heapprofile) of the rounds, garbage included.
      ...(process.env.BENCH_ALLOCATIONS ? { BENCH_ALLOCATIONS: process.env.BENCH_ALLOCATIONS } : {}),
      // The bench signs its members in with the same secret, so the BFF accepts their tokens.
      APP_SECRET: appSecret,
    },
  });
}

// Subscriptions --------------------------------------------------------------------------------

interface Event {
  kind: string;
  entityId: string | null;
  at: string;
}

interface Stream {
  member: TestUser;
  /** The SSE stream is open ("connected" arrived). */
  connected: boolean;
  /** Arrival time (performance.now()) of each event, by entityId. */
  arrivals: Map<string, number>;
  /** Openings the BFF refused (503 while shedding): opened again. */
  refused: number;
  /** Errors that closed the stream for good. */
  failed: Error | null;
  /** Times the stream (re)connected. */
  connections: number;
  close(): void;
}

/** Why streams went back to connecting after an error (message → times). */
const reconnectReasons = new Map<string, number>();

function openStream(baseUrl: string, member: TestUser): Stream {
  const client = testClient(baseUrl, member.accessToken);
  let unsubscribe: (() => void) | undefined;
  const stream: Stream = {
    member,
    connected: false,
    arrivals: new Map(),
    refused: 0,
    failed: null,
    connections: 0,
    close: () => unsubscribe?.(),
  };
  const subscribe = () => {
    const subscription = client.platform.realtime.events.subscribe(undefined, {
      onData(value) {
        const now = performance.now();
        const data = (value as { data: Event }).data;
        if (data.entityId && !stream.arrivals.has(data.entityId)) stream.arrivals.set(data.entityId, now);
      },
      onError(error) {
        stream.connected = false;
        // Shed (503 with Retry-After): opened again after 1, 2, 4… s, as the web's retryLink does.
        const status = error.data?.httpStatus ?? (error.cause as { code?: unknown } | undefined)?.code;
        if ((status === 503 || /\(503\)/.test(error.message)) && stream.refused < MAX_REOPENS) {
          setTimeout(subscribe, 1_000 * 2 ** stream.refused);
          stream.refused += 1;
          return;
        }
        stream.failed = error;
      },
      onConnectionStateChange(state) {
        if (state.state === 'connecting' && state.error) {
          const reason = state.error.message;
          reconnectReasons.set(reason, (reconnectReasons.get(reason) ?? 0) + 1);
        }
        if (state.state === 'pending') {
          stream.connected = true;
          stream.connections += 1;
        } else stream.connected = false;
      },
    });
    unsubscribe = () => subscription.unsubscribe();
  };
  subscribe();
  return stream;
}

// Publishing -----------------------------------------------------------------------------------

type Db = ReturnType<typeof createDatabase>['db'];

/** One event to every member's topic in one transaction; the time COMMIT was sent. */
async function publishToAll(db: Db, topics: string[], kind: string, entityId: string): Promise<number> {
  const trx = await db.startTransaction().execute();
  try {
    await publish(trx, { topic: topics, kind, entityId });
  } catch (error) {
    await trx.rollback().execute();
    throw error;
  }
  const committing = performance.now();
  await trx.commit().execute();
  return committing;
}

// Main -----------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const machine = machineLine();
  log(`Reshelf realtime benchmark on ${machine}`);
  log(`${MEMBERS} members × ${STREAMS_PER_MEMBER} streams = ${STREAMS} subscriptions to realtime.events`);
  const limits = await readFile('/proc/self/limits', 'utf8');
  const openFiles = Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1] ?? Number.NaN);
  // Each stream is a socket here and one in the BFF (each process has its own limit).
  if (openFiles < STREAMS + 200) {
    throw new Error(
      `this process may open ${openFiles} files, fewer than the ${STREAMS + 200} the streams need: raise it (ulimit -n ${STREAMS * 2}) and run again`,
    );
  }

  const started = performance.now();
  const database = await throwawayDatabase('reshelf-bench-realtime-', 'reshelf_bench_realtime');
  const { dir, databaseUrl } = database;
  let bff: ChildProcess | undefined;
  const streams: Stream[] = [];
  let handle: ReturnType<typeof createDatabase> | undefined;
  try {
    handle = createDatabase(databaseUrl, { max: 4 });
    const db = handle.db;
    await seedReferenceData(db);

    // Members, made as the tests make them: an account and a signed-in session each. The
    // bench's identity provider shares the BFF's secret, so the BFF accepts these tokens;
    // it hashes passwords with argon2id's cheapest settings only to save time (nothing measured signs in).
    const appSecret = randomBytes(32).toString('hex');
    const secrets = createSecrets(appSecret);
    const mailer = createMailer({
      db,
      transport: createDevTransport(),
      from: 'Reshelf <no-reply@reshelf.example>',
      secrets,
      origin: 'http://127.0.0.1',
    });
    const identity = createLocalIdentity({
      db,
      secrets,
      mailer,
      passwordHashing: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
    });
    const members: TestUser[] = [];
    for (let i = 0; i < MEMBERS; i++) {
      members.push(await createUser(db, identity, `member${String(i).padStart(4, '0')}@bench.test`));
    }
    const topics = members.map((member) => userTopic(member.id));
    log(`database ready, ${MEMBERS} members signed in (${Math.round(performance.now() - started)} ms)`);

    const memoryFile = path.join(dir, 'bff-memory.json');
    const bffStarted = await startRealtimeBff(databaseUrl, appSecret, memoryFile);
    bff = bffStarted.child;
    const pid = bff.pid as number;
    const { url, port } = bffStarted;
    // Connections on the BFF's port before any stream (the readiness probe's keep-alive one).
    const connectionsBaseline = serverConnections(port);

    // Warm-up: a few streams open, receive and close, so the code paths' first use (module
    // loading, compilation) is in the baseline and not charged to the connections.
    {
      const warm = Array.from({ length: STREAMS_PER_MEMBER }, () => openStream(url, members[0]!));
      await waitFor(() => warm.every((s) => s.connected || s.failed), 'warm-up streams to open', 30_000);
      for (let attempt = 0; !warm.every((s) => s.arrivals.size > 0); attempt++) {
        if (attempt > 100) throw new Error('warm-up streams received nothing');
        await publishToAll(db, [topics[0]!], 'bench.warmup', randomUUID());
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const s of warm) s.close();
      await waitFor(
        () => serverConnections(port) <= connectionsBaseline,
        'the warm-up streams to close',
        30_000,
      );
    }
    const connectionsBefore = serverConnections(port);
    const rssBefore = rssKiB(pid);
    const gcBefore = await memoryAfterGc(pid, memoryFile);
    const benchRssBefore = process.memoryUsage().rss / 1024;
    log(`BFF pid ${pid}: RSS ${(rssBefore / 1024).toFixed(1)} MiB before the streams`);

    // Open the streams, a batch at a time; each must be connected before the next batch.
    const openStarted = performance.now();
    for (let i = 0; i < STREAMS; i += OPEN_BATCH) {
      const batch: Stream[] = [];
      for (let j = i; j < Math.min(i + OPEN_BATCH, STREAMS); j++) {
        batch.push(openStream(url, members[j % MEMBERS]!));
      }
      streams.push(...batch);
      await waitFor(
        () => batch.every((s) => s.connected || s.failed),
        `streams ${i + 1}–${i + batch.length} to connect`,
        60_000,
      );
    }
    const failedToOpen = streams.filter((s) => s.failed);
    if (failedToOpen.length > 0) {
      throw new Error(
        `${failedToOpen.length} streams could not be opened; the first: ${failedToOpen[0]?.failed?.message}`,
      );
    }
    const openMs = performance.now() - openStarted;
    // Live, not merely connected: a stream follows its topic once the server has its cursor.
    // Publish to everyone until every stream has had an event.
    const readyIds: string[] = [];
    const liveStarted = performance.now();
    while (!streams.every((s) => readyIds.some((id) => s.arrivals.has(id)))) {
      if (performance.now() - liveStarted > 60_000)
        throw new Error('not every stream received an event in 60 s');
      const id = randomUUID();
      readyIds.push(id);
      await publishToAll(db, topics, 'bench.ready', id);
      await waitFor(
        () => streams.every((s) => readyIds.some((ready) => s.arrivals.has(ready))),
        'every stream to be live',
        1_000,
      ).catch(() => undefined);
    }
    const connectionsLive = serverConnections(port);
    const rssLive = rssKiB(pid);
    const gcLive = await memoryAfterGc(pid, memoryFile);
    const benchRssLive = process.memoryUsage().rss / 1024;
    const refused = streams.reduce((sum, s) => sum + s.refused, 0);
    log(
      `${STREAMS} streams live in ${Math.round(openMs)} ms (+${readyIds.length} ready event(s)); BFF holds ${connectionsLive} connections; RSS ${(rssLive / 1024).toFixed(1)} MiB; openings refused and retried: ${refused}`,
    );

    // Fan-out rounds.
    const latencies: number[] = [];
    const lastArrival: number[] = [];
    const firstArrival: number[] = [];
    let missing = 0;
    const connectionsAtRounds = streams.reduce((sum, s) => sum + s.connections, 0);
    const reasonsAtRounds = new Map(reconnectReasons);
    const cpuBefore = cpuMs(pid);
    const loadBefore = loadavg();
    const roundsStarted = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      const id = randomUUID();
      const committing = await publishToAll(db, topics, 'bench.fanout', id);
      try {
        await waitFor(() => streams.every((s) => s.arrivals.has(id)), `round ${round + 1}`, ROUND_TIMEOUT_MS);
      } catch {
        /* counted below */
      }
      let slowest = 0;
      let fastest = Number.POSITIVE_INFINITY;
      for (const s of streams) {
        const at = s.arrivals.get(id);
        if (at === undefined) {
          missing += 1;
          continue;
        }
        latencies.push(at - committing);
        slowest = Math.max(slowest, at - committing);
        fastest = Math.min(fastest, at - committing);
      }
      lastArrival.push(slowest);
      if (Number.isFinite(fastest)) firstArrival.push(fastest);
    }
    const roundsSeconds = (performance.now() - roundsStarted) / 1000;
    const cpuSpent = cpuMs(pid) - cpuBefore;
    const loadAfter = loadavg();
    const rssAfterRounds = rssKiB(pid);
    const delivered = latencies.length;
    const fanout = stats(latencies);
    const perRound = stats(lastArrival);
    log(
      `${ROUNDS} rounds: ${delivered} events delivered (${missing} missing); p50 ${fanout.p50} ms, p95 ${fanout.p95} ms, max ${fanout.max} ms; all ${STREAMS} reached in p50 ${perRound.p50} ms, p95 ${perRound.p95} ms`,
    );
    const reconnections = streams.reduce((sum, s) => sum + s.connections, 0) - connectionsAtRounds;
    const reconnectionReasons = Object.fromEntries(
      [...reconnectReasons]
        .map(([reason, n]) => [reason, n - (reasonsAtRounds.get(reason) ?? 0)])
        .filter(([, n]) => Number(n) > 0),
    );
    const openingReasons = Object.fromEntries(reasonsAtRounds);
    if (reconnections > 0)
      log(`reconnections during the rounds: ${reconnections} ${JSON.stringify(reconnectionReasons)}`);

    // Close every stream; the BFF must let every socket go.
    const closeStarted = performance.now();
    for (const s of streams) s.close();
    const closeMs = await waitFor(
      () => serverConnections(port) <= connectionsBefore,
      'the BFF to release every stream',
      30_000,
    ).catch(() => Number.NaN);
    const connectionsAfter = serverConnections(port);
    const rssAfterClose = rssKiB(pid);
    // And a few seconds later, when the garbage of 1,000 streams may have been collected.
    await new Promise((r) => setTimeout(r, 5_000));
    const rssSettled = rssKiB(pid);
    const gcAfterClose = await memoryAfterGc(pid, memoryFile);
    log(
      `closed: BFF holds ${connectionsAfter} connections after ${Math.round(performance.now() - closeStarted)} ms; RSS ${(rssAfterClose / 1024).toFixed(1)} MiB, ${(rssSettled / 1024).toFixed(1)} MiB 5 s later`,
    );

    const perConnectionKiB = (gcLive.rssKiB - gcBefore.rssKiB) / STREAMS;
    const perStreamHeapKiB =
      (gcLive.heapUsedKiB + gcLive.externalKiB - gcBefore.heapUsedKiB - gcBefore.externalKiB) / STREAMS;
    const mib = (kib: number) => round2(kib / 1024);
    const afterGc = (m: MemoryAfterGc) => ({
      rssMiB: mib(m.rssKiB),
      heapUsedMiB: mib(m.heapUsedKiB),
      externalMiB: mib(m.externalKiB),
    });
    const report = {
      benchmark: 'realtime',
      ranAt: new Date().toISOString(),
      machine,
      command: 'node --import tsx tests/bench/realtime.ts',
      setup: {
        members: MEMBERS,
        streamsPerMember: STREAMS_PER_MEMBER,
        streams: STREAMS,
        rounds: ROUNDS,
        openBatch: OPEN_BATCH,
        bff: 'one instance, production mode, default pool (10) and load shedding (event loop lag 200 ms)',
      },
      /** 1-minute load average when the rounds started and ended: other work on the machine skews every figure. */
      loadAverage: { before: loadBefore[0], after: loadAfter[0] },
      open: {
        ms: Math.round(openMs),
        readyEvents: readyIds.length,
        refusedAndReopened: refused,
        /** Errors that sent a stream back to connecting while the streams were opened. */
        errorsWhileOpening: openingReasons,
        serverConnectionsBefore: connectionsBefore,
        serverConnectionsLive: connectionsLive,
      },
      memory: {
        /** Right after a full garbage collection in the BFF. */
        afterFullGc: { before: afterGc(gcBefore), live: afterGc(gcLive), afterClose: afterGc(gcAfterClose) },
        /** (RSS after a full collection with every stream live − before) / streams. */
        perConnectionKiB: round2(perConnectionKiB),
        /** The same for V8's heap used + external memory. */
        perConnectionHeapKiB: round2(perStreamHeapKiB),
        /** Without collecting: (RSS live − RSS before) / streams, garbage included. */
        perConnectionRawRssKiB: round2((rssLive - rssBefore) / STREAMS),
        bffRssBeforeMiB: round2(rssBefore / 1024),
        bffRssLiveMiB: round2(rssLive / 1024),
        bffRssAfterRoundsMiB: round2(rssAfterRounds / 1024),
        bffRssAfterCloseMiB: round2(rssAfterClose / 1024),
        bffRssSettledMiB: round2(rssSettled / 1024),
        benchProcessRssPerStreamKiB: round2((benchRssLive - benchRssBefore) / STREAMS),
      },
      fanout: {
        eventsPublished: ROUNDS * MEMBERS,
        eventsDelivered: delivered,
        missing,
        /** Streams that reconnected during the rounds, and why. */
        reconnections,
        reconnectionReasons,
        latencyMs: fanout,
        /** Per round: the first stream reached, and the last (every one of them). */
        firstStreamReachedMs: stats(firstArrival),
        allStreamsReachedMs: perRound,
        roundsSeconds: round2(roundsSeconds),
      },
      cpu: {
        bffMs: round2(cpuSpent),
        bffMsPerEventDelivered: round2(cpuSpent / Math.max(delivered, 1)),
        bffMicrosecondsPerEventDelivered: Math.round((cpuSpent * 1000) / Math.max(delivered, 1)),
      },
      close: {
        serverConnectionsAfter: connectionsAfter,
        releasedInMs: Number.isNaN(closeMs) ? null : Math.round(closeMs),
      },
      notes: [
        'Streams: realtime.events over SSE (tRPC httpSubscriptionLink + the eventsource package, Authorization: Bearer), 10 per member, all from this one Node process; every stream is its own TCP connection.',
        'Latency: from the moment COMMIT is sent (the NOTIFY fires at commit) to the moment this process has parsed the event for that stream. It includes the BFF reading each topic once (one group per member), writing 1,000 SSE messages, and this process parsing them one after another on one thread, on the same machine as the BFF and PostgreSQL.',
        'Memory per connection: (BFF RSS with every stream live − RSS before) / streams, each read right after a full garbage collection in the BFF (SIGUSR2 to a small probe loaded with --expose-gc; the only change to the production process). The same without collecting is perConnectionRawRssKiB; "settled" is read 5 s after the streams closed.',
        'CPU: the BFF process’s utime + stime over the rounds, divided by events delivered (reads, serialisation, SSE writes).',
        'The BFF exposes its hub’s subscriber count only in-process (app.realtime.stats()); from outside, the bench checks that the BFF holds no connection on its port after the streams close.',
        'Member accounts are made with argon2id at 1 MiB and one pass to save time; nothing measured signs in.',
      ],
    };
    await mkdir(path.dirname(RESULTS), { recursive: true });
    await writeFile(RESULTS, `${JSON.stringify(report, null, 2)}\n`);
    printTable([
      ['streams live (members × per member)', `${STREAMS} (${MEMBERS} × ${STREAMS_PER_MEMBER})`],
      ['opened in', `${Math.round(openMs)} ms (${refused} refused and reopened)`],
      [
        'BFF RSS before → live (after a full GC)',
        `${mib(gcBefore.rssKiB)} → ${mib(gcLive.rssKiB)} MiB (without collecting: ${report.memory.bffRssBeforeMiB} → ${report.memory.bffRssLiveMiB} MiB)`,
      ],
      [
        'memory per connection',
        `${report.memory.perConnectionKiB} KiB RSS (JS heap + external: ${report.memory.perConnectionHeapKiB} KiB; without collecting: ${report.memory.perConnectionRawRssKiB} KiB)`,
      ],
      [
        `fan-out latency (${delivered} deliveries, ${ROUNDS} rounds)`,
        `p50 ${fanout.p50} ms, p95 ${fanout.p95} ms, p99 ${fanout.p99} ms, max ${fanout.max} ms`,
      ],
      [
        'per round: first stream / all streams reached',
        `p50 ${report.fanout.firstStreamReachedMs.p50} / ${perRound.p50} ms, p95 ${report.fanout.firstStreamReachedMs.p95} / ${perRound.p95} ms`,
      ],
      ['missing / reconnections during rounds', `${missing} / ${reconnections}`],
      ['BFF CPU per event delivered', `${report.cpu.bffMicrosecondsPerEventDelivered} µs`],
      [
        'after closing: BFF connections, RSS',
        `${connectionsAfter}, ${report.memory.bffRssAfterCloseMiB} MiB (${report.memory.bffRssSettledMiB} MiB 5 s later; ${mib(gcAfterClose.rssKiB)} MiB after a full GC, heap ${mib(gcAfterClose.heapUsedKiB)} MiB vs ${mib(gcBefore.heapUsedKiB)} MiB before)`,
      ],
      ['load average (1 min) during rounds', `${loadBefore[0]?.toFixed(2)} → ${loadAfter[0]?.toFixed(2)}`],
    ]);
    log(
      `\nwritten to ${path.relative(process.cwd(), RESULTS)} (${Math.round((performance.now() - started) / 1000)} s)`,
    );
  } finally {
    for (const s of streams) s.close();
    await stopBff(bff);
    await handle?.close();
    await database.stop();
  }
}

function printTable(rows: [string, string][]) {
  const width = Math.max(...rows.map(([label]) => label.length));
  console.info('');
  for (const [label, value] of rows) console.info(`${label.padEnd(width)}  ${value}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
