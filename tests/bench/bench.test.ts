/**
 * The bench's pure parts: its arguments, CPU time from /proc, the inputs it rotates through,
 * Lighthouse's result and the results table. No figure of a run is asserted here.
 */
import { browseInputSchema, searchInputSchema } from '@reshelf/contracts';
import { describe, expect, it } from 'vitest';
import { summariseLighthouse } from './lighthouse.ts';
import { BenchArgsError, parseBenchArgs } from './options.ts';
import { cpuMsPerRequest, parseProcStat, postgresTicks } from './proc.ts';
import { type BenchReport, type LoadFigures, renderMarkdown, targets } from './report.ts';
import { browseInputs, detailSlugs, searchInputs } from './rotation.ts';

describe('pnpm bench arguments', () => {
  it('defaults to 100k listings, 12 s windows, 2 rounds, Lighthouse and the realtime bench', () => {
    expect(parseBenchArgs([])).toEqual({
      size: '100k',
      durationSeconds: 12,
      warmupSeconds: 3,
      rounds: 2,
      lighthouse: true,
      realtime: true,
      help: false,
    });
  });

  it('reads --size in either form and any case, and the switches', () => {
    expect(parseBenchArgs(['--size', '10k']).size).toBe('10k');
    expect(parseBenchArgs(['--size=1M']).size).toBe('1m');
    const options = parseBenchArgs(['--', '--size', '1m', '--no-lighthouse', '--no-realtime', '--rounds=3']);
    expect(options).toMatchObject({ size: '1m', lighthouse: false, realtime: false, rounds: 3 });
    expect(parseBenchArgs(['--duration', '30']).durationSeconds).toBe(30);
    expect(parseBenchArgs([], { BENCH_DURATION: '5' }).durationSeconds).toBe(5);
    expect(parseBenchArgs(['--duration', '7'], { BENCH_DURATION: '5' }).durationSeconds).toBe(7);
    expect(parseBenchArgs(['--only', 'request-path', '--baseline=/work/base'])).toMatchObject({
      only: 'request-path',
      baseline: '/work/base',
    });
  });

  it('refuses what it does not understand, saying what is wrong', () => {
    const fails = (argv: string[], env: Record<string, string> = {}) => {
      try {
        parseBenchArgs(argv, env);
      } catch (error) {
        expect(error).toBeInstanceOf(BenchArgsError);
        return (error as Error).message;
      }
      throw new Error(`accepted ${argv.join(' ')}`);
    };
    expect(fails(['--size', '50k'])).toBe('--size must be one of 10k, 100k, 1m, not "50k"');
    expect(fails(['--size'])).toBe('--size needs a value');
    expect(fails(['--size', '--no-lighthouse'])).toBe('--size needs a value');
    expect(fails(['--duration', '0'])).toBe('--duration must be from 1 to 600, not 0');
    expect(fails(['--rounds', 'two'])).toBe('--rounds needs a whole number from 1 to 20, not "two"');
    expect(fails(['--no-lighthouse=yes'])).toBe('--no-lighthouse takes no value');
    expect(fails(['--only', 'catalogue'])).toBe('--only must be one of request-path, not "catalogue"');
    expect(fails(['--baseline'])).toBe('--baseline needs a value');
    expect(fails(['--sise', '10k'])).toMatch(/^unknown option "--sise"\n\npnpm bench \[options\]/);
    expect(fails([], { BENCH_DURATION: 'ten' })).toBe(
      'BENCH_DURATION needs a whole number from 1 to 600, not "ten"',
    );
  });
});

describe('CPU time from /proc', () => {
  // A real line's shape; the command name holds a space and a parenthesis.
  const line = (
    pid: number,
    comm: string,
    ppid: number,
    utime: number,
    stime: number,
    cutime = 0,
    cstime = 0,
  ) =>
    `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 4194560 1220 0 0 0 ${utime} ${stime} ${cutime} ${cstime} 20 0 1 0 37 168710144 3561 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 17 1 0 0 0 0 0\n`;

  it('reads ppid, utime, stime, cutime and cstime, counting fields after the last parenthesis', () => {
    expect(parseProcStat(line(4242, 'postgres: bench (x) idle', 4100, 1234, 56, 7, 8))).toEqual({
      pid: 4242,
      comm: 'postgres: bench (x) idle',
      ppid: 4100,
      utime: 1234,
      stime: 56,
      cutime: 7,
      cstime: 8,
    });
    expect(() => parseProcStat('garbage')).toThrow(/not a \/proc\/<pid>\/stat line/);
    expect(() => parseProcStat('12 (node) S 1 2 3')).toThrow(/not a \/proc\/<pid>\/stat line/);
  });

  it("sums PostgreSQL: the postmaster, its reaped children and its live backends, and nobody else's", () => {
    const before = [
      parseProcStat(line(100, 'postgres', 1, 10, 5, 20, 4)),
      parseProcStat(line(101, 'postgres: checkpointer', 100, 3, 1)),
      parseProcStat(line(102, 'postgres: bench idle', 100, 40, 10)),
      parseProcStat(line(200, 'node', 1, 900, 90)),
      parseProcStat(line(201, 'postgres', 200, 500, 500)),
    ];
    expect(postgresTicks(100, before)).toBe(10 + 5 + 20 + 4 + 3 + 1 + 40 + 10);
    // Backend 102 used 5 more ticks, then exited and was reaped: its time moved to cutime/cstime.
    const after = [
      parseProcStat(line(100, 'postgres', 1, 11, 5, 20 + 43, 4 + 12)),
      parseProcStat(line(101, 'postgres: checkpointer', 100, 3, 1)),
      parseProcStat(line(200, 'node', 1, 950, 95)),
    ];
    expect(postgresTicks(100, after) - postgresTicks(100, before)).toBe(1 + 5);
    expect(() => postgresTicks(999, before)).toThrow("PostgreSQL's postmaster (pid 999) is not running");
  });

  it('turns ticks (1/100 s) into milliseconds per request', () => {
    expect(cpuMsPerRequest(150, 1000)).toBe(1.5);
    expect(cpuMsPerRequest(3, 1500)).toBe(0.02);
    expect(cpuMsPerRequest(10, 0)).toBeUndefined();
  });
});

describe('the inputs the catalogue scenarios rotate through', () => {
  it('are thousands of distinct, valid searches, browses and slugs, the same every run', () => {
    const searches = searchInputs(4000);
    expect(searches).toHaveLength(4000);
    expect(new Set(searches.map((s) => s.q)).size).toBe(4000);
    for (const input of searches) expect(searchInputSchema.safeParse(input).success).toBe(true);
    expect(searchInputs(50)).toEqual(searches.slice(0, 50));

    const browses = browseInputs(4000, {
      categories: ['fiction', 'fantasy'],
      genres: ['classics', 'horror'],
    });
    expect(browses).toHaveLength(4000);
    expect(new Set(browses.map((b) => JSON.stringify(b))).size).toBe(4000);
    for (const input of browses) expect(browseInputSchema.safeParse(input).error).toBeUndefined();

    const slugs = detailSlugs(20_000, 100_000);
    expect(new Set(slugs).size).toBe(20_000);
    expect(detailSlugs(20_000, 10_000)).toHaveLength(10_000);
    expect(new Set(detailSlugs(20_000, 10_000)).size).toBe(10_000);
    for (const slug of detailSlugs(500, 10_000)) {
      const n = Number(slug.slice('bench-'.length));
      expect(n >= 1 && n <= 10_000).toBe(true);
    }
  });
});

describe('Lighthouse results', () => {
  it('reads the performance score and LCP, or says why there are none', () => {
    expect(
      summariseLighthouse({
        categories: { performance: { score: 0.543 } },
        audits: { 'largest-contentful-paint': { numericValue: 6612.4 } },
      }),
    ).toEqual({ performance: 54, lcpMs: 6612 });
    expect(
      summariseLighthouse({
        categories: { performance: { score: 0.97 } },
        audits: {
          'largest-contentful-paint': { numericValue: 1650 },
          'total-blocking-time': { numericValue: 123.6 },
          'cumulative-layout-shift': { numericValue: 0.04321 },
          'first-contentful-paint': { numericValue: 980.2 },
          'resource-summary': {
            details: {
              items: [
                { resourceType: 'total', transferSize: 400_000 },
                { resourceType: 'script', transferSize: 150_528 },
              ],
            },
          },
        },
      }),
    ).toEqual({ performance: 97, lcpMs: 1650, tbtMs: 124, cls: 0.043, fcpMs: 980, scriptKiB: 147 });
    expect(
      summariseLighthouse({
        runtimeError: { code: 'NO_FCP', message: 'The page did not paint any content.' },
        categories: { performance: { score: null } },
        audits: {},
      }),
    ).toEqual({ error: 'The page did not paint any content.' });
    expect(summariseLighthouse({})).toEqual({ error: 'no performance score in the result' });
  });
});

describe('the results table', () => {
  const figures = (over: Partial<LoadFigures> = {}): LoadFigures => ({
    requests: 12_000,
    seconds: 12,
    perSecond: 1000,
    p50: 10,
    p95: 20,
    p99: 30,
    max: 40,
    non2xx: 0,
    errors: 0,
    nodeCpuMs: 0.5,
    postgresCpuMs: 0.3,
    ...over,
  });
  const report = (over: Partial<BenchReport> = {}): BenchReport => ({
    ranAt: '2026-11-24T13:45:00.000Z',
    command: 'pnpm bench --size 10k',
    size: '10k',
    data: { sellers: 200, charities: 60, books: 2500, listings: 10_000, seedSeconds: 4.2 },
    machine: '2 cores (AMD EPYC), 24 GiB, Node v20.20.2',
    cores: 2,
    loadAverage: { start: [1.5, 1.2, 0.9], end: [2.25, 1.5, 1] },
    load: { connections: 50, durationSeconds: 12, warmupSeconds: 3, rounds: 2, poolMax: 10 },
    trpcPath: 'the app default (TRPC_PATH unset)',
    paths: [
      {
        name: 'raw',
        title: 'raw Fastify hello (GET /)',
        figures: figures({ perSecond: 20_000, nodeCpuMs: 0.022 }),
      },
      { name: 'healthz', title: 'BFF GET /healthz', figures: figures({ perSecond: 15_000 }) },
      {
        name: 'stock',
        title: 'account.auth.me anonymous, stock tRPC plugin',
        figures: figures({ perSecond: 940 }),
      },
      {
        name: 'lean',
        title: 'account.auth.me | lean path',
        unavailable: 'not available (this branch has no TRPC_PATH)',
      },
    ],
    catalogue: [
      {
        scenario: 'search',
        title: 'search',
        distinctInputs: 4000,
        cacheOff: figures(),
        cacheOn: figures({ p95: 5 }),
      },
      {
        scenario: 'browse',
        title: 'browse',
        distinctInputs: 4000,
        cacheOff: figures({ non2xx: 3, failures: { '503': 2, '404': 1 } }),
        cacheOn: figures(),
      },
      {
        scenario: 'detail',
        title: 'detail',
        distinctInputs: 10_000,
        cacheOff: figures({ nodeCpuMs: 0.25, postgresCpuMs: 0.1, p95: 26 }),
        cacheOn: figures(),
      },
    ],
    web: { homeJsGzipKiB: 230.4, homeModulePreloads: 47, precompressed: 'none (/assets/index.js)' },
    lighthouse: {
      rows: [
        {
          page: 'home',
          url: '/',
          performance: 96,
          lcpMs: 1700,
          tbtMs: 151,
          cls: 0.05,
          modulePreloads: 10,
        },
        {
          page: 'search',
          url: '/search?q=x',
          error: 'The page did not paint any content.',
          modulePreloads: 11,
        },
        {
          page: 'basket',
          url: '/basket',
          signedIn: true,
          performance: 88,
          lcpMs: 2100,
          tbtMs: 40,
          cls: 0.2,
          modulePreloads: 9,
        },
      ],
    },
    notes: ['a note'],
    ...over,
  });

  it('judges each target on the cache-off figures and the path the branch has', () => {
    const rows = targets(report());
    const row = (what: string) => rows.find((r) => r.what.startsWith(what));
    // No lean path: auth.me is judged on the stock plugin, 940 of 20,000 req/s.
    expect(row('account.auth.me')).toEqual({
      what: 'account.auth.me (anonymous, stock path) throughput vs raw Fastify hello',
      target: '≥ 35%',
      measured: '4.7%',
      met: false,
    });
    expect(row('/healthz')).toMatchObject({ measured: '75%', met: true });
    expect(row('search, cache off, 10k: CPU')).toMatchObject({ measured: '0.8 ms (0.5 + 0.3)', met: true });
    // Any non-2xx answer fails the scenario, whatever its figures.
    expect(row('browse, cache off, 10k: CPU')).toMatchObject({ met: false });
    expect(row('detail, cache off, 10k: CPU')).toMatchObject({ measured: '0.35 ms (0.25 + 0.1)', met: true });
    expect(row('detail, cache off, 10k: p95')).toMatchObject({
      target: '≤ 25 ms',
      measured: '26 ms',
      met: false,
    });
    expect(row('home page first-load JS')).toMatchObject({
      target: '≤ 140 KiB',
      measured: '230.4 KiB',
      met: false,
    });
    expect(row('Lighthouse mobile performance: home')).toMatchObject({ measured: '96', met: true });
    expect(row('Lighthouse mobile LCP: home')).toMatchObject({ measured: '1.7 s', met: true });
    // The limits are inclusive: 10 preloads and CLS 0.05 pass, 151 ms of blocking does not.
    expect(row('modulepreload links: home')).toMatchObject({ target: '≤ 10', measured: '10', met: true });
    expect(row('Lighthouse mobile total blocking time: home')).toMatchObject({
      target: '≤ 150 ms',
      measured: '151 ms',
      met: false,
    });
    expect(row('Lighthouse mobile CLS: home')).toMatchObject({ target: '≤ 0.05', met: true });
    expect(row('Lighthouse mobile performance: search')).toMatchObject({
      measured: 'failed: The page did not paint any content.',
      met: null,
    });
    expect(row('modulepreload links: search')).toMatchObject({ measured: '11', met: false });
    // Signed-in pages are judged by the same targets, and say they were signed in.
    expect(row('Lighthouse mobile performance: basket (signed in)')).toMatchObject({
      measured: '88',
      met: false,
    });
    expect(row('Lighthouse mobile CLS: basket (signed in)')).toMatchObject({ measured: '0.2', met: false });
    expect(row('modulepreload links: basket (signed in)')).toMatchObject({ met: true });
    expect(row('static assets pre-compressed')).toMatchObject({ met: false });
  });

  it('uses the lean path once the branch has it', () => {
    const withLean = report();
    withLean.paths[3] = {
      name: 'lean',
      title: 'account.auth.me, lean path',
      figures: figures({ perSecond: 8000 }),
    };
    expect(targets(withLean)[0]).toMatchObject({
      what: 'account.auth.me (anonymous, lean path) throughput vs raw Fastify hello',
      measured: '40%',
      met: true,
    });
  });

  it('renders markdown with the machine, load and every table, escaping cells', () => {
    const markdown = renderMarkdown(report());
    expect(markdown).toContain('# Reshelf bench, 2026-11-24T13:45:00.000Z (10k)');
    expect(markdown).toContain('- Machine: 2 cores (AMD EPYC), 24 GiB, Node v20.20.2\n');
    expect(markdown).toContain(
      '- Load average (1 / 5 / 15 min) on 2 cores: 1.5 / 1.2 / 0.9 at the start, 2.25 / 1.5 / 1 at the end',
    );
    expect(markdown).toContain('| what | target | measured | result |\n| --- | --- | --- | --- |');
    expect(markdown).toContain(
      '| account.auth.me (anonymous, stock path) throughput vs raw Fastify hello | ≥ 35% | 4.7% | NOT met |',
    );
    expect(markdown).toContain('| /healthz throughput vs raw Fastify hello | ≥ 70% | 75% | met |');
    expect(markdown).toContain(
      '| account.auth.me \\| lean path | not available (this branch has no TRPC_PATH) | — | — | — | — | — | — |',
    );
    expect(markdown).toContain('| raw Fastify hello (GET /) | 20000 | 100% | 10 | 20 | 22 | 300 | 0 |');
    expect(markdown).toContain(
      '| search | off (judged) | 4000 | 12000 | 1000 | 10 | 20 | 30 | 0.5 | 0.3 | 0.8 | 0 |',
    );
    expect(markdown).toContain(
      '| browse | off (judged) | 4000 | 12000 | 1000 | 10 | 20 | 30 | 0.5 | 0.3 | 0.8 | 3 (1× 404, 2× 503) |',
    );
    expect(markdown).toContain(
      '| search | /search?q=x | failed: The page did not paint any content. | — | — | — | — | — | 11 |',
    );
    expect(markdown).toContain('| home | / | 96 | 1.7 | — | 151 | 0.05 | — | 10 |');
    expect(markdown).toContain('| basket (signed in) | /basket | 88 | 2.1 | — | 40 | 0.2 | — | 9 |');
    expect(markdown).toContain('Home first-load JS (gzip): 230.4 KiB from 47 modulepreload links');
    expect(markdown).toContain(
      '| Lighthouse mobile performance: search | ≥ 95 | failed: The page did not paint any content. | not measured |',
    );
    expect(markdown).toContain('- a note');

    const skipped = renderMarkdown(report({ lighthouse: { skipped: '--no-lighthouse', rows: [] } }));
    expect(skipped).toContain('Lighthouse: skipped (--no-lighthouse).');
    expect(skipped).toContain(
      '| Lighthouse (home, search, listing, orders, basket) | ≥ 95, LCP ≤ 1.8 s | — | not measured |',
    );
  });
});
