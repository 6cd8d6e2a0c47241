/**
 * Catalogue reads with the public cache OFF, two checkouts of the code side by side in one run:
 * CPU per request (the BFF's Node process plus every PostgreSQL process, read from /proc) and
 * latency for search, filtered browse and the listing page, over the benchmark's 100,000
 * listings, autocannon at 50 connections, rounds interleaved (base, change, base, change…), so
 * whatever else the machine is doing weighs on both alike. Then, for the same statements, what
 * each way of planning costs on one idle connection: PostgreSQL's own choice (auto), a plan for
 * the values every time (force_custom_plan) and the generic plan (force_generic_plan).
 *
 *   node --import tsx tests/bench/catalogue-cpu.ts --base <dir of another checkout, installed>
 *        [--seconds 8] [--rounds 3]
 *
 * The change is this checkout. Both BFFs run against one database, migrated by this checkout
 * (the base reads the same tables). Prints a table and writes
 * tests/bench/results/catalogue-cpu.json. Figures are reported, never asserted.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bookSearchInputSchema } from '@reshelf/contracts';
import autocannon from 'autocannon';
import pg from 'pg';
import { searchBooks } from '../../api/src/catalogue/editions/book-search.service.ts';
import { getListingBySlug } from '../../api/src/catalogue/listings/listings.service.ts';
import { freePort } from '../../api/src/db/embedded.ts';
import { createDatabase } from '../../api/src/db/index.ts';
import { seedReferenceData } from '../../api/src/seed/demo.ts';
import { log, machine, percentiles, ROOT, round2, stopBff, throwawayDatabase } from './harness.ts';
import { BENCH_SIZES } from './options.ts';
import { seedBench } from './seed.ts';

/** This A/B run always uses the bench's default dataset (100k listings). */
const BENCH_SIZE = BENCH_SIZES['100k'];

const { values: args } = parseArgs({
  options: {
    base: { type: 'string' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    'skip-plans': { type: 'boolean', default: false },
  },
});
if (!args.base || !existsSync(path.join(args.base, 'api/src/main.ts'))) {
  throw new Error('--base <dir>: another checkout of Reshelf, with its dependencies installed');
}
const BASE = path.resolve(args.base);
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = 50;
const RESULTS = path.join(ROOT, 'tests/bench/results/catalogue-cpu.json');
const TICK_US = 1_000_000 / 100; // /proc times are in clock ticks (USER_HZ = 100)

const SEARCHES = [
  'pride and prejudice',
  'Pride and Prejudise',
  'Hary Poter',
  'the hobbit',
  'Tolkein',
  'austen',
  'stephen king',
  'dune',
  '978-0-14-143951-8',
  'yorkshire moors',
  'silent harbour',
  'the lost garden',
  'lighthouse',
  'midnight orchard',
  'Eleanor Ashworth',
  'blackwod',
  'secret library',
  'wuthering hieghts',
  'thursday murder club',
  'garden',
];
const BROWSES = [
  { category: 'fiction' },
  { category: 'crime-thriller', condition: 'very_good,good', sort: 'price_asc' },
  { condition: 'like_new', minPrice: 500, maxPrice: 1500 },
  { genre: 'historical-fiction', sort: 'price_desc' },
  { charityOnly: true },
  { maxPrice: 400, sort: 'price_asc' },
  { category: 'fantasy', minPrice: 200, maxPrice: 900, condition: 'good', page: 2 },
  { sort: 'newest', page: 20 },
  { category: 'history', condition: 'good', sort: 'price_desc' },
  { category: 'childrens', minPrice: 100, maxPrice: 1250 },
  { category: 'cookery', condition: 'like_new,very_good', sort: 'newest' },
  { category: 'romance', maxPrice: 2000, sort: 'price_asc' },
  { category: 'travel', condition: 'well_read' },
  { category: 'fantasy', sort: 'newest' },
];
const SLUGS = Array.from({ length: 300 }, (_, i) => `bench-${1 + ((i * 104_729) % BENCH_SIZE.listings)}`);

const trpcPath = (procedure: string, input: unknown) =>
  `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`;

type Db = ReturnType<typeof createDatabase>['db'];
const SCENARIOS: {
  name: string;
  paths: string[];
  call: (db: Db, i: number) => Promise<unknown>;
  inputs: number;
}[] = [
  {
    name: 'search',
    paths: SEARCHES.map((q) => trpcPath('catalogue.books.public.search', { q })),
    call: (db, i) => searchBooks(db, bookSearchInputSchema.parse({ q: SEARCHES[i % SEARCHES.length] })),
    inputs: SEARCHES.length,
  },
  {
    name: 'browse',
    paths: BROWSES.map((input) => trpcPath('catalogue.books.public.search', input)),
    call: (db, i) => searchBooks(db, bookSearchInputSchema.parse(BROWSES[i % BROWSES.length])),
    inputs: BROWSES.length,
  },
  {
    name: 'detail',
    paths: SLUGS.map((slug) => trpcPath('catalogue.listings.bySlug', { slug })),
    call: (db, i) => getListingBySlug(db, SLUGS[i % SLUGS.length]!),
    inputs: 40,
  },
];

// Processes and their CPU ------------------------------------------------------------------------

function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return 0; // exited
  }
}

function childrenOf(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) pids.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return pids;
}

function postmasterPid(dataDir: string): number {
  const find = (dir: string): string | undefined => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isFile() && entry.name === 'postmaster.pid') return full;
      if (entry.isDirectory()) {
        const found = find(full);
        if (found) return found;
      }
    }
    return undefined;
  };
  const file = find(dataDir);
  if (!file) throw new Error(`no postmaster.pid under ${dataDir}`);
  return Number(readFileSync(file, 'utf8').split('\n')[0]);
}

/** CPU (µs) of the BFF and of PostgreSQL (postmaster and every backend, as they are now). */
function cpuNow(bffPid: number, postmaster: number) {
  const pg = [postmaster, ...childrenOf(postmaster)].reduce((sum, pid) => sum + cpuTicks(pid), 0);
  return { node: cpuTicks(bffPid) * TICK_US, pg: pg * TICK_US };
}

// The BFFs -----------------------------------------------------------------------------------

async function startBffAt(root: string, databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'api/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      STRIPE_SECRET_KEY: 'sk_test_benchmark_unused',
      STRIPE_WEBHOOK_SECRET: 'whsec_benchmark_unused',
      EASYPOST_API_KEY: 'EZTKoffline0123',
      EASYPOST_WEBHOOK_SECRET: 'carrier-webhook-offline',
      MAIL: 'smtp',
      SMTP_URL: 'smtp://127.0.0.1:9',
      MAIL_FROM: 'Reshelf <no-reply@reshelf.example>',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_MAX: '10',
      // Measure the work of each request, not the load shedder's refusals (503s): queue them all.
      DATABASE_POOL_MAX_WAITING: '1000',
      MAX_EVENT_LOOP_DELAY_MS: '0',
      APP_SECRET: randomBytes(32).toString('hex'),
      PUBLIC_CACHE_SECONDS: '0',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      WEB_DIST: path.join(root, 'api/.no-web-dist'),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the BFF at ${root} exited: ${stderr}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { url, child };
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGTERM');
  throw new Error(`the BFF at ${root} did not become ready: ${stderr}`);
}

async function load(url: string, paths: string[], seconds: number) {
  let next = 0;
  const latencies: number[] = [];
  const instance = autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      { method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) },
    ],
  }) as unknown as autocannon.Instance & Promise<autocannon.Result>;
  instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  const result = await instance;
  return { ok: result['2xx'], non2xx: result.non2xx, errors: result.errors, latencies };
}

// Plans ---------------------------------------------------------------------------------------

interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

async function capture(databaseUrl: string, call: (db: Db, i: number) => Promise<unknown>, count: number) {
  let current: Statement[] = [];
  const handle = createDatabase(databaseUrl, {
    max: 1,
    log: (event) => {
      if (event.level === 'query') current.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  const requests: Statement[][] = [];
  try {
    for (let i = 0; i < count; i++) {
      current = [];
      await call(handle.db, i);
      requests.push(current);
    }
  } finally {
    await handle.close();
  }
  return requests;
}

/** Mean ms of a request's statements in each plan mode, and how PostgreSQL's own choice went. */
async function planModes(client: pg.Client, requests: Statement[][]) {
  const totals = { auto: 0, custom: 0, generic: 0 };
  let worstGenericRatio = 0;
  let autoGeneric = 0;
  let autoCustom = 0;
  const time = async (name: string, statement: Statement, runs: number, timed: number) => {
    let spent = 0;
    for (let run = 0; run < runs; run++) {
      const t0 = performance.now();
      await client.query({ name, text: statement.sql, values: statement.parameters as unknown[] });
      if (run >= runs - timed) spent += performance.now() - t0;
    }
    return spent / timed;
  };
  for (const [i, statements] of requests.entries()) {
    const request = { auto: 0, custom: 0, generic: 0 };
    for (const [j, statement] of statements.entries()) {
      const id = `${createHash('sha1').update(statement.sql).digest('hex').slice(0, 12)}_${i}_${j}`;
      await client.query('reset plan_cache_mode');
      request.auto += await time(`a_${id}`, statement, 10, 4);
      const counts = await client.query<{ generic_plans: string; custom_plans: string }>(
        'select generic_plans, custom_plans from pg_prepared_statements where name = $1',
        [`a_${id}`],
      );
      if (Number(counts.rows[0]?.generic_plans ?? 0) > 0) autoGeneric += 1;
      else autoCustom += 1;
      await client.query('set plan_cache_mode = force_custom_plan');
      request.custom += await time(`c_${id}`, statement, 5, 4);
      await client.query('set plan_cache_mode = force_generic_plan');
      request.generic += await time(`g_${id}`, statement, 5, 4);
    }
    await client.query('reset plan_cache_mode');
    await client.query('deallocate all');
    totals.auto += request.auto;
    totals.custom += request.custom;
    totals.generic += request.generic;
    worstGenericRatio = Math.max(worstGenericRatio, request.generic / request.custom);
  }
  const n = requests.length;
  return {
    requests: n,
    meanMs: {
      auto: round2(totals.auto / n),
      custom: round2(totals.custom / n),
      generic: round2(totals.generic / n),
    },
    worstGenericOverCustom: round2(worstGenericRatio),
    autoStatementsOnGenericPlan: autoGeneric,
    autoStatementsStillPlanned: autoCustom,
  };
}

// Main -----------------------------------------------------------------------------------------

async function main() {
  log(`catalogue CPU per request, cache off: base ${BASE} vs change ${ROOT} on ${machine()}`);
  const database = await throwawayDatabase('reshelf-catcpu-', 'reshelf_bench');
  const children: ChildProcess[] = [];
  try {
    const seedHandle = createDatabase(database.databaseUrl, { max: 2 });
    await seedReferenceData(seedHandle.db);
    await seedHandle.close();
    const client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
    try {
      await seedBench(client, BENCH_SIZE, log);
    } finally {
      await client.end();
    }
    const postmaster = postmasterPid(database.dir);
    const base = await startBffAt(BASE, database.databaseUrl);
    children.push(base.child);
    const change = await startBffAt(ROOT, database.databaseUrl);
    children.push(change.child);
    const bffs = { base, change };
    const load1 = loadavg()[0];
    const results: Record<string, unknown> = {};
    for (const scenario of SCENARIOS) {
      for (const [label, bff] of Object.entries(bffs)) {
        for (const p of scenario.paths.slice(0, 5)) {
          const response = await fetch(bff.url + p);
          if (!response.ok) throw new Error(`${label} ${p}: ${response.status} ${await response.text()}`);
        }
        await load(bff.url, scenario.paths, 3); // warm-up
      }
      const sums = {
        base: { ok: 0, bad: 0, node: 0, pg: 0, latencies: [] as number[] },
        change: { ok: 0, bad: 0, node: 0, pg: 0, latencies: [] as number[] },
      };
      for (let round = 0; round < ROUNDS; round++) {
        for (const [label, bff] of Object.entries(bffs) as ['base' | 'change', typeof base][]) {
          const before = cpuNow(bff.child.pid!, postmaster);
          const run = await load(bff.url, scenario.paths, SECONDS);
          const after = cpuNow(bff.child.pid!, postmaster);
          const sum = sums[label];
          sum.ok += run.ok;
          sum.bad += run.non2xx + run.errors;
          sum.node += after.node - before.node;
          sum.pg += after.pg - before.pg;
          sum.latencies.push(...run.latencies);
        }
      }
      const summary = Object.fromEntries(
        Object.entries(sums).map(([label, sum]) => {
          const p = percentiles(sum.latencies);
          return [
            label,
            {
              requests: sum.ok,
              failed: sum.bad,
              perSecond: round2(sum.ok / (SECONDS * ROUNDS)),
              cpuPerRequestMs: {
                node: round2(sum.node / sum.ok / 1000),
                postgres: round2(sum.pg / sum.ok / 1000),
                total: round2((sum.node + sum.pg) / sum.ok / 1000),
              },
              latencyMs: { p50: p.p50, p95: p.p95, p99: p.p99 },
            },
          ];
        }),
      );
      log(`${scenario.name}: ${JSON.stringify(summary)}`);
      results[scenario.name] = summary;
    }
    for (const bff of Object.values(bffs)) await stopBff(bff.child);

    const plans: Record<string, unknown> = {};
    const planClient = new pg.Client({ connectionString: database.databaseUrl });
    await planClient.connect();
    try {
      for (const scenario of args['skip-plans'] ? [] : SCENARIOS) {
        const requests = await capture(database.databaseUrl, scenario.call, scenario.inputs);
        plans[scenario.name] = await planModes(planClient, requests);
        log(`plans, ${scenario.name}: ${JSON.stringify(plans[scenario.name])}`);
      }
    } finally {
      await planClient.end();
    }
    const report = {
      benchmark: 'catalogue-cpu',
      ranAt: new Date().toISOString(),
      machine: machine(),
      loadAverage: { before: load1, after: loadavg()[0] },
      data: BENCH_SIZE,
      load: { connections: CONNECTIONS, secondsPerRound: SECONDS, rounds: ROUNDS, publicCache: 'off' },
      base: BASE,
      results,
      plans,
      notes: [
        'cpuPerRequestMs: CPU time of the BFF process and of every PostgreSQL process during the timed rounds, divided by the 2xx answers.',
        'Rounds alternate base and change on the same database; the load generator runs in this process and is not counted.',
        'plans: the statements the change issues for each input, run on one idle connection: PostgreSQL’s choice (auto, runs 7–10 of 10), force_custom_plan and force_generic_plan (runs 2–5 of 5); autoStatementsStillPlanned counts statements auto mode was still planning for their values after 10 runs.',
      ],
    };
    await mkdir(path.dirname(RESULTS), { recursive: true });
    await writeFile(RESULTS, `${JSON.stringify(report, null, 2)}\n`);
    log(`written to ${path.relative(process.cwd(), RESULTS)}`);
  } finally {
    for (const child of children) await stopBff(child);
    await database.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
