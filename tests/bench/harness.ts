/**
 * What the benchmarks (run.ts, realtime.ts) share: a throwaway embedded PostgreSQL, migrated;
 * the real BFF as its own process in production mode, waited for until ready; latency
 * percentiles; a line about the machine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startEmbeddedPostgres } from '../../api/src/db/embedded.ts';
import { migrate } from '../../api/src/db/migrate.ts';
import { ensureDatabaseExists } from '../../api/src/runtime.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const log = (line: string) => console.info(line);

/** Cores, CPU model, memory and Node version, for the report. */
export function machine(): string {
  return `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

export const round2 = (n: number) => Math.round(n * 100) / 100;

export interface Percentiles {
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** Percentiles, max and mean of a set of milliseconds, to 2 decimals. */
export function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
  return {
    samples: sorted.length,
    p50: round2(at(0.5)),
    p95: round2(at(0.95)),
    p99: round2(at(0.99)),
    max: round2(sorted.at(-1) ?? 0),
    mean: round2(sorted.reduce((sum, n) => sum + n, 0) / Math.max(sorted.length, 1)),
  };
}

export interface ThrowawayDatabase {
  /** The temporary folder PostgreSQL's data lives in (free for the bench's own files too). */
  dir: string;
  /** The migrated database's URL. */
  databaseUrl: string;
  /** PostgreSQL's postmaster process now (its backends are its children). */
  postmasterPid(): number;
  /** Stops PostgreSQL and removes the folder. */
  stop(): Promise<void>;
}

/** An embedded PostgreSQL in a temporary folder with database `name`, migrated (bootstrap). */
export async function throwawayDatabase(folderPrefix: string, name: string): Promise<ThrowawayDatabase> {
  const dir = await mkdtemp(path.join(tmpdir(), folderPrefix));
  await chmod(dir, 0o755);
  const server = await startEmbeddedPostgres({ dataDir: dir, ephemeral: true });
  const stop = async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const databaseUrl = server.url(name);
    await ensureDatabaseExists(server.url(), name);
    await migrate(databaseUrl, { bootstrap: true });
    return { dir, databaseUrl, postmasterPid: () => server.pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface Bff {
  url: string;
  port: number;
  child: ChildProcess;
}

/**
 * The real BFF (api/src/main.ts) in its own process, production mode, on a free port, with
 * `env` over the production settings the bench needs; resolves once /readyz answers.
 */
export async function startBff(options: {
  databaseUrl: string;
  env?: Record<string, string>;
  /** Node options before `--import tsx`, e.g. `--expose-gc`. */
  nodeArgs?: string[];
  /** The checkout whose BFF to run (another worktree, for a baseline); this one by default. */
  root?: string;
}): Promise<Bff> {
  const port = await freePort();
  const root = options.root ?? ROOT;
  const args = [...(options.nodeArgs ?? []), '--import', 'tsx', path.join(root, 'api/src/main.ts')];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // Production requires Stripe for payments; the benchmark never pays for anything.
      STRIPE_SECRET_KEY: 'sk_test_benchmark_unused',
      STRIPE_WEBHOOK_SECRET: 'whsec_benchmark_unused',
      EASYPOST_API_KEY: 'EZTKoffline0123',
      EASYPOST_WEBHOOK_SECRET: 'carrier-webhook-offline',
      // Production mail must leave the building; the benchmark sends none (port 9 discards).
      MAIL: 'smtp',
      SMTP_URL: 'smtp://127.0.0.1:9',
      MAIL_FROM: 'Reshelf <no-reply@reshelf.example>',
      LOG_LEVEL: 'info',
      DATABASE_URL: options.databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      WEB_DIST: path.join(root, 'api/.no-web-dist'),
      ...options.env,
    },
    // Request logs are written (pino at info, as in production) and thrown away.
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the BFF exited during start-up: ${stderr}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { url, port, child };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGTERM');
  throw new Error(`the BFF did not become ready: ${stderr}`);
}

/** Stops a BFF process (if it still runs) and waits for it to exit. */
export async function stopBff(child: ChildProcess | undefined): Promise<void> {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}
