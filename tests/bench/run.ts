/**
 * `pnpm bench [--size 10k|100k|1m] [--no-lighthouse] [--no-realtime] …` (options.ts): what
 * the targets are judged on, measured in one run on one machine.
 *
 *  1. A throwaway embedded PostgreSQL, seeded set-based (seed.ts) at the chosen size.
 *  2. The request path, in interleaved rounds: a bare Fastify hello (raw-hello.ts), the BFF's
 *     /healthz, and `account.auth.me` (anonymous) through the stock tRPC plugin and through the lean
 *     path (TRPC_PATH=stock|lean; "not available" when this branch has no lean path).
 *  3. The catalogue (search, filtered browse, listing detail), each cycling through thousands
 *     of distinct inputs (rotation.ts): judged on a BFF with the public cache off
 *     (PUBLIC_CACHE_SECONDS=0), with the production setting (60 s) reported beside it.
 *  4. For every load: throughput and latency (autocannon, 50 connections) and CPU per request
 *     of the BFF process and of PostgreSQL (postmaster + backends), from /proc (proc.ts).
 *  5. The web: home's first-load JS (gzip), whether assets are served pre-compressed, and
 *     Lighthouse (mobile) on home, search and a listing page against Debian's Chromium.
 *
 * Writes tests/bench/results/<date>-<size>.md and .json (report.ts) and prints the table.
 * Figures are reported, never asserted. Then runs the realtime bench (realtime.ts) unless
 * --no-realtime. Not part of the test run.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { CLIENT_HEADER } from '@reshelf/contracts';
import autocannon from 'autocannon';
import pg from 'pg';
import { createDatabase } from '../../api/src/db/index.ts';
import { seedReferenceData } from '../../api/src/seed/demo.ts';
import { measure as measureFirstLoad } from '../../scripts/first-load-js.mjs';
import { fairPriceBacktests, renderFairPrice } from './fair-price.ts';
import {
  type Bff,
  log,
  machine as machineLine,
  percentiles,
  ROOT,
  startBff,
  stopBff,
  throwawayDatabase,
} from './harness.ts';
import { runLighthouse } from './lighthouse.ts';
import { benchMemberCredentials, benchMembers, renderMembers } from './members.ts';
import { BENCH_SIZES, BenchArgsError, type BenchOptions, parseBenchArgs, USAGE } from './options.ts';
import { cpuMsPerRequest, processTicks, readPostgresTicks } from './proc.ts';
import {
  type BenchReport,
  type CatalogueRow,
  failuresText,
  type LighthouseRow,
  type LoadFigures,
  markdownTable,
  type PathRow,
  renderMarkdown,
  shareOfRaw,
} from './report.ts';
import { browseInputs, detailSlugs, searchInputs } from './rotation.ts';
import { seedBench } from './seed.ts';

const CONNECTIONS = 50;
const POOL_MAX = 10;
const DISTINCT = { search: 4_000, browse: 4_000, detail: 20_000 };
const WEB_DIST = path.join(ROOT, 'web/dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Load with CPU from /proc ---------------------------------------------------------------------

interface Pids {
  /** The process answering (the BFF, or the raw Fastify hello). */
  node: number;
  postmaster: number;
}

async function load(
  url: string,
  paths: readonly string[],
  seconds: number,
  pids: Pids,
): Promise<LoadFigures> {
  let next = 0;
  const latencies: number[] = [];
  const nodeBefore = processTicks(pids.node);
  const postgresBefore = readPostgresTicks(pids.postmaster);
  const started = performance.now();
  // Without a callback autocannon answers an emitter that is also a promise of the result.
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
  const elapsed = (performance.now() - started) / 1000;
  const nodeTicks = processTicks(pids.node) - nodeBefore;
  const postgresTicks = readPostgresTicks(pids.postmaster) - postgresBefore;
  const { samples, p50, p95, p99, max } = percentiles(latencies);
  return {
    requests: samples,
    seconds: Math.round(elapsed * 100) / 100,
    perSecond: Math.round((samples / elapsed) * 100) / 100,
    p50,
    p95,
    p99,
    max,
    non2xx: result.non2xx,
    failures: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {})
        .filter(([code, stat]) => !code.startsWith('2') && (stat.count ?? 0) > 0)
        .map(([code, stat]) => [code, stat.count ?? 0]),
    ),
    errors: result.errors + result.timeouts,
    nodeCpuMs: cpuMsPerRequest(nodeTicks, samples),
    postgresCpuMs: cpuMsPerRequest(postgresTicks, samples),
  };
}

/** Several windows of the same endpoint as one: requests, time and CPU summed, latencies pooled. */
function combine(parts: readonly LoadFigures[]): LoadFigures {
  const requests = parts.reduce((n, p) => n + p.requests, 0);
  const seconds = parts.reduce((n, p) => n + p.seconds, 0);
  const weighted = (key: 'nodeCpuMs' | 'postgresCpuMs') =>
    requests === 0 ? undefined : parts.reduce((n, p) => n + (p[key] ?? 0) * p.requests, 0) / requests;
  const worst = (key: 'p50' | 'p95' | 'p99' | 'max') => Math.max(...parts.map((p) => p[key]));
  return {
    requests,
    seconds: Math.round(seconds * 100) / 100,
    perSecond: Math.round((requests / seconds) * 100) / 100,
    // Latencies of interleaved rounds: the worse round's percentile (they are not pooled).
    p50: worst('p50'),
    p95: worst('p95'),
    p99: worst('p99'),
    max: worst('max'),
    non2xx: parts.reduce((n, p) => n + p.non2xx, 0),
    failures: parts.reduce<Record<string, number>>((all, p) => {
      for (const [code, n] of Object.entries(p.failures ?? {})) all[code] = (all[code] ?? 0) + n;
      return all;
    }, {}),
    errors: parts.reduce((n, p) => n + p.errors, 0),
    nodeCpuMs: weighted('nodeCpuMs'),
    postgresCpuMs: weighted('postgresCpuMs'),
  };
}

// Processes ---------------------------------------------------------------------------------------

function catalogueBff(databaseUrl: string, env: Record<string, string>, root?: string): Promise<Bff> {
  return startBff({
    databaseUrl,
    ...(root ? { root } : {}),
    env: {
      DATABASE_POOL_MAX: String(POOL_MAX),
      // Load shedding off: at 50 connections over a pool of 10 the production settings (20
      // waiting, 200 ms event-loop lag) answer most requests 503 at once, which would hide the
      // work being measured. Every request waits its turn instead; a 503 still counts as non-2xx.
      DATABASE_POOL_MAX_WAITING: String(4 * CONNECTIONS),
      MAX_EVENT_LOOP_DELAY_MS: '0',
      APP_SECRET: randomBytes(32).toString('hex'),
      ...env,
    },
  });
}

async function startRawHello(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'tests/bench/raw-hello.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the raw Fastify hello exited (${code})`)));
    setTimeout(() => reject(new Error('the raw Fastify hello did not start within 30 s')), 30_000).unref();
  });
  try {
    return { url: `http://127.0.0.1:${await port}`, child };
  } catch (error) {
    await stopBff(child);
    throw error;
  }
}

/** Whether this branch has the lean tRPC path: its configuration knows TRPC_PATH. */
function leanPathAvailable(): boolean {
  const search = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name !== 'node_modules' && search(full);
      return (
        entry.name.endsWith('.ts') &&
        !entry.name.includes('.test.') &&
        readFileSync(full, 'utf8').includes('TRPC_PATH')
      );
    });
  return search(path.join(ROOT, 'api/src'));
}

// The web ----------------------------------------------------------------------------------------

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/** Builds the web (with its .br/.gz copies) when it is missing or older than its sources, as `pnpm start` does. */
function ensureWebBuilt(): void {
  const index = path.join(WEB_DIST, 'index.html');
  const sources = Math.max(newest(path.join(ROOT, 'web')), newest(path.join(ROOT, 'packages')));
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  log('building the web client (pnpm --filter @reshelf/web build)…');
  const build = spawnSync('pnpm', ['--filter', '@reshelf/web', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the web build failed');
}

/** The entry script and its modulepreloads, as index.html names them. */
function entryScripts(html: string): string[] {
  const found = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g))
    found.add(match[1]!);
  for (const match of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g))
    found.add(match[1]!);
  return [...found].filter((src) => src.startsWith('/'));
}

/** The modulepreload links of a page's HTML as served, and its module entry. */
async function pageScripts(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ modulePreloads: number; entry?: string }> {
  const response = await fetch(url, { headers, redirect: 'follow' });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const html = await response.text();
  return {
    modulePreloads: [...html.matchAll(/<link\b[^>]*\brel="modulepreload"/g)].length,
    entry: entryScripts(html)[0],
  };
}

async function webFigures(siteUrl: string | undefined): Promise<BenchReport['web']> {
  if (!siteUrl || !existsSync(path.join(WEB_DIST, 'index.html')))
    return { note: 'web/dist is not built (run with Lighthouse, or pnpm build)' };
  const home = await pageScripts(`${siteUrl}/`);
  const web: BenchReport['web'] = {
    homeJsGzipKiB: Math.round((measureFirstLoad(WEB_DIST).first.gzip / 1024) * 10) / 10,
    homeModulePreloads: home.modulePreloads,
    note: "the build's first load of the home page (its entry and the home route's chunks with their static imports, gzip: scripts/first-load-js.mjs, as the build's budget judges it); the links of the home page as the BFF serves it",
  };
  if (home.entry) {
    // node:http, not fetch: the header exactly as sent, nothing decoded or added on the way.
    const encoding = await new Promise<string>((resolve, reject) => {
      get(siteUrl + home.entry, { headers: { 'accept-encoding': 'br, gzip' } }, (response) => {
        response.resume();
        response.on('end', () => resolve(String(response.headers['content-encoding'] ?? 'none')));
      }).on('error', reject);
    });
    web.precompressed = `${encoding} (${home.entry})`;
  }
  return web;
}

/**
 * A seeded member signed in on `siteUrl` as the web client is (session cookies), with three
 * books from different sellers in their basket: the Cookie header for the signed-in pages.
 */
async function signedInMember(siteUrl: string, databaseUrl: string): Promise<Record<string, string>> {
  const { email, password } = benchMemberCredentials(1);
  const post = async (procedure: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${siteUrl}/trpc/${procedure}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: siteUrl,
        [CLIENT_HEADER]: 'web',
        ...headers,
      },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${procedure} answered ${response.status}: ${await response.text()}`);
    return response;
  };
  const signIn = await post('account.auth.signIn', { email, password });
  const cookie = signIn.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .join('; ');
  if (!cookie) throw new Error('signing in set no session cookie');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `select distinct on (l.seller_id) l.id from public.listings l
        where l.status = 'active' and l.seller_id <> (select id from auth.users where email = $1)
        order by l.seller_id, l.id limit 3`,
      [email],
    );
    for (const row of rows) await post('commerce.basket.member.add', { listingId: row.id }, { cookie });
  } finally {
    await client.end();
  }
  return { cookie };
}

/** Lighthouse's whole results of the last run, one per page (not committed: tests/bench/results/*). */
const LIGHTHOUSE_KEPT = path.join(ROOT, 'tests/bench/results/lighthouse');

// The request path --------------------------------------------------------------------------------

/** The baseline checkout's BFFs (--baseline): /healthz, and auth.me on its default (lean) path. */
async function startBaseline(
  options: BenchOptions,
  databaseUrl: string,
  children: ChildProcess[],
): Promise<{ healthz: Bff; lean: Bff } | undefined> {
  if (!options.baseline) return undefined;
  const root = path.resolve(options.baseline);
  if (!existsSync(path.join(root, 'api/src/main.ts'))) {
    throw new BenchArgsError(`--baseline ${options.baseline}: no api/src/main.ts there`);
  }
  log(
    `baseline: ${root} (${spawnSync('git', ['-C', root, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' }).stdout.trim()})`,
  );
  const healthz = await catalogueBff(databaseUrl, { PUBLIC_CACHE_SECONDS: '0' }, root);
  children.push(healthz.child);
  const lean = await catalogueBff(databaseUrl, { TRPC_PATH: 'lean' }, root);
  children.push(lean.child);
  return { healthz, lean };
}

/** Raw Fastify, /healthz, auth.me stock and lean (and the baseline's), in interleaved rounds. */
async function requestPathRounds(
  options: BenchOptions,
  bffs: {
    raw: { url: string; child: ChildProcess };
    healthz: Bff;
    stock: Bff;
    lean: Bff | undefined;
    baseline: { healthz: Bff; lean: Bff } | undefined;
    postmaster: number;
  },
): Promise<PathRow[]> {
  const { durationSeconds: seconds, warmupSeconds: warmup } = options;
  const { raw, healthz, stock, lean: leanBff, baseline, postmaster } = bffs;
  const me = trpcPath('account.auth.me');
  const endpoints: Array<{ row: PathRow; url?: string; path: string; pid?: number }> = [
    {
      row: { name: 'raw', title: 'raw Fastify hello (GET /)' },
      url: raw.url,
      path: '/',
      pid: raw.child.pid,
    },
    {
      row: { name: 'healthz', title: 'BFF GET /healthz' },
      url: healthz.url,
      path: '/healthz',
      pid: healthz.child.pid,
    },
    {
      row: { name: 'stock', title: 'account.auth.me anonymous, stock tRPC plugin' },
      url: stock.url,
      path: me,
      pid: stock.child.pid,
    },
    leanBff
      ? {
          row: { name: 'lean', title: 'account.auth.me anonymous, lean path' },
          url: leanBff.url,
          path: me,
          pid: leanBff.child.pid,
        }
      : {
          row: {
            name: 'lean',
            title: 'account.auth.me anonymous, lean path',
            unavailable: 'not available (this branch has no TRPC_PATH)',
          },
          path: me,
        },
    ...(baseline
      ? [
          {
            row: { name: 'healthz-baseline', title: 'baseline: BFF GET /healthz' } as PathRow,
            url: baseline.healthz.url,
            path: '/healthz',
            pid: baseline.healthz.child.pid,
          },
          {
            row: {
              name: 'lean-baseline',
              title: 'baseline: account.auth.me anonymous, lean path',
            } as PathRow,
            url: baseline.lean.url,
            path: me,
            pid: baseline.lean.child.pid,
          },
        ]
      : []),
  ];
  const windows = new Map<string, LoadFigures[]>();
  for (const e of endpoints) {
    if (!e.url || !e.pid) continue;
    await assertAnswers(e.url, [e.path]);
    log(`warming ${e.row.title}`);
    await load(e.url, [e.path], warmup, { node: e.pid, postmaster });
  }
  for (let round = 1; round <= options.rounds; round++) {
    for (const e of endpoints) {
      if (!e.url || !e.pid) continue;
      const figures = await load(e.url, [e.path], seconds, { node: e.pid, postmaster });
      log(`  round ${round} ${e.row.title}: ${figures.perSecond} req/s, p95 ${figures.p95} ms`);
      windows.set(e.row.name, [...(windows.get(e.row.name) ?? []), figures]);
    }
  }
  return endpoints.map((e) => {
    const parts = windows.get(e.row.name);
    return parts ? { ...e.row, figures: combine(parts) } : e.row;
  });
}

/** `--only request-path`: reference data only, the four (six with --baseline) BFFs' rounds, printed. */
async function requestPathOnly(options: BenchOptions): Promise<void> {
  log(`Reshelf bench, request path only, on ${machineLine()}`);
  const database = await throwawayDatabase('reshelf-bench-', 'reshelf_bench');
  const children: ChildProcess[] = [];
  try {
    const seedHandle = createDatabase(database.databaseUrl, { max: 2 });
    await seedReferenceData(seedHandle.db);
    await seedHandle.close();
    const start = async (env: Record<string, string>) => {
      const bff = await catalogueBff(database.databaseUrl, env);
      children.push(bff.child);
      return bff;
    };
    const healthz = await start({ PUBLIC_CACHE_SECONDS: '0' });
    const stock = await start({ TRPC_PATH: 'stock' });
    const lean = leanPathAvailable() ? await start({ TRPC_PATH: 'lean' }) : undefined;
    const raw = await startRawHello();
    children.push(raw.child);
    const baseline = await startBaseline(options, database.databaseUrl, children);
    const loadStart = loadavg();
    const paths = await requestPathRounds(options, {
      raw,
      healthz,
      stock,
      lean,
      baseline,
      postmaster: database.postmasterPid(),
    });
    const loadEnd = loadavg();
    console.info(
      `\n## Request path (${options.rounds} interleaved rounds of ${options.durationSeconds} s, ${CONNECTIONS} connections; load ${loadStart.map((n) => n.toFixed(2)).join(' / ')} → ${loadEnd.map((n) => n.toFixed(2)).join(' / ')})\n`,
    );
    console.info(
      markdownTable(
        ['endpoint', 'req/s', 'share of raw', 'p50 ms', 'p95 ms', 'Node CPU µs/req', 'non-2xx'],
        paths.map((p) =>
          p.figures
            ? [
                p.title,
                String(Math.round(p.figures.perSecond)),
                `${((shareOfRaw(paths, p.name) ?? 0) * 100).toFixed(1)}%`,
                String(p.figures.p50),
                String(p.figures.p95),
                p.figures.nodeCpuMs === undefined ? '—' : String(Math.round(p.figures.nodeCpuMs * 1000)),
                failuresText(p.figures),
              ]
            : [p.title, p.unavailable ?? 'not available', '—', '—', '—', '—', '—'],
        ),
      ),
    );
  } finally {
    for (const child of children) await stopBff(child);
    await database.stop();
  }
}

// Main -------------------------------------------------------------------------------------------

const trpcPath = (procedure: string, input?: unknown) =>
  `/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;

async function assertAnswers(url: string, paths: readonly string[]): Promise<void> {
  for (const p of paths) {
    const response = await fetch(url + p);
    if (!response.ok)
      throw new Error(`${p} answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
    await response.arrayBuffer();
  }
}

async function main(options: BenchOptions): Promise<void> {
  const size = BENCH_SIZES[options.size];
  const { durationSeconds: seconds, warmupSeconds: warmup } = options;
  const machine = machineLine();
  log(`Reshelf bench (${options.size}) on ${machine}`);
  const lighthouseSkipped = !options.lighthouse
    ? '--no-lighthouse'
    : !existsSync(CHROMIUM)
      ? `no Chromium at ${CHROMIUM} (node scripts/ensure-chromium.mjs)`
      : undefined;
  if (!lighthouseSkipped) ensureWebBuilt();
  const serveWeb = existsSync(path.join(WEB_DIST, 'index.html'));

  const database = await throwawayDatabase('reshelf-bench-', 'reshelf_bench');
  const { databaseUrl } = database;
  const children: ChildProcess[] = [];
  try {
    const seedHandle = createDatabase(databaseUrl, { max: 2 });
    await seedReferenceData(seedHandle.db);
    const vocabulary = {
      categories: (await seedHandle.db.selectFrom('categories').select('slug').execute()).map((r) => r.slug),
      genres: (await seedHandle.db.selectFrom('genres').select('slug').execute()).map((r) => r.slug),
    };
    await seedHandle.close();
    log(`seeding ${size.listings.toLocaleString('en-GB')} listings…`);
    const seedStarted = Date.now();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await seedBench(client, size, log);
    } finally {
      await client.end();
    }
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const postmaster = database.postmasterPid();

    const lean = leanPathAvailable();
    const cold = await catalogueBff(databaseUrl, { PUBLIC_CACHE_SECONDS: '0' });
    children.push(cold.child);
    const warm = await catalogueBff(databaseUrl, {
      PUBLIC_CACHE_SECONDS: '60',
      ...(serveWeb ? { WEB_DIST } : {}),
    });
    children.push(warm.child);
    const stock = await catalogueBff(databaseUrl, { TRPC_PATH: 'stock' });
    children.push(stock.child);
    const leanBff = lean ? await catalogueBff(databaseUrl, { TRPC_PATH: 'lean' }) : undefined;
    if (leanBff) children.push(leanBff.child);
    const raw = await startRawHello();
    children.push(raw.child);
    const baseline = await startBaseline(options, databaseUrl, children);
    const loadStart = loadavg();

    const paths = await requestPathRounds(options, {
      raw,
      healthz: cold,
      stock,
      lean: leanBff,
      baseline,
      postmaster,
    });

    // The catalogue ------------------------------------------------------------------------------
    const scenarios: Array<{ scenario: CatalogueRow['scenario']; title: string; paths: string[] }> = [
      {
        scenario: 'search',
        title: 'search (books.public.search)',
        paths: searchInputs(DISTINCT.search).map((input) => trpcPath('catalogue.books.public.search', input)),
      },
      {
        scenario: 'browse',
        title: 'filtered browse (books.public.search without words)',
        paths: browseInputs(DISTINCT.browse, vocabulary).map((input) =>
          trpcPath('catalogue.books.public.search', input),
        ),
      },
      {
        scenario: 'detail',
        title: 'listing detail (listings.public.bySlug)',
        paths: detailSlugs(DISTINCT.detail, size.listings).map((slug) =>
          trpcPath('catalogue.listings.bySlug', { slug }),
        ),
      },
    ];
    const catalogue: CatalogueRow[] = [];
    for (const s of scenarios) {
      log(`\n${s.title}: ${s.paths.length} distinct inputs`);
      // A sample must answer 200 before anything is timed (non-2xx under load are counted).
      await assertAnswers(cold.url, s.paths.slice(0, 25));
      // Warm-up and measured windows start at different points of the rotation.
      const rotated = (offset: number) => [...s.paths.slice(offset), ...s.paths.slice(0, offset)];
      const half = Math.floor(s.paths.length / 2);
      await load(cold.url, rotated(half), warmup, { node: cold.child.pid!, postmaster });
      const cacheOff = await load(cold.url, s.paths, seconds, { node: cold.child.pid!, postmaster });
      log(`  cache off: ${cacheOff.perSecond} req/s, p95 ${cacheOff.p95} ms, non-2xx ${cacheOff.non2xx}`);
      await load(warm.url, rotated(half), warmup, { node: warm.child.pid!, postmaster });
      const cacheOn = await load(warm.url, s.paths, seconds, { node: warm.child.pid!, postmaster });
      log(`  cache on:  ${cacheOn.perSecond} req/s, p95 ${cacheOn.p95} ms, non-2xx ${cacheOn.non2xx}`);
      catalogue.push({
        scenario: s.scenario,
        title: s.title,
        distinctInputs: s.paths.length,
        cacheOff,
        cacheOn,
      });
    }

    // Signed-in reads: recommendations at 50 concurrent members (members.ts) -----------
    const members = await benchMembers({
      databaseUrl,
      postmasterPid: postmaster,
      seconds,
      warmupSeconds: warmup,
    });

    // The web --------------------------------------------------------------------------------------
    const web = await webFigures(serveWeb ? warm.url : undefined);
    const lighthouseRows: LighthouseRow[] = [];
    if (!lighthouseSkipped) {
      const member = await signedInMember(warm.url, databaseUrl);
      const pages: Array<[LighthouseRow['page'], string, Record<string, string>?]> = [
        ['home', '/'],
        ['search', `/search?q=${encodeURIComponent('silent harbour')}`],
        ['listing', '/listing/bench-7'],
        ['orders', '/account/orders', member],
        ['basket', '/basket', member],
      ];
      for (const [page, p, headers] of pages) {
        log(`Lighthouse: ${page} (${p})${headers ? ', signed in' : ''}`);
        const served = await pageScripts(warm.url + p, headers);
        const figures = await runLighthouse(
          warm.url + p,
          CHROMIUM,
          headers,
          path.join(LIGHTHOUSE_KEPT, `${options.size}-${page}.json`),
        );
        log(
          `  performance ${figures.performance ?? '—'}, LCP ${figures.lcpMs ?? '—'} ms, TBT ${figures.tbtMs ?? '—'} ms, CLS ${figures.cls ?? '—'}, ${served.modulePreloads} modulepreloads${figures.error ? ` (${figures.error})` : ''}`,
        );
        lighthouseRows.push({
          page,
          url: p,
          ...(headers ? { signedIn: true } : {}),
          ...figures,
          modulePreloads: served.modulePreloads,
        });
      }
    }
    const loadEnd = loadavg();

    const ranAt = new Date().toISOString();
    const report: BenchReport & { members: typeof members } = {
      ranAt,
      command: ['pnpm bench', ...process.argv.slice(2)].join(' '),
      size: options.size,
      data: { ...size, seedSeconds: Math.round(seedSeconds * 10) / 10 },
      machine,
      cores: cpus().length,
      loadAverage: { start: loadStart, end: loadEnd },
      load: {
        connections: CONNECTIONS,
        durationSeconds: seconds,
        warmupSeconds: warmup,
        rounds: options.rounds,
        poolMax: POOL_MAX,
      },
      trpcPath: process.env.TRPC_PATH ?? 'the app default (TRPC_PATH unset)',
      paths,
      catalogue,
      members,
      web,
      lighthouse: lighthouseSkipped ? { skipped: lighthouseSkipped, rows: [] } : { rows: lighthouseRows },
      notes: [
        'Judged path: a BFF started with PUBLIC_CACHE_SECONDS=0 (api/src/config.ts), which creates no public cache (decision 0008) and keeps no sitemaps; every request runs its SQL. "on (60 s)" is a second BFF with the production setting and the same inputs.',
        `Rotation: ${scenarios.map((s) => `${s.paths.length} ${s.scenario}`).join(', ')} distinct inputs (tests/bench/rotation.ts), cycled in order; a measured window repeats an input only after all of them, so "cache on" hits only where the window outlasts one cycle.`,
        "CPU per request: utime+stime from /proc/<pid>/stat of the answering process, and of PostgreSQL (the postmaster with its reaped children, plus its live backends), over each measured window, divided by the responses. The load generator (autocannon in the bench process) is not counted but shares the cores; PostgreSQL's figure also holds whatever background work the other, idle BFFs of the run did meanwhile (their workers' polls).",
        'Load shedding is off in every BFF of the run (DATABASE_POOL_MAX_WAITING=200, MAX_EVENT_LOOP_DELAY_MS=0): with the production settings (20 waiting on a pool of 10, 200 ms event-loop lag) 50 connections are mostly answered 503 at once, so CPU per request and latency would describe the refusals, not the work.',
        'Request path rows: each endpoint measured in every round, rounds interleaved (raw, healthz, stock, lean); req/s and CPU over all rounds, latency percentiles of the worse round. auth.me BFFs run the production settings (load shedding aside) with TRPC_PATH=stock|lean.',
        'Everything (PostgreSQL, the BFFs, the load generator, Chromium) shares this machine; the load averages above show what else ran.',
      ],
    };
    const base = path.join(ROOT, 'tests/bench/results', `${ranAt.slice(0, 10)}-${options.size}`);
    await mkdir(path.dirname(base), { recursive: true });
    // The fair price's backtest (fair-price.ts): no load, no database; its own table.
    const fairPrice = fairPriceBacktests();
    const markdown = `${renderMarkdown(report)}\n\n${renderMembers(members)}\n\n${renderFairPrice(fairPrice)}\n`;
    await writeFile(`${base}.md`, markdown);
    await writeFile(`${base}.json`, `${JSON.stringify({ ...report, fairPrice }, null, 2)}\n`);
    console.info(`\n${markdown}`);
    log(`written to ${path.relative(process.cwd(), base)}.md and .json`);
  } finally {
    for (const child of children) await stopBff(child);
    await database.stop();
  }
}

let options: BenchOptions;
try {
  options = parseBenchArgs(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof BenchArgsError)) throw error;
  console.error(`pnpm bench: ${error.message}`);
  process.exit(2);
}
if (options.help) {
  console.info(USAGE);
  process.exit(0);
}
try {
  if (options.only === 'request-path') await requestPathOnly(options);
  else await main(options);
} catch (error) {
  console.error(error);
  process.exit(1);
}
if (options.realtime && !options.only) {
  const realtime = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'tests/bench/realtime.ts')],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  process.exit(realtime.status ?? 1);
}
