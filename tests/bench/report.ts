/**
 * The bench's results: their shape (also written as JSON), the targets (the request path, the
 * catalogue's reads, the pages) judged against them, and the markdown table. Pure (bench.test.ts). Figures are reported here,
 * never asserted by a test: "not met" is a result, not a failure.
 */

import { FIRST_LOAD_TARGET_KIB, MAX_MODULEPRELOADS } from '../../scripts/first-load-js.mjs';

export interface LoadFigures {
  /** Responses received in the measured window. */
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  non2xx: number;
  /** The non-2xx answers by status code. */
  failures?: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
  /** CPU milliseconds per request, from /proc (undefined: nothing answered). */
  nodeCpuMs: number | undefined;
  postgresCpuMs: number | undefined;
}

export interface PathRow {
  name: 'raw' | 'healthz' | 'stock' | 'lean' | 'healthz-baseline' | 'lean-baseline';
  title: string;
  /** Not measured, and why (e.g. the lean path is not on this branch). */
  unavailable?: string;
  figures?: LoadFigures;
}

export interface CatalogueRow {
  scenario: 'search' | 'browse' | 'detail';
  title: string;
  distinctInputs: number;
  /** The public cache off: judged against the targets. */
  cacheOff: LoadFigures;
  /** The production setting (PUBLIC_CACHE_SECONDS=60), same inputs: reported beside. */
  cacheOn: LoadFigures;
}

/** The public pages buyers arrive on, then the signed-in pages reported beside them. */
export const LIGHTHOUSE_PAGES = ['home', 'search', 'listing', 'orders', 'basket'] as const;

export interface LighthouseRow {
  page: (typeof LIGHTHOUSE_PAGES)[number];
  url: string;
  /** Loaded with a member's session cookies. */
  signedIn?: boolean;
  performance?: number;
  lcpMs?: number;
  tbtMs?: number;
  cls?: number;
  fcpMs?: number;
  /** Every script the page loaded, transfer size (Lighthouse's resource summary). */
  scriptKiB?: number;
  /** The modulepreload links of the page's HTML as served. */
  modulePreloads?: number;
  error?: string;
}

export interface BenchReport {
  ranAt: string;
  command: string;
  size: string;
  data: { sellers: number; charities: number; books: number; listings: number; seedSeconds: number };
  machine: string;
  cores: number;
  /** 1, 5 and 15-minute load averages when the measuring began and when it ended. */
  loadAverage: { start: number[]; end: number[] };
  load: {
    connections: number;
    durationSeconds: number;
    warmupSeconds: number;
    rounds: number;
    poolMax: number;
  };
  /** What the catalogue's BFFs ran on (TRPC_PATH unset: the app's default). */
  trpcPath: string;
  paths: PathRow[];
  catalogue: CatalogueRow[];
  web: {
    /** First-load JavaScript of the home page, gzip, as the build's budget measures it. */
    homeJsGzipKiB?: number;
    /** The home page's modulepreload links. */
    homeModulePreloads?: number;
    /** Whether a built asset was answered with Content-Encoding br or gzip. */
    precompressed?: string;
    note?: string;
  };
  lighthouse: { skipped?: string; rows: LighthouseRow[] };
  notes: string[];
}

export interface TargetRow {
  what: string;
  target: string;
  measured: string;
  /** null: not measured in this run. */
  met: boolean | null;
}

const fmt = (n: number | undefined, digits = 2) =>
  n === undefined || !Number.isFinite(n) ? '—' : String(Math.round(n * 10 ** digits) / 10 ** digits);
const pct = (n: number | undefined) => (n === undefined ? '—' : `${fmt(n * 100, 1)}%`);

/** Node + PostgreSQL CPU milliseconds per request. */
export function totalCpuMs(figures: LoadFigures | undefined): number | undefined {
  if (figures?.nodeCpuMs === undefined || figures.postgresCpuMs === undefined) return undefined;
  return figures.nodeCpuMs + figures.postgresCpuMs;
}

/** Throughput of `row` as a share of the raw Fastify hello's. */
export function shareOfRaw(paths: readonly PathRow[], name: PathRow['name']): number | undefined {
  const raw = paths.find((p) => p.name === 'raw')?.figures;
  const row = paths.find((p) => p.name === name)?.figures;
  if (!raw || !row || raw.perSecond <= 0) return undefined;
  return row.perSecond / raw.perSecond;
}

/** A load counts only if every request answered 2xx. */
const clean = (f: LoadFigures | undefined) => f !== undefined && f.non2xx === 0 && f.errors === 0;

function judged(value: number | undefined, op: '<=' | '>=', limit: number, valid = true): boolean | null {
  if (value === undefined) return null;
  if (!valid) return false;
  return op === '<=' ? value <= limit : value >= limit;
}

/** The pages' targets (the signed-in pages, reported beside the public ones, by the same). */
export const WEB_TARGETS = {
  homeJsKiB: FIRST_LOAD_TARGET_KIB,
  modulePreloads: MAX_MODULEPRELOADS,
  performance: 95,
  lcpMs: 1800,
  tbtMs: 150,
  cls: 0.05,
} as const;

const CPU_TARGET_MS = { search: 1.0, browse: 1.0, detail: 0.4 } as const;
const P95_TARGET_MS = { search: 60, browse: 60, detail: 25 } as const;

/** The targets against this run's figures. */
export function targets(report: BenchReport): TargetRow[] {
  const rows: TargetRow[] = [];
  const lean = report.paths.find((p) => p.name === 'lean');
  // The lean path when the branch has it (it is then the default), else the stock plugin.
  const trpc = lean?.figures ? 'lean' : 'stock';
  const trpcShare = shareOfRaw(report.paths, trpc);
  rows.push({
    what: `account.auth.me (anonymous, ${trpc} path) throughput vs raw Fastify hello`,
    target: '≥ 35%',
    measured: pct(trpcShare),
    met: judged(trpcShare, '>=', 0.35, clean(report.paths.find((p) => p.name === trpc)?.figures)),
  });
  const healthz = shareOfRaw(report.paths, 'healthz');
  rows.push({
    what: '/healthz throughput vs raw Fastify hello',
    target: '≥ 70%',
    measured: pct(healthz),
    met: judged(healthz, '>=', 0.7, clean(report.paths.find((p) => p.name === 'healthz')?.figures)),
  });
  for (const row of report.catalogue) {
    const cpu = totalCpuMs(row.cacheOff);
    rows.push({
      what: `${row.scenario}, cache off, ${report.size}: CPU per request (Node + PostgreSQL)`,
      target: `≤ ${CPU_TARGET_MS[row.scenario]} ms`,
      measured:
        cpu === undefined
          ? '—'
          : `${fmt(cpu)} ms (${fmt(row.cacheOff.nodeCpuMs)} + ${fmt(row.cacheOff.postgresCpuMs)})`,
      met: judged(cpu, '<=', CPU_TARGET_MS[row.scenario], clean(row.cacheOff)),
    });
  }
  for (const row of report.catalogue) {
    rows.push({
      what: `${row.scenario}, cache off, ${report.size}: p95 at ${report.load.connections} concurrent`,
      target: `≤ ${P95_TARGET_MS[row.scenario]} ms`,
      measured: `${fmt(row.cacheOff.p95)} ms`,
      met: judged(row.cacheOff.p95, '<=', P95_TARGET_MS[row.scenario], clean(row.cacheOff)),
    });
  }
  rows.push({
    what: 'home page first-load JS, gzip',
    target: `≤ ${WEB_TARGETS.homeJsKiB} KiB`,
    measured: report.web.homeJsGzipKiB === undefined ? '—' : `${fmt(report.web.homeJsGzipKiB, 1)} KiB`,
    met: judged(report.web.homeJsGzipKiB, '<=', WEB_TARGETS.homeJsKiB),
  });
  for (const row of report.lighthouse.rows) {
    const page = `${row.page}${row.signedIn ? ' (signed in)' : ''}`;
    const failed = row.error ? `failed: ${row.error}` : '—';
    rows.push({
      what: `modulepreload links: ${page}`,
      target: `≤ ${WEB_TARGETS.modulePreloads}`,
      measured: row.modulePreloads === undefined ? '—' : String(row.modulePreloads),
      met: judged(row.modulePreloads, '<=', WEB_TARGETS.modulePreloads),
    });
    rows.push({
      what: `Lighthouse mobile performance: ${page}`,
      target: `≥ ${WEB_TARGETS.performance}`,
      measured: row.performance === undefined ? failed : fmt(row.performance, 0),
      met: judged(row.performance, '>=', WEB_TARGETS.performance),
    });
    rows.push({
      what: `Lighthouse mobile LCP: ${page}`,
      target: `≤ ${WEB_TARGETS.lcpMs / 1000} s`,
      measured: row.lcpMs === undefined ? '—' : `${fmt(row.lcpMs / 1000)} s`,
      met: judged(row.lcpMs, '<=', WEB_TARGETS.lcpMs),
    });
    rows.push({
      what: `Lighthouse mobile total blocking time: ${page}`,
      target: `≤ ${WEB_TARGETS.tbtMs} ms`,
      measured: row.tbtMs === undefined ? '—' : `${fmt(row.tbtMs, 0)} ms`,
      met: judged(row.tbtMs, '<=', WEB_TARGETS.tbtMs),
    });
    rows.push({
      what: `Lighthouse mobile CLS: ${page}`,
      target: `≤ ${WEB_TARGETS.cls}`,
      measured: row.cls === undefined ? '—' : fmt(row.cls, 3),
      met: judged(row.cls, '<=', WEB_TARGETS.cls),
    });
  }
  if (report.lighthouse.skipped) {
    rows.push({
      what: `Lighthouse (${LIGHTHOUSE_PAGES.join(', ')})`,
      target: `≥ ${WEB_TARGETS.performance}, LCP ≤ ${WEB_TARGETS.lcpMs / 1000} s`,
      measured: '—',
      met: null,
    });
  }
  rows.push({
    what: 'static assets pre-compressed (br/gzip)',
    target: 'yes',
    measured: report.web.precompressed ?? '—',
    met: report.web.precompressed === undefined ? null : /^(br|gzip)/.test(report.web.precompressed),
  });
  return rows;
}

/** Escapes a table cell. */
const cell = (value: string) => value.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Non-2xx answers and connection errors, with their status codes. */
export function failuresText(f: LoadFigures): string {
  const total = f.non2xx + f.errors;
  const parts = Object.entries(f.failures ?? {}).map(([code, n]) => `${n}× ${code}`);
  if (f.errors) parts.push(`${f.errors} errors`);
  return total && parts.length ? `${total} (${parts.join(', ')})` : String(total);
}

const metText = (met: boolean | null) => (met === null ? 'not measured' : met ? 'met' : 'NOT met');
const microseconds = (ms: number | undefined) => (ms === undefined ? '—' : fmt(ms * 1000, 0));

/** The results as markdown: the targets first, then every figure behind them. */
export function renderMarkdown(report: BenchReport): string {
  const load = (values: number[]) => values.map((v) => fmt(v)).join(' / ');
  const out: string[] = [];
  out.push(`# Reshelf bench, ${report.ranAt} (${report.size})`);
  out.push('');
  out.push(`- Command: \`${report.command}\``);
  out.push(`- Machine: ${report.machine}`);
  out.push(
    `- Load average (1 / 5 / 15 min) on ${report.cores} cores: ${load(report.loadAverage.start)} at the start, ${load(report.loadAverage.end)} at the end`,
  );
  out.push(
    `- Data: ${report.data.listings.toLocaleString('en-GB')} listings, ${report.data.books.toLocaleString('en-GB')} books, ${report.data.sellers.toLocaleString('en-GB')} sellers, ${report.data.charities} charities (seeded in ${fmt(report.data.seedSeconds, 1)} s)`,
  );
  out.push(
    `- Load: autocannon, ${report.load.connections} connections, ${report.load.durationSeconds} s measured after ${report.load.warmupSeconds} s warm-up; BFF pool ${report.load.poolMax}; tRPC path of the catalogue BFFs: ${report.trpcPath}`,
  );
  out.push('');
  out.push('## Targets');
  out.push('');
  out.push(
    markdownTable(
      ['what', 'target', 'measured', 'result'],
      targets(report).map((t) => [t.what, t.target, t.measured, metText(t.met)]),
    ),
  );
  out.push('');
  out.push(`## Request path (${report.load.rounds} interleaved rounds)`);
  out.push('');
  out.push(
    markdownTable(
      [
        'endpoint',
        'req/s',
        'share of raw',
        'p50 ms',
        'p95 ms',
        'Node CPU µs/req',
        'PostgreSQL CPU µs/req',
        'non-2xx',
      ],
      report.paths.map((p) =>
        p.figures
          ? [
              p.title,
              fmt(p.figures.perSecond, 0),
              pct(shareOfRaw(report.paths, p.name)),
              fmt(p.figures.p50),
              fmt(p.figures.p95),
              microseconds(p.figures.nodeCpuMs),
              microseconds(p.figures.postgresCpuMs),
              failuresText(p.figures),
            ]
          : [p.title, p.unavailable ?? 'not available', '—', '—', '—', '—', '—', '—'],
      ),
    ),
  );
  out.push('');
  out.push('## Catalogue');
  out.push('');
  out.push(
    markdownTable(
      [
        'scenario',
        'public cache',
        'distinct inputs',
        'requests',
        'req/s',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'Node CPU ms/req',
        'PostgreSQL CPU ms/req',
        'total CPU ms/req',
        'non-2xx',
      ],
      report.catalogue.flatMap((row) =>
        (
          [
            ['off (judged)', row.cacheOff],
            ['on (60 s)', row.cacheOn],
          ] as const
        ).map(([label, f]) => [
          row.title,
          label,
          String(row.distinctInputs),
          String(f.requests),
          fmt(f.perSecond, 0),
          fmt(f.p50),
          fmt(f.p95),
          fmt(f.p99),
          fmt(f.nodeCpuMs, 3),
          fmt(f.postgresCpuMs, 3),
          fmt(totalCpuMs(f), 3),
          failuresText(f),
        ]),
      ),
    ),
  );
  out.push('');
  out.push('## Web');
  out.push('');
  if (report.lighthouse.skipped) out.push(`Lighthouse: skipped (${report.lighthouse.skipped}).`);
  else {
    out.push(
      markdownTable(
        [
          'page',
          'URL',
          'performance',
          'LCP s',
          'FCP s',
          'TBT ms',
          'CLS',
          'scripts loaded KiB',
          'modulepreloads',
        ],
        report.lighthouse.rows.map((r) => [
          `${r.page}${r.signedIn ? ' (signed in)' : ''}`,
          r.url,
          r.performance === undefined ? `failed: ${r.error ?? 'no score'}` : fmt(r.performance, 0),
          r.lcpMs === undefined ? '—' : fmt(r.lcpMs / 1000),
          r.fcpMs === undefined ? '—' : fmt(r.fcpMs / 1000),
          fmt(r.tbtMs, 0),
          fmt(r.cls, 3),
          fmt(r.scriptKiB, 1),
          r.modulePreloads === undefined ? '—' : String(r.modulePreloads),
        ]),
      ),
    );
  }
  out.push('');
  out.push(
    `Home first-load JS (gzip): ${report.web.homeJsGzipKiB === undefined ? '—' : `${fmt(report.web.homeJsGzipKiB, 1)} KiB`} from ${report.web.homeModulePreloads ?? '—'} modulepreload links; built asset answered with: ${report.web.precompressed ?? '—'}${report.web.note ? ` (${report.web.note})` : ''}.`,
  );
  out.push('');
  out.push('## Notes');
  out.push('');
  for (const note of report.notes) out.push(`- ${note}`);
  out.push('');
  return out.join('\n');
}
