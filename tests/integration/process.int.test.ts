/**
 * The real entry point as a process: start-up (its pool connected as the runtime role), restart
 * with data kept, SIGTERM leaving no postgres behind, recovery after a hard kill, bad
 * configuration, and an ordinary user.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmod, chown, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { runOps } from '../../api/scripts/ops.ts';
import { freePort } from '../../api/src/db/embedded.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** How long one start may take before it counts as hung; a test below starts twice. */
const START_BUDGET_MS = 120_000;
const MAIN = path.join(ROOT, 'api/src/main.ts');

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDataDir(owner?: { uid: number; gid: number }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'reshelf-proc-'));
  await chmod(dir, 0o755);
  if (owner) await chown(dir, owner.uid, owner.gid);
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function launch(env: NodeJS.ProcessEnv, as?: { uid: number; gid: number }): Omit<Started, 'port'> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      ...env,
      HOME: as ? tmpdir() : process.env.HOME,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(as ?? {}),
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  });
  return { child, output: () => output, exited };
}

async function startMarketplace(dataDir: string, as?: { uid: number; gid: number }): Promise<Started> {
  const port = await freePort();
  const started = launch({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' }, as);
  // Start-up (PostgreSQL, migrations, the first seed) is waited for, not timed: the budget only
  // bounds a start that hangs, and a busy machine is slow, not broken.
  const deadline = Date.now() + START_BUDGET_MS;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`exited early:\n${started.output()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok) return { ...started, port };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no /healthz within ${START_BUDGET_MS / 1000} s:\n${started.output()}`);
}

function postgresProcessesFor(dataDir: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid,args']).toString();
  return out
    .split('\n')
    .filter((line) => line.includes('postgres') && line.includes(path.join(dataDir, 'pg')));
}

async function embeddedClient(dataDir: string, output: string): Promise<pg.Client> {
  const port = /embedded PostgreSQL ready on port (\d+)/.exec(output)?.[1];
  const password = (await readFile(path.join(dataDir, 'postgres.password'), 'utf8')).trim();
  const client = new pg.Client({
    host: '127.0.0.1',
    port: Number(port),
    user: 'postgres',
    password,
    database: 'reshelf',
  });
  await client.connect();
  return client;
}

async function categorySlugs(port: number): Promise<string[]> {
  const response = await fetch(`http://127.0.0.1:${port}/trpc/catalogue.taxonomy.public.categories`);
  const body = (await response.json()) as { result: { data: { slug: string }[] } };
  return body.result.data.map((category) => category.slug);
}

describe('the marketplace process', { timeout: 2 * START_BUDGET_MS + 30_000 }, () => {
  it('starts, keeps its data across a restart, and leaves no postgres after SIGTERM', async () => {
    const dataDir = await tempDataDir();
    const first = await startMarketplace(dataDir);
    expect(first.output()).toContain('demo data seeded: reference-data');
    expect(await categorySlugs(first.port)).toContain('fiction');

    // The pool connects as the runtime role, never as the superuser (decision 0026).
    expect(first.output()).toContain(
      'database: the BFF connects as reshelf_app (not superuser, owns no tables)',
    );
    expect((await stat(path.join(dataDir, 'reshelf_app.password'))).mode & 0o777).toBe(0o600);
    // `pnpm ops bootstrap` beside a running server uses that server's embedded database (a
    // second server on the same data would stop the first one's), and refuses: the demo seed
    // made admins.
    let bootstrapErr = '';
    const bootstrap = await runOps(['bootstrap', '--email', 'new.owner@example.com'], {
      env: { NODE_ENV: 'development', DATA_DIR: dataDir },
      out: () => {},
      err: (text) => {
        bootstrapErr += text;
      },
    });
    expect(bootstrap, bootstrapErr).toBe(5);
    expect(bootstrapErr).toContain(`using the embedded PostgreSQL running on ${dataDir}`);
    expect(bootstrapErr).toMatch(/Refused: An active admin already exists \(.*@reshelf\.test/);
    expect(await categorySlugs(first.port)).toContain('fiction');

    const client = await embeddedClient(dataDir, first.output());
    const { rows: sessions } = await client.query(
      "select distinct usename from pg_stat_activity where application_name = 'reshelf-api'",
    );
    expect(sessions).toEqual([{ usename: 'reshelf_app' }]);
    await client.query(
      "insert into categories (slug, name, position) values ('kept-across-restarts', 'Kept', 100)",
    );
    await client.end();

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(postgresProcessesFor(dataDir)).toEqual([]);

    const second = await startMarketplace(dataDir);
    expect(second.output()).not.toContain('demo data seeded');
    expect(second.output()).toMatch(/migrations: 0 applied, [1-9]\d* already in place/);
    expect(await categorySlugs(second.port)).toContain('kept-across-restarts');
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(postgresProcessesFor(dataDir)).toEqual([]);
  });

  it('Ctrl+C on `pnpm start` stops quietly, in order, with one line and exit code 0', async () => {
    const dataDir = await tempDataDir();
    // The web the site serves, built already: `pnpm start` builds web/dist only when WEB_DIST is not given.
    const web = await tempDataDir();
    await writeFile(path.join(web, 'index.html'), '<!doctype html><div id="root"></div>');
    const port = await freePort();
    // What the terminal does: `pnpm start` in a process group of its own, and Ctrl+C sends SIGINT
    // to every process in it (pnpm, the start script, the server, and whatever else shares it).
    const pnpm = process.env.npm_execpath;
    const command = pnpm && /pnpm/.test(pnpm) ? [pnpm, 'start'] : [path.join(ROOT, 'scripts/start.mjs')];
    const child = spawn(process.execPath, command, {
      cwd: ROOT,
      detached: true,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        LOG_LEVEL: 'info',
        DATA_DIR: dataDir,
        PORT: String(port),
        WEB_DIST: web,
        WEB_SSR: path.join(web, 'no-ssr'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr!.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(-child.pid!, 'SIGKILL');
        await exited;
      }
    });
    const deadline = Date.now() + START_BUDGET_MS;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited early:\n${output}`);
      if (Date.now() > deadline)
        throw new Error(`no /healthz within ${START_BUDGET_MS / 1000} s:\n${output}`);
      const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await categorySlugs(port)).toContain('fiction');
    // A request line in development is short and for people: no JSON.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const requestLine = output
      .split('\n')
      .find((line) => line.includes('/trpc/catalogue.taxonomy.public.categories'));
    expect(requestLine, output).toMatch(
      /^\d\d:\d\d:\d\d GET \/trpc\/catalogue\.taxonomy\.public\.categories 200 \d+(\.\d)? ms$/,
    );
    expect(output).not.toMatch(/^\{"level"/m);

    const before = output.length;
    process.kill(-child.pid!, 'SIGINT');
    expect(await exited, output).toBe(0);
    const after = output.slice(before).trim().split('\n');
    expect(after, output.slice(before)).toEqual([expect.stringMatching(/^\[reshelf\] stopped \(SIGINT\)/)]);
    expect(postgresProcessesFor(dataDir)).toEqual([]);
  });

  it('recovers when a killed process left its postgres running', async () => {
    const dataDir = await tempDataDir();
    const first = await startMarketplace(dataDir);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(postgresProcessesFor(dataDir).length).toBeGreaterThan(0);

    const second = await startMarketplace(dataDir);
    expect(await categorySlugs(second.port)).toContain('fiction');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(postgresProcessesFor(dataDir)).toEqual([]);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number \(got "eighty"\)/],
    [
      { DATABASE_URL: 'localhost:5432' },
      /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ connection string/,
    ],
    // Mail must leave the building in production.
    [{ NODE_ENV: 'production', MAIL: 'dev' }, /MAIL cannot be dev in production/],
    [{ NODE_ENV: 'production', MAIL: 'smtp' }, /SMTP_URL is required when MAIL=smtp/],
  ])('refuses to start on %o with a message naming the variable', async (env, message) => {
    const started = launch(env);
    expect(await started.exited).toBe(1);
    expect(started.output()).toMatch(message);
  });

  it('lists every missing production setting in one message, without a stack trace', async () => {
    const started = launch({
      NODE_ENV: 'production',
      PORT: 'eighty',
      STRIPE_SECRET_KEY: 'pk_live_not_a_secret_key',
      // Set in the developer's shell perhaps: production must not take them from there.
      PUBLIC_ORIGIN: '',
      APP_SECRET: '',
      DATABASE_URL: '',
    });
    expect(await started.exited).toBe(1);
    const output = started.output();
    const lines = output.trim().split('\n');
    expect(lines[0]).toBe('[reshelf] Invalid configuration:');
    expect(lines.slice(1).map((line) => line.trim().split(' ')[1])).toEqual([
      'PORT',
      'STRIPE_SECRET_KEY',
      'PUBLIC_ORIGIN',
      'STRIPE_WEBHOOK_SECRET',
      'EASYPOST_API_KEY',
      'EASYPOST_WEBHOOK_SECRET',
      'MAIL',
      'DATABASE_URL',
      'APP_SECRET',
    ]);
    expect(output).toMatch(/PORT must be a whole number \(got "eighty"\)/);
    expect(output).toMatch(/STRIPE_SECRET_KEY must be a Stripe secret key \(sk_…\)/);
    expect(output).toMatch(/APP_SECRET is required in production: at least 32 random characters/);
    expect(output).not.toMatch(/^\s+at /m);
  });

  it.runIf(process.getuid?.() === 0)('runs as an ordinary user too', async () => {
    const nobody = { uid: 65534, gid: 65534 };
    const dataDir = await tempDataDir(nobody);
    const started = await startMarketplace(dataDir, nobody);
    expect(await categorySlugs(started.port)).toContain('fiction');
    const owner = execFileSync('stat', ['-c', '%u', path.join(dataDir, 'pg')])
      .toString()
      .trim();
    expect(owner).toBe('65534');
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    expect(postgresProcessesFor(dataDir)).toEqual([]);
  });
});
