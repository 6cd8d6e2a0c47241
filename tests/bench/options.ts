/**
 * `pnpm bench` command-line options (pure: no I/O, unit-tested in bench.test.ts).
 *
 *   pnpm bench [--size 10k|100k|1m] [--duration <s>] [--rounds <n>] [--no-lighthouse] [--no-realtime]
 *              [--only request-path] [--baseline <checkout>]
 */

/** The dataset sizes the bench seeds: listings, and the sellers, charities and books behind them. */
export const BENCH_SIZES = {
  '10k': { sellers: 200, charities: 60, books: 2_500, listings: 10_000 },
  '100k': { sellers: 2_000, charities: 60, books: 25_000, listings: 100_000 },
  '1m': { sellers: 20_000, charities: 60, books: 250_000, listings: 1_000_000 },
} as const;

export type SizeName = keyof typeof BENCH_SIZES;
export interface BenchSize {
  sellers: number;
  charities: number;
  books: number;
  listings: number;
}

export interface BenchOptions {
  size: SizeName;
  /** Seconds each measured load lasts (after a warm-up of `warmupSeconds`). */
  durationSeconds: number;
  warmupSeconds: number;
  /** Interleaved rounds of the raw Fastify / healthz / stock / lean comparison. */
  rounds: number;
  lighthouse: boolean;
  /** Run tests/bench/realtime.ts after the catalogue bench (the second half of `pnpm bench`). */
  realtime: boolean;
  /** Run one part alone: `request-path` seeds nothing, writes no results file, runs no realtime bench. */
  only?: 'request-path';
  /**
   * Another checkout of the project (e.g. a worktree of main): its BFF's /healthz and lean
   * `account.auth.me` join the request-path rounds, so before and after are measured in one run.
   */
  baseline?: string;
  help: boolean;
}

export const ONLY_PARTS = ['request-path'] as const;

export const USAGE = `pnpm bench [options]

  --size 10k|100k|1m   listings to seed (default 100k; 1m takes several minutes to seed)
  --duration <s>       seconds of each measured load (default 12, or BENCH_DURATION)
  --rounds <n>         interleaved rounds of the raw Fastify / healthz / auth.me comparison (default 2)
  --no-lighthouse      skip Lighthouse (and the web build it needs)
  --no-realtime        skip the realtime fan-out bench (tests/bench/realtime.ts) afterwards
  --only request-path  only the request-path rounds (no seeding, no catalogue, web or realtime);
                       printed, not written to results/
  --baseline <dir>     another checkout (e.g. a worktree of main) whose /healthz and lean auth.me
                       join the request-path rounds: before and after in one run
  --help               this text`;

export class BenchArgsError extends Error {
  override name = 'BenchArgsError';
}

function wholeNumber(option: string, raw: string | undefined, min: number, max: number): number {
  if (raw === undefined || !/^\d+$/.test(raw)) {
    throw new BenchArgsError(
      `${option} needs a whole number from ${min} to ${max}, not ${JSON.stringify(raw ?? '')}`,
    );
  }
  const value = Number(raw);
  if (value < min || value > max) {
    throw new BenchArgsError(`${option} must be from ${min} to ${max}, not ${value}`);
  }
  return value;
}

/** Reads the bench's arguments (process.argv.slice(2)); throws BenchArgsError naming what is wrong. */
export function parseBenchArgs(
  argv: readonly string[],
  env: Record<string, string | undefined> = {},
): BenchOptions {
  const options: BenchOptions = {
    size: '100k',
    durationSeconds:
      env.BENCH_DURATION === undefined || env.BENCH_DURATION === ''
        ? 12
        : wholeNumber('BENCH_DURATION', env.BENCH_DURATION, 1, 600),
    warmupSeconds: 3,
    rounds: 2,
    lighthouse: true,
    realtime: true,
    help: false,
  };
  const args = [...argv];
  // `pnpm bench -- --size 10k` passes the separator through.
  if (args[0] === '--') args.shift();
  while (args.length) {
    const arg = args.shift()!;
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const next = args[0];
      if (next === undefined || next.startsWith('--')) throw new BenchArgsError(`${name} needs a value`);
      return args.shift()!;
    };
    switch (name) {
      case '--size': {
        const size = value().toLowerCase();
        if (!Object.hasOwn(BENCH_SIZES, size)) {
          throw new BenchArgsError(
            `--size must be one of ${Object.keys(BENCH_SIZES).join(', ')}, not ${JSON.stringify(size)}`,
          );
        }
        options.size = size as SizeName;
        break;
      }
      case '--duration':
        options.durationSeconds = wholeNumber('--duration', value(), 1, 600);
        break;
      case '--rounds':
        options.rounds = wholeNumber('--rounds', value(), 1, 20);
        break;
      case '--only': {
        const part = value();
        if (!(ONLY_PARTS as readonly string[]).includes(part)) {
          throw new BenchArgsError(
            `--only must be one of ${ONLY_PARTS.join(', ')}, not ${JSON.stringify(part)}`,
          );
        }
        options.only = part as (typeof ONLY_PARTS)[number];
        break;
      }
      case '--baseline':
        options.baseline = value();
        break;
      case '--no-lighthouse':
      case '--no-realtime':
      case '--help':
        if (inline !== undefined) throw new BenchArgsError(`${name} takes no value`);
        if (name === '--no-lighthouse') options.lighthouse = false;
        else if (name === '--no-realtime') options.realtime = false;
        else options.help = true;
        break;
      default:
        throw new BenchArgsError(`unknown option ${JSON.stringify(arg)}\n\n${USAGE}`);
    }
  }
  return options;
}
