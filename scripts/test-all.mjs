#!/usr/bin/env node
// `pnpm test:all`: everything CI checks, in order, stopping at the first failure.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const steps = [
  ['typecheck', 'node', [path.join(root, 'scripts/typecheck.mjs')]],
  ['lint: Biome', bin('biome'), ['check', '.']],
  [
    'lint: boundaries (domains, kernel, no import cycles)',
    process.execPath,
    ['--import', 'tsx', path.join(root, 'api/scripts/check-imports.ts'), '--self-test'],
  ],
  [
    'lint: plurals through one helper',
    process.execPath,
    ['--import', 'tsx', path.join(root, 'api/scripts/check-plurals.ts'), '--self-test'],
  ],
  [
    'lint: money computed only in the money module',
    process.execPath,
    ['--import', 'tsx', path.join(root, 'api/scripts/check-money.ts'), '--self-test'],
  ],
  [
    'openapi: up to date',
    process.execPath,
    ['--import', 'tsx', path.join(root, 'api/scripts/openapi.ts'), '--verify'],
  ],
  [
    'openapi: lint (Redocly, recommended-strict)',
    bin('redocly'),
    ['lint', 'openapi/openapi.json', '--config', 'openapi/redocly.yaml'],
  ],
  [
    'web build',
    process.execPath,
    [path.join(root, 'web/node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    'web',
  ],
  [
    'edge functions: deno check (tests and each deploy import map), deno test, the deploy upload',
    process.execPath,
    [path.join(root, 'scripts/test-edge.mjs')],
  ],
  ['chromium', process.execPath, [path.join(root, 'scripts/ensure-chromium.mjs')]],
  [
    'tests (unit, integration, browser)',
    bin('vitest'),
    ['run', '--project', 'unit', '--project', 'integration', '--project', 'e2e'],
  ],
  // The unit and integration tests again on the Node the Docker image ships (the Active LTS,
  // decision 0062), installed from npm at run time: the machine's own Node (20 here) is what the
  // steps above ran on.
  [
    'tests on the image’s Node LTS (unit, integration)',
    process.execPath,
    [path.join(root, 'scripts/test-node-lts.mjs')],
  ],
  // On its own, after everything else: it restarts PostgreSQL, kills the site and overloads it,
  // and its timings must not compete with other tests (decision 0024).
  ['fault suite (PostgreSQL restarts, SIGKILL, overload)', bin('vitest'), ['run', '--project', 'faults']],
];

const env = { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1', REDOCLY_TELEMETRY: 'off' };

// Started at once and run beside the steps before `awaitedBefore`, which mostly keep one core
// busy; its output is shown when it is awaited. PostgreSQL 17 is the major hosted Supabase runs
// (decision 0033): the SQL-heaviest integration files and the Supabase CLI's push run on it,
// while the main test step runs every file on 18.
const beside = {
  name: 'tests on PostgreSQL 17 (integration-pg17: SQL-heaviest files, supabase db push)',
  command: bin('vitest'),
  args: ['run', '--project', 'integration-pg17'],
  awaitedBefore: 'tests (unit, integration, browser)',
};

function startBeside(job) {
  const started = Date.now();
  // Its output goes to a file, not a pipe: the steps meanwhile run with spawnSync, which blocks
  // this process, so a pipe would fill and stall the job.
  const logDir = mkdtempSync(path.join(tmpdir(), 'reshelf-test-all-'));
  const logFile = path.join(logDir, 'output.log');
  const log = openSync(logFile, 'w');
  // Its own process group, so stopping it stops its PostgreSQL too.
  const child = spawn(job.command, job.args, {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const done = new Promise((resolve) => {
    child.on('error', (error) => resolve({ status: null, signal: error.message }));
    child.on('close', (status, signal) => resolve({ status, signal }));
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    }
  };
  process.on('exit', stop);
  return {
    stop,
    async wait() {
      console.info(`\n▶ ${job.name} (started beside the steps above)`);
      const result = await done;
      process.off('exit', stop);
      process.stdout.write(readFileSync(logFile));
      rmSync(logDir, { recursive: true, force: true });
      return { ...result, seconds: ((Date.now() - started) / 1000).toFixed(1) };
    },
  };
}

const besideRun = startBeside(beside);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    besideRun.stop();
    process.exit(130);
  });
}

for (const [name, command, args, cwd] of steps) {
  if (name === beside.awaitedBefore) {
    const result = await besideRun.wait();
    if (result.status !== 0) {
      console.error(`\n✗ ${beside.name} failed (exit ${result.status ?? result.signal})`);
      process.exit(result.status || 1);
    }
    console.info(`✓ ${beside.name} (${result.seconds} s since it started)`);
  }
  const started = Date.now();
  console.info(`\n▶ ${name}`);
  const result = spawnSync(command, args, {
    cwd: path.join(root, cwd ?? ''),
    stdio: 'inherit',
    env,
  });
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed (exit ${result.status ?? result.signal})`);
    besideRun.stop();
    process.exit(result.status || 1);
  }
  console.info(`✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
