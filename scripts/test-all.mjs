#!/usr/bin/env node
// `pnpm test:all`: everything CI checks, in order, stopping at the first failure.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const steps = [
  ['typecheck', 'node', [path.join(root, 'scripts/typecheck.mjs')]],
  ['lint', bin('biome'), ['check', '.']],
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
  // On its own, after everything else: it restarts PostgreSQL, kills the site and overloads it,
  // and its timings must not compete with other tests (decision 0024).
  ['fault suite (PostgreSQL restarts, SIGKILL, overload)', bin('vitest'), ['run', '--project', 'faults']],
];

for (const [name, command, args, cwd] of steps) {
  const started = Date.now();
  console.info(`\n▶ ${name}`);
  const result = spawnSync(command, args, {
    cwd: path.join(root, cwd ?? ''),
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1', REDOCLY_TELEMETRY: 'off' },
  });
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
  console.info(`✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
