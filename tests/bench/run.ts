/**
 * `pnpm bench`: the catalogue under load. A throwaway embedded PostgreSQL with 100,000
 * listings, the real BFF in its own process, and autocannon at 50 connections against three
 * tRPC GET endpoints (search, filtered browse, listing detail), each with a rotating set of
 * inputs so no single plan or page stays hot. Beside each, the same SQL statements the BFF
 * issued for those inputs, timed straight through pg: once alone, and under the same 50-way
 * concurrency over a pool of the BFF's size, so the BFF's own overhead is visible.
 *
 * Writes tests/bench/results/catalogue.json and prints a table. Not part of the test run.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { type BrowseInput, browseInputSchema, type SearchInput, searchInputSchema } from '@reshelf/contracts';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDatabase } from '../../api/src/db/index.ts';
import {
  browseListings,
  getListingBySlug,
  searchListings,
} from '../../api/src/features/listings/listings.service.ts';
import { seedReferenceData } from '../../api/src/seed/demo.ts';
import {
  log,
  machine as machineLine,
  percentiles,
  ROOT,
  round2,
  startBff,
  stopBff,
  throwawayDatabase,
} from './harness.ts';
import { BENCH_SIZE, seedBench } from './seed.ts';

const RESULTS = path.join(ROOT, 'tests/bench/results/catalogue.json');
const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 12);
const WARMUP_S = 3;
const POOL_MAX = 10;
const TARGET_P95_MS = 25;

// The inputs each scenario cycles through ---------------------------------------------------

const SEARCHES: string[] = [
  'pride and prejudice',
  'Pride and Prejudise',
  'Hary Poter',
  'the hobbit',
  'Tolkein',
  'austen',
  'stephen king',
  'dune',
  '978-0-14-143951-8',
  '0141439513',
  'yorkshire moors',
  'silent harbour',
  'the lost garden',
  'lighthouse',
  'letters of cornwall',
  'midnight orchard',
  'clockmakers daughter',
  'Eleanor Ashworth',
  'blackwod',
  'a summer that changes everything',
  'secret library',
  'the drowned kingdom',
  'wuthering hieghts',
  'thursday murder club',
];

const CATEGORIES = [
  'fiction',
  'crime-thriller',
  'fantasy',
  'history',
  'childrens',
  'cookery',
  'romance',
  'travel',
];

const BROWSES: BrowseInput[] = [
  { category: 'fiction' },
  { category: 'crime-thriller', condition: 'very_good,good', sort: 'price_asc' },
  { condition: 'like_new', minPrice: 500, maxPrice: 1500 },
  { genre: 'historical-fiction', sort: 'price_desc' },
  { charityOnly: true },
  { maxPrice: 400, sort: 'price_asc' },
  { category: 'fantasy', minPrice: 200, maxPrice: 900, condition: 'good', page: 2 },
  { sort: 'newest', page: 20 },
  ...CATEGORIES.map((category, i) => ({
    category,
    condition: (['like_new,very_good', 'good', 'well_read', 'very_good,good'] as const)[i % 4],
    minPrice: 100 * (i % 3),
    maxPrice: 1000 + 250 * i,
    sort: (['newest', 'price_asc', 'price_desc'] as const)[i % 3],
  })),
];

function detailSlugs(count: number): string[] {
  // Every twentieth listing is sold: the page still answers (it says so).
  return Array.from({ length: count }, (_, i) => `bench-${1 + ((i * 104_729) % BENCH_SIZE.listings)}`);
}

interface Scenario {
  name: 'search' | 'browse' | 'detail';
  title: string;
  paths: string[];
  /** Runs the service for input i, for capturing its SQL. */
  call: (db: ReturnType<typeof createDatabase>['db'], i: number) => Promise<unknown>;
}

const trpcPath = (procedure: string, input: unknown) =>
  `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`;

function scenarios(): Scenario[] {
  const slugs = detailSlugs(200);
  return [
    {
      name: 'search',
      title: 'search (listings.search)',
      paths: SEARCHES.map((q) => trpcPath('listings.public.search', { q } satisfies SearchInput)),
      call: (db, i) => searchListings(db, searchInputSchema.parse({ q: SEARCHES[i % SEARCHES.length] })),
    },
    {
      name: 'browse',
      title: 'filtered browse (listings.browse)',
      paths: BROWSES.map((input) => trpcPath('listings.public.browse', input)),
      call: (db, i) => browseListings(db, browseInputSchema.parse(BROWSES[i % BROWSES.length])),
    },
    {
      name: 'detail',
      title: 'listing detail (listings.bySlug)',
      paths: slugs.map((slug) => trpcPath('listings.public.bySlug', { slug })),
      call: (db, i) => getListingBySlug(db, slugs[i % slugs.length]!),
    },
  ];
}

// Statistics ---------------------------------------------------------------------------------

interface Stats {
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

function stats(latencies: number[], seconds: number): Stats {
  const { samples, ...rest } = percentiles(latencies);
  return { requests: samples, perSecond: round2(samples / seconds), ...rest };
}

// The BFF under load -----------------------------------------------------------------------

/** The BFF with the bench's pool size, caching public answers for `cacheSeconds` (0: every request cold). */
function startCatalogueBff(databaseUrl: string, cacheSeconds: number) {
  return startBff({
    databaseUrl,
    env: {
      DATABASE_POOL_MAX: String(POOL_MAX),
      APP_SECRET: randomBytes(32).toString('hex'),
      // The production default caches public answers briefly; 0 measures every request cold.
      PUBLIC_CACHE_SECONDS: String(cacheSeconds),
    },
  });
}

async function loadBff(
  url: string,
  paths: string[],
  seconds: number,
): Promise<Stats & { non2xx: number; errors: number }> {
  let next = 0;
  const latencies: number[] = [];
  // Without a callback autocannon answers an emitter that is also a promise of the result.
  const instance = autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          const path = paths[next++ % paths.length]!;
          return { ...request, path };
        },
      },
    ],
  }) as unknown as autocannon.Instance & Promise<autocannon.Result>;
  instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  const result = await instance;
  return { ...stats(latencies, seconds), non2xx: result.non2xx, errors: result.errors };
}

// The same SQL straight through pg -----------------------------------------------------------

interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

async function captureStatements(
  databaseUrl: string,
  scenario: Scenario,
  count: number,
): Promise<Statement[][]> {
  let current: Statement[] = [];
  const handle = createDatabase(databaseUrl, {
    max: 2,
    log: (event) => {
      if (event.level === 'query') current.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  const requests: Statement[][] = [];
  try {
    for (let i = 0; i < count; i++) {
      current = [];
      await scenario.call(handle.db, i);
      requests.push(current);
    }
  } finally {
    await handle.close();
  }
  return requests;
}

/** Runs one request's statements on one pooled connection, as the BFF's Kysely does. */
async function replay(pool: pg.Pool, statements: Statement[]): Promise<void> {
  const client = await pool.connect();
  try {
    for (const statement of statements) await client.query(statement.sql, statement.parameters as unknown[]);
  } finally {
    client.release();
  }
}

async function sqlAlone(pool: pg.Pool, requests: Statement[][], rounds: number): Promise<Stats> {
  const latencies: number[] = [];
  // Once through unmeasured, so each connection has prepared its statements.
  for (const statements of requests) await replay(pool, statements);
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (const statements of requests) {
      const t0 = performance.now();
      await replay(pool, statements);
      latencies.push(performance.now() - t0);
    }
  }
  return stats(latencies, (performance.now() - started) / 1000);
}

async function sqlUnderLoad(pool: pg.Pool, requests: Statement[][], seconds: number): Promise<Stats> {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const statements = requests[next++ % requests.length]!;
      const t0 = performance.now();
      await replay(pool, statements);
      latencies.push(performance.now() - t0);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return stats(latencies, (performance.now() - started) / 1000);
}

// Main -----------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const machine = machineLine();
  log(`Reshelf catalogue benchmark on ${machine}`);
  const database = await throwawayDatabase('reshelf-bench-', 'reshelf_bench');
  const { databaseUrl } = database;
  let bff: ChildProcess | undefined;
  let bffCold: ChildProcess | undefined;
  try {
    const seedHandle = createDatabase(databaseUrl, { max: 2 });
    await seedReferenceData(seedHandle.db);
    await seedHandle.close();
    log(`seeding ${BENCH_SIZE.listings.toLocaleString('en-GB')} listings…`);
    const seedStarted = Date.now();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await seedBench(client, log);
    } finally {
      await client.end();
    }
    const seedSeconds = (Date.now() - seedStarted) / 1000;

    const started = await startCatalogueBff(databaseUrl, 60);
    bff = started.child;
    const cold = await startCatalogueBff(databaseUrl, 0);
    bffCold = cold.child;
    const pool = createDatabase(databaseUrl, { max: POOL_MAX }).pool;
    const results: Record<string, unknown> = {};
    // The floor: the same HTTP stack answering /healthz, with no database work at all.
    log('\nbaseline: GET /healthz (no database)');
    await loadBff(started.url, ['/healthz'], WARMUP_S);
    const floor = await loadBff(started.url, ['/healthz'], DURATION_S);
    log(`  p50 ${floor.p50} ms, p95 ${floor.p95} ms, p99 ${floor.p99} ms, ${floor.perSecond} req/s`);
    const loadBefore = loadavg();
    for (const scenario of scenarios()) {
      log(`\n${scenario.title}: ${scenario.paths.length} distinct requests`);
      // Every input must answer 200 before it is timed.
      for (const p of scenario.paths) {
        const response = await fetch(started.url + p);
        if (!response.ok) throw new Error(`${p} answered ${response.status}: ${await response.text()}`);
      }
      await loadBff(started.url, scenario.paths, WARMUP_S);
      const bffStats = await loadBff(started.url, scenario.paths, DURATION_S);
      log(
        `  BFF: p50 ${bffStats.p50} ms, p95 ${bffStats.p95} ms, p99 ${bffStats.p99} ms, ${bffStats.perSecond} req/s`,
      );
      await loadBff(cold.url, scenario.paths, WARMUP_S);
      const coldStats = await loadBff(cold.url, scenario.paths, DURATION_S);
      log(
        `  BFF without the public cache: p50 ${coldStats.p50} ms, p95 ${coldStats.p95} ms, p99 ${coldStats.p99} ms, ${coldStats.perSecond} req/s`,
      );
      const statements = await captureStatements(databaseUrl, scenario, Math.min(scenario.paths.length, 200));
      const alone = await sqlAlone(pool, statements, scenario.paths.length < 50 ? 5 : 1);
      const loaded = await sqlUnderLoad(pool, statements, Math.max(5, Math.round(DURATION_S / 2)));
      log(
        `  SQL alone: p50 ${alone.p50} ms, p95 ${alone.p95} ms; SQL at ${CONNECTIONS} concurrent: p95 ${loaded.p95} ms, ${loaded.perSecond} req/s`,
      );
      results[scenario.name] = {
        title: scenario.title,
        distinctRequests: scenario.paths.length,
        statementsPerRequest: Math.max(...statements.map((s) => s.length)),
        bff: bffStats,
        bffWithoutCache: coldStats,
        sqlAlone: alone,
        sqlConcurrent: loaded,
        meetsTarget: bffStats.p95 <= TARGET_P95_MS && bffStats.non2xx === 0 && bffStats.errors === 0,
      };
    }
    await pool.end();

    const report = {
      benchmark: 'catalogue',
      ranAt: new Date().toISOString(),
      machine,
      data: { ...BENCH_SIZE, seedSeconds },
      /** 1-minute load average when the load started and ended: other work on the machine skews every figure. */
      loadAverage: { before: loadBefore[0], after: loadavg()[0] },
      baselineHealthz: floor,
      load: {
        connections: CONNECTIONS,
        durationSeconds: DURATION_S,
        warmupSeconds: WARMUP_S,
        bffPoolMax: POOL_MAX,
      },
      targetP95Ms: TARGET_P95_MS,
      notes: [
        'BFF: end-to-end HTTP latency of tRPC GET calls to the real app (production mode, pino logging at info to a discarded stream), measured by autocannon in this process.',
        'sqlAlone: the exact statements the BFF issued for the same inputs (captured from Kysely), replayed one request at a time on one idle connection.',
        'sqlConcurrent: the same statements replayed by 50 concurrent workers over a pool of 10 connections, as the BFF runs them (statements of one request run one after another here; the BFF runs some in parallel).',
        'Everything (PostgreSQL, the BFF, the load generator) shares the same machine.',
      ],
      results,
    };
    await mkdir(path.dirname(RESULTS), { recursive: true });
    await writeFile(RESULTS, `${JSON.stringify(report, null, 2)}\n`);
    printTable(
      report.results as Record<
        string,
        {
          title: string;
          bff: Stats & { non2xx: number };
          bffWithoutCache: Stats & { non2xx: number };
          sqlAlone: Stats;
          sqlConcurrent: Stats;
          meetsTarget: boolean;
        }
      >,
    );
    log(`\nwritten to ${path.relative(process.cwd(), RESULTS)}`);
  } finally {
    for (const child of [bff, bffCold]) await stopBff(child);
    await database.stop();
  }
}

function printTable(
  results: Record<
    string,
    {
      title: string;
      bff: Stats & { non2xx: number };
      bffWithoutCache: Stats & { non2xx: number };
      sqlAlone: Stats;
      sqlConcurrent: Stats;
      meetsTarget: boolean;
    }
  >,
) {
  const rows = [
    [
      'scenario',
      'BFF p50',
      'BFF p95',
      'BFF p99',
      'BFF req/s',
      'non-2xx',
      'no-cache p95',
      'no-cache req/s',
      'SQL alone p50',
      'SQL alone p95',
      'SQL@50 p95',
      `p95 ≤ ${TARGET_P95_MS} ms`,
    ],
    ...Object.values(results).map((r) => [
      r.title,
      `${r.bff.p50} ms`,
      `${r.bff.p95} ms`,
      `${r.bff.p99} ms`,
      String(r.bff.perSecond),
      String(r.bff.non2xx),
      `${r.bffWithoutCache.p95} ms`,
      String(r.bffWithoutCache.perSecond),
      `${r.sqlAlone.p50} ms`,
      `${r.sqlAlone.p95} ms`,
      `${r.sqlConcurrent.p95} ms`,
      r.meetsTarget ? 'yes' : 'NO',
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  console.info('');
  for (const [i, row] of rows.entries()) {
    console.info(row.map((cell, c) => cell.padEnd(widths[c]!)).join('  '));
    if (i === 0) console.info(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
