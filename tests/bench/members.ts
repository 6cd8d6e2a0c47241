/**
 * The signed-in reads of decision 0044, at 50 concurrent members on the bench catalogue: each
 * request is one member's, with that member's bearer token, rotating through the members.
 *
 *   - recommendations (recommendations.list): read from the per-member table the job fills;
 *     the warm-up computes every member's list once (as their first visit would).
 *   - the job's cost: recomputing one member's recommendations (computeRecommendations), timed
 *     in this process against the same database.
 *
 * Scenarios are rows of MEMBER_SCENARIOS: recommendations, the feed (each member follows two
 * genres and three sellers) and advanced search; before them, in the same BFF, the catalogue's
 * anonymous search (CATALOGUE_BASELINE), so each run carries the baseline it is judged against
 * on this shared machine. Every row prints throughput, p50/p95/p99 and CPU per request (Node +
 * PostgreSQL, from /proc). Run inside `pnpm bench` (run.ts), or alone on a catalogue of its own:
 *   node --import tsx tests/bench/members.ts [--size 10k|100k|1m] [--seconds 12] [--cpu-prof <dir>]
 * (`--cpu-prof`: the BFF writes a V8 CPU profile of the whole run into <dir> when it stops.)
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  coldStart,
  computeRecommendations,
} from '../../api/src/community/recommendations/recommendations.service.ts';
import { createDatabase } from '../../api/src/db/index.ts';
import { createLocalIdentity } from '../../api/src/platform/identity/local.ts';
import type { Mailer } from '../../api/src/platform/mail/mailer.ts';
import { createSecrets } from '../../api/src/secrets.ts';
import { seedReferenceData } from '../../api/src/seed/demo.ts';
import { log, percentiles, round2, startBff, stopBff, throwawayDatabase } from './harness.ts';
import { BENCH_SIZES, type SizeName } from './options.ts';
import { cpuMsPerRequest, processTicks, readPostgresTicks } from './proc.ts';
import type { LoadFigures } from './report.ts';
import { searchInputs } from './rotation.ts';
import { LAST, seedBench } from './seed.ts';

export const MEMBER_CONNECTIONS = 50;
/** Members who sign in and read; each request is the next member's. */
export const BENCH_MEMBERS = 200;
const PASSWORD = 'bench-member-password';

/** A seeded member's sign-in (member `n` of 1…BENCH_MEMBERS). */
export const benchMemberCredentials = (n: number) => ({
  email: `reader${n}@bench.reshelf.test`,
  password: PASSWORD,
});

export interface MemberRow {
  scenario: string;
  title: string;
  members: number;
  figures: LoadFigures;
}

export interface MemberBench {
  rows: MemberRow[];
  /** Recomputing one member's recommendations (the job's unit of work), in ms. */
  recompute: { samples: number; p50: number; p95: number; max: number };
  notes: string[];
}

/**
 * What a member reads: a tRPC procedure and its inputs (sent as GETs, the inputs in turn).
 * Advanced search without words is what /search sends for /search/advanced's fields:
 * listings.public.browse with them; here an author (each of the seed's surnames in turn), a
 * span of years, a binding and a price range.
 */
export const MEMBER_SCENARIOS: Array<{
  scenario: string;
  title: string;
  procedure: string;
  inputs: Array<Record<string, unknown>>;
}> = [
  {
    scenario: 'recommendations',
    title: 'recommendations (recommendations.list, 24 books)',
    procedure: 'community.recommendations.list',
    inputs: [{ limit: 24 }],
  },
  {
    scenario: 'feed',
    title: 'the feed (social.feed, first page of 20; 2 genres and 3 sellers followed)',
    procedure: 'community.social.feed',
    inputs: [{ limit: 20 }],
  },
  {
    scenario: 'advanced search',
    title: 'advanced search (listings.public.browse: author, years, format, price range)',
    procedure: 'catalogue.listings.browse',
    inputs: LAST.map((author) => ({
      author,
      yearFrom: 1960,
      yearTo: 2010,
      format: 'paperback',
      minPrice: 200,
      maxPrice: 1500,
    })),
  },
];

/** The catalogue's search in the same run, anonymous: the baseline the members' reads compare with. */
export const CATALOGUE_BASELINE = {
  scenario: 'catalogue search (baseline)',
  title:
    'catalogue baseline: search (listings.public.search, anonymous, the catalogue bench’s rotating inputs)',
  procedure: 'catalogue.listings.search',
  inputs: searchInputs(4000) as Array<Record<string, unknown>>,
};

const trpcPath = (procedure: string, input: unknown) =>
  `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`;

/**
 * The members and what they did, set-based: favourite genres, a wishlist, views over the last
 * month, and purchases (the catalogue's sold copies, bought in turn by the members, so
 * "readers who bought this also bought" has data). Accounts get their password via the identity.
 */
export async function seedBenchMembers(client: pg.Client, databaseUrl: string, appSecret: string) {
  const handle = createDatabase(databaseUrl, { max: 4 });
  const identity = createLocalIdentity({
    db: handle.db,
    secrets: createSecrets(appSecret),
    mailer: {} as Mailer,
    accessTokenTtlSeconds: 3600,
    // argon2id's cheapest settings, to save time: nothing measured signs in.
    passwordHashing: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
  });
  const tokens: string[] = [];
  try {
    for (let i = 1; i <= BENCH_MEMBERS; i++) {
      await identity.ensureUser({
        ...benchMemberCredentials(i),
        displayName: `Reader ${i}`,
      });
    }
    await client.query(`
      create temporary table bench_planned_orders (
        order_id uuid, buyer_id uuid, seller_id uuid, listing_id uuid, price_minor integer, at timestamptz
      )`);
    await client.query(`
      with m as (
        select u.id, row_number() over (order by u.email) as n from auth.users u
         where u.email like 'reader%@bench.reshelf.test'
      ),
      g as (select id, row_number() over (order by position) - 1 as k, count(*) over () as total from public.genres),
      a as (select id, seller_id, row_number() over (order by id) as n, count(*) over () as total
              from public.listings where status = 'active'),
      s as (select id, seller_id, price_minor, row_number() over (order by id) as n
              from public.listings where status = 'sold')
      , genres as (
        insert into public.profile_genres (user_id, genre_id)
        select m.id, g.id from m join g on g.k in (m.n % g.total, (m.n * 5 + 3) % g.total)
        on conflict do nothing returning 1
      ), followed_genres as (
        insert into public.follows (follower_id, kind, genre_id)
        select m.id, 'genre', g.id from m join g on g.k in (m.n % g.total, (m.n * 5 + 3) % g.total)
        returning 1
      ), followed_sellers as (
        insert into public.follows (follower_id, kind, seller_id)
        select distinct m.id, 'seller', a.seller_id
          from m cross join generate_series(1, 3) j
          join a on a.n = 1 + ((m.n * 104723 + j * 7907) % a.total)
         where a.seller_id <> m.id
        returning 1
      ), wishes as (
        insert into public.wishlist_items (user_id, listing_id, created_at)
        select m.id, a.id, now() - (j || ' days')::interval
          from m cross join generate_series(1, 5) j
          join a on a.n = 1 + ((m.n * 7919 + j * 104729) % a.total)
        on conflict do nothing returning 1
      ), views as (
        insert into public.listing_views (listing_id, viewed_on, viewer_key, viewed_at, viewer_id)
        select a.id, (now() - (j || ' days')::interval)::date, 'bench-member-' || m.n, now() - (j || ' days')::interval, m.id
          from m cross join generate_series(1, 20) j
          join a on a.n = 1 + ((m.n * 15485863 + j * 32452843) % a.total)
        on conflict do nothing returning 1
      )
      , planned as (
        insert into bench_planned_orders (order_id, buyer_id, seller_id, listing_id, price_minor, at)
        select gen_random_uuid(), m.id, s.seller_id, s.id, s.price_minor,
               now() - ((s.n % 80) || ' days')::interval
          from s join m on m.n = 1 + (s.n % ${BENCH_MEMBERS})
         where s.seller_id <> m.id
        returning 1
      )
      select (select count(*) from planned) as planned`);
    // The orders, then their books in a statement of their own (an order's book reads its
    // order's status when inserted, order_items_set_live, which a statement cannot see of rows
    // it inserts itself), in one transaction: an order has books when it commits.
    await client.query('begin');
    await client.query(`
      insert into public.orders (id, buyer_id, seller_id, status, item_price_minor, total_minor, paid_at, created_at)
      select order_id, buyer_id, seller_id, 'completed', price_minor, price_minor, at, at from bench_planned_orders`);
    await client.query(`
      insert into public.order_items (order_id, listing_id, position, price_minor)
      select order_id, listing_id, 1, price_minor from bench_planned_orders`);
    await client.query('commit');
    await client.query('drop table bench_planned_orders');
    await client.query('analyze');
    for (let i = 1; i <= BENCH_MEMBERS; i++) {
      const session = await identity.signIn(benchMemberCredentials(i).email, PASSWORD, {});
      tokens.push(session.accessToken);
    }
    const members = (
      await handle.db
        .selectFrom('auth.users')
        .select('id')
        .where('email', 'like', 'reader%@bench.reshelf.test')
        .execute()
    ).map((row) => row.id);
    return { tokens, members };
  } finally {
    await handle.close();
  }
}

async function loadAs(
  url: string,
  paths: readonly string[],
  tokens: readonly string[] | null,
  seconds: number,
  pids: { node: number; postmaster: number },
): Promise<LoadFigures> {
  let next = 0;
  let nextPath = 0;
  const latencies: number[] = [];
  const nodeBefore = processTicks(pids.node);
  const postgresBefore = readPostgresTicks(pids.postmaster);
  const started = performance.now();
  const instance = autocannon({
    url,
    connections: MEMBER_CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => ({
          ...request,
          path: paths[nextPath++ % paths.length]!,
          headers: tokens
            ? { ...request.headers, authorization: `Bearer ${tokens[next++ % tokens.length]}` }
            : request.headers,
        }),
      },
    ],
  }) as unknown as autocannon.Instance & Promise<autocannon.Result>;
  instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  const result = await instance;
  const elapsed = (performance.now() - started) / 1000;
  const { samples, p50, p95, p99, max } = percentiles(latencies);
  return {
    requests: samples,
    seconds: round2(elapsed),
    perSecond: round2(samples / elapsed),
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
    nodeCpuMs: cpuMsPerRequest(processTicks(pids.node) - nodeBefore, samples),
    postgresCpuMs: cpuMsPerRequest(readPostgresTicks(pids.postmaster) - postgresBefore, samples),
  };
}

/**
 * Seeds the members on a seeded bench catalogue, starts a BFF of its own (public cache off,
 * load shedding off, pool of 10 as the catalogue's) and measures each scenario.
 */
export async function benchMembers(options: {
  databaseUrl: string;
  postmasterPid: number;
  seconds: number;
  warmupSeconds: number;
  /** Writes a CPU profile of the BFF (node --cpu-prof) into this folder when it stops. */
  cpuProfileDir?: string;
}): Promise<MemberBench> {
  const appSecret = randomBytes(32).toString('hex');
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  let seeded: { tokens: string[]; members: string[] };
  try {
    log(`members: seeding ${BENCH_MEMBERS} members with genres, wishlists, views and purchases…`);
    seeded = await seedBenchMembers(client, options.databaseUrl, appSecret);
  } finally {
    await client.end();
  }

  // What the job does before anyone reads: every member's list, one member at a time, each
  // timed (the job's unit of work, measured without other load).
  const handle = createDatabase(options.databaseUrl, { max: 2 });
  const times: number[] = [];
  try {
    const cold = await coldStart(handle.db);
    for (const member of seeded.members) {
      const started = performance.now();
      await computeRecommendations(handle.db, member, cold);
      times.push(performance.now() - started);
    }
  } finally {
    await handle.close();
  }
  const recompute = percentiles(times);

  const bff = await startBff({
    databaseUrl: options.databaseUrl,
    env: {
      APP_SECRET: appSecret,
      DATABASE_POOL_MAX: '10',
      DATABASE_POOL_MAX_WAITING: String(4 * MEMBER_CONNECTIONS),
      MAX_EVENT_LOOP_DELAY_MS: '0',
      PUBLIC_CACHE_SECONDS: '0',
    },
    ...(options.cpuProfileDir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] } : {}),
  });
  const rows: MemberRow[] = [];
  try {
    const pids = { node: bff.child.pid!, postmaster: options.postmasterPid };
    // The catalogue's search first, anonymous: the same machine at the same time, for comparison.
    for (const s of [{ ...CATALOGUE_BASELINE, anonymous: true }, ...MEMBER_SCENARIOS]) {
      const paths = s.inputs.map((input) => trpcPath(s.procedure, input));
      const tokens = 'anonymous' in s ? null : seeded.tokens;
      const probe = await fetch(bff.url + paths[0], {
        headers: tokens ? { authorization: `Bearer ${tokens[0]}` } : {},
      });
      if (!probe.ok)
        throw new Error(`${paths[0]} answered ${probe.status}: ${(await probe.text()).slice(0, 500)}`);
      const members = tokens ? tokens.length : 0;
      log(`\n${s.title}: ${members ? `${members} members` : 'anonymous'}, ${MEMBER_CONNECTIONS} connections`);
      await loadAs(bff.url, paths, tokens, options.warmupSeconds, pids);
      const figures = await loadAs(bff.url, paths, tokens, options.seconds, pids);
      log(
        `  ${figures.perSecond} req/s, p50 ${figures.p50} ms, p95 ${figures.p95} ms, non-2xx ${figures.non2xx}, CPU ms/req ${cpuText(figures)}`,
      );
      rows.push({ scenario: s.scenario, title: s.title, members, figures });
    }
  } finally {
    await stopBff(bff.child);
  }
  return {
    rows,
    recompute: { samples: recompute.samples, p50: recompute.p50, p95: recompute.p95, max: recompute.max },
    notes: [
      `Members: ${BENCH_MEMBERS} signed-in readers (bearer tokens), each with 2 favourite genres, 5 wishlist saves, 20 views over the last month and the catalogue's sold copies bought in turn; each request is the next member's.`,
      'Advanced search is listings.public.browse (what /search sends for /search/advanced) with an author (each of the seed’s 30 surnames in turn), 1960–2010, paperback and £2–£15. The catalogue baseline is anonymous search through the catalogue bench’s rotating inputs, on the same BFF just before.',
      'Recommendations are read from member_recommendations, computed beforehand for every member as the job does (a member who never had any gets theirs computed on their first read, a one-off not measured here); "recompute" is the job’s unit of work, one member, timed alone before the load.',
    ],
  };
}

/** CPU per request, Node + PostgreSQL, from /proc over the measured window. */
function cpuText(f: LoadFigures): string {
  const ms = (value: number | undefined) => (value === undefined ? '—' : String(round2(value)));
  return `${ms(f.nodeCpuMs)} + ${ms(f.postgresCpuMs)}`;
}

/** The members' table of the bench report (markdown). */
export function renderMembers(bench: MemberBench): string {
  const lines = [
    '## Signed-in reads, 50 concurrent members',
    '',
    '| scenario | members | req/s | p50 ms | p95 ms | p99 ms | non-2xx | CPU ms/req (node + pg) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...bench.rows.map(
      ({ title, members, figures: f }) =>
        `| ${title} | ${members || 'anonymous'} | ${f.perSecond} | ${f.p50} | ${f.p95} | ${f.p99} | ${f.non2xx + f.errors} | ${cpuText(f)} |`,
    ),
    '',
    `Recomputing one member's recommendations (the job's unit): p50 ${bench.recompute.p50} ms, p95 ${bench.recompute.p95} ms, max ${bench.recompute.max} ms over ${bench.recompute.samples} members.`,
    '',
    ...bench.notes.map((note) => `- ${note}`),
  ];
  return lines.join('\n');
}

// Alone: node --import tsx tests/bench/members.ts [--size 10k] [--seconds 12] [--cpu-prof <dir>]
if (process.argv[1]?.endsWith('members.ts')) {
  const args = process.argv.slice(2);
  const value = (name: string, fallback: string) => {
    const at = args.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
    if (at < 0) return fallback;
    return args[at]!.includes('=') ? args[at]!.split('=')[1]! : (args[at + 1] ?? fallback);
  };
  const sizeName = value('--size', '10k').toLowerCase() as SizeName;
  const size = BENCH_SIZES[sizeName];
  if (!size) {
    console.error(`members bench: --size is one of ${Object.keys(BENCH_SIZES).join(', ')}`);
    process.exit(2);
  }
  const seconds = Number(value('--seconds', '12'));
  const cpuProfileDir = value('--cpu-prof', '');
  const database = await throwawayDatabase('reshelf-bench-members-', 'reshelf_bench');
  try {
    const seedHandle = createDatabase(database.databaseUrl, { max: 2 });
    await seedReferenceData(seedHandle.db);
    await seedHandle.close();
    const client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
    try {
      log(`seeding ${size.listings.toLocaleString('en-GB')} listings…`);
      await seedBench(client, size, log);
    } finally {
      await client.end();
    }
    const bench = await benchMembers({
      databaseUrl: database.databaseUrl,
      postmasterPid: database.postmasterPid(),
      seconds,
      warmupSeconds: 3,
      ...(cpuProfileDir ? { cpuProfileDir } : {}),
    });
    console.info(`\n# Members bench (${sizeName})\n\n${renderMembers(bench)}`);
  } finally {
    await database.stop();
  }
}
